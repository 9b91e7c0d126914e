// King of the Dice: The Board Game on the phone page: draws its view (GET /api/state with
// "game": "board") and sends its action words. app.js owns the page (token, live stream,
// toasts, undo, the typed-action box); the view brings its sentences in the page's language
// (rules/board/view.py), this file only its button labels.
(() => {
  "use strict";

  const GAMES = window.KOTD_GAMES = window.KOTD_GAMES || {};
  const ui = { entering: null, throwing: [], earlier: null };
  const WORDS = {
    en: { market: "Labour market", enter: "Choose the card", none: "not entered", used: "used up",
      take: "Take", down: "Take face down", jokers: "Jokers", use: "Use these jokers",
      stars: "stars", enter_throw: "Enter the throw", done: "Done", effects: "Effects",
      sheet: "Final scoring", area: "castles in the largest area", outside: "fields outside",
      count: "Count", tiles: "castle tiles left", supers: "super jokers", gems: "gems",
      white: "white", gold: "gold", fires: "dragon fires", markers: "markers", place: "place",
      points: "points", cancel: "Cancel", apply: "Enter", pick_value: "number", pick_colour: "colour",
      gem_white: "+ white gem", gem_gold: "+ gold gem", fire: "Chase a dragon fire", replace: "Replace a marker of",
      steal: "Steal from", red: "red", green: "green", blue: "blue", kind: "kind", numbers: "numbers",
      joker_die: "joker (e.g. 6r)", steal_card: "steals a card", steal_gem: "steals a gem",
      k_colours: "dice of colours (2r 1b)", k_pips: "these dice (6 3r)", k_groups: "groups (3 2)",
      k_sum: "sum at least (25)", k_sum_colour: "a colour's sum at least (r 12)",
      k_sums: "sums in order (r b g)", k_straight: "a run (4)" },
    de: { market: "Arbeitsmarkt", enter: "Karte wählen", none: "nicht eingegeben", used: "aufgebraucht",
      take: "Nehmen", down: "Verdeckt nehmen", jokers: "Joker", use: "Diese Joker einsetzen",
      stars: "Sterne", enter_throw: "Wurf eingeben", done: "Fertig", effects: "Wirkung",
      sheet: "Schlusswertung", area: "Burgen im größten Gebiet", outside: "Felder außerhalb",
      count: "Zählen", tiles: "Burgplättchen übrig", supers: "Superjoker", gems: "Edelsteine",
      white: "weiß", gold: "gold", fires: "Drachenfeuer", markers: "Marker", place: "Platz",
      points: "Punkte", cancel: "Abbrechen", apply: "Eintragen", pick_value: "Zahl", pick_colour: "Farbe",
      gem_white: "+ weißer Edelstein", gem_gold: "+ goldener Edelstein", fire: "Drachenfeuer vertreiben",
      replace: "Marker ersetzen von", steal: "Stehlen von", red: "rot", green: "grün", blue: "blau",
      kind: "Art", numbers: "Zahlen", joker_die: "Joker (z. B. 6r)", steal_card: "stiehlt eine Karte",
      steal_gem: "stiehlt einen Edelstein", k_colours: "Würfel in Farben (2r 1b)", k_pips: "diese Würfel (6 3r)",
      k_groups: "Gruppen (3 2)", k_sum: "Summe mindestens (25)", k_sum_colour: "Summe einer Farbe mindestens (r 12)",
      k_sums: "Summen absteigend (r b g)", k_straight: "Straße (4)" },
  };
  const COLOURS = { r: "red", g: "green", b: "blue" };

  function w(C) { return WORDS[C.LANG] || WORDS.en; }

  // one action at a time (app.js): a tap while one is on its way waits on a disabled button
  function send(C, line) { return C.actAlone(line); }

  async function sendAll(C, lines) {
    for (const line of lines) if (!(await send(C, line))) return;
  }

  function die(C, text, extra) {
    const value = text.slice(0, -1), colour = COLOURS[text.slice(-1)] || "none";
    return C.h("span", { class: "die c-" + colour + (extra ? " " + extra : ""), role: "img",
      "aria-label": value + " " + (w(C)[colour] || ""), dataset: { n: value } }, value);
  }

  // the card's dice as it shows them: "6r", "6" (any colour), "?b" (any number), "A" (a
  // group's symbol), "+" (a die of a run)
  function picture(C, tokens) {
    if (!tokens || !tokens.length) return null;
    return C.h("span", { class: "b-picture", "aria-hidden": "true" }, tokens.map((t) => {
      const colour = COLOURS[t.slice(-1)] || "none";
      const shown = colour === "none" ? t : t.slice(0, -1);
      return C.h("span", { class: "die small c-" + colour }, shown === "?" ? "" : shown);
    }));
  }

  // ---- the labour market and the check -----------------------------------------------------

  function marketSection(C, s) {
    const { h } = C;
    const W = w(C);
    const checks = Object.fromEntries(((s.check && s.check.cards) || []).map((r) => [r.id, r]));
    return h("section", { class: "b-market", id: "b-market", "aria-label": W.market },
      h("h2", {}, W.market),
      s.market.map((m) => {
        const r = checks[String(m.deck)];
        return h("article", { class: "b-card" + (r && r.satisfied ? " met" : ""), dataset: { deck: m.deck } },
          h("h3", {}, m.deck + ". " + m.name),
          m.card ? [picture(C, m.card.picture), h("p", { class: "b-condition" }, m.card.text, " ",
            h("span", { class: "muted" }, "(" + m.card.condition + ")")),
          h("p", { class: "b-joker muted" }, W.jokers + ": ", die(C, m.card.joker))]
            : h("p", { class: "muted" }, m.used_up ? W.used : W.none),
          cardButtons(C, s, m, r));
      }));
  }

  function cardButtons(C, s, m, r) {
    const { h, fmt } = C;
    const W = w(C);
    const out = [];
    if (!m.card && !m.used_up && s.phase !== "effects") {
      out.push(h("button", { class: "secondary", dataset: { enter: m.deck }, disabled: !C.K.canAct,
        onclick: () => { ui.entering = ui.entering === m.deck ? null : m.deck; GAMES.board.table(C.K.state, null, C); } }, W.enter));
      if (ui.entering === m.deck) out.push(entryPicker(C, m.deck));
    }
    if (s.phase !== "check" || m.used_up) return out;
    if (r && r.satisfied) {
      out.push(h("button", { class: "big", dataset: { take: m.deck }, disabled: !C.K.canAct,
        onclick: () => send(C, "take " + m.deck) },
      W.take + (r.stars ? " (" + r.stars + " " + W.stars + ")" : "")));
    }
    const plans = [];
    if (r && r.jokers) plans.push(r.jokers);
    if (r && r.more_stars) plans.push(...r.more_stars);
    for (const plan of plans) {
      out.push(h("p", { class: "b-plan" }, plan.stars ? fmt("{n} ★: ", { n: plan.stars }) : "", plan.words, " ",
        h("button", { class: "secondary", dataset: { jokers: m.deck }, disabled: !C.K.canAct,
          onclick: () => sendAll(C, plan.actions) }, W.use)));
    }
    if (!s.check.must_take) {
      out.push(h("button", { class: "secondary", dataset: { down: m.deck }, disabled: !C.K.canAct,
        onclick: () => send(C, "down " + m.deck) }, W.down));
    }
    return out;
  }

  // a card of this deck as entered before (the deck file and this game's entries), or a
  // new one: its condition by kind, then numbers, and its joker
  function entryPicker(C, deck) {
    const { h } = C;
    const s = C.K.state;
    const inPlay = new Set([...s.players.flatMap((p) => p.cards.map((c) => c.id)),
      ...s.market.filter((m) => m.card).map((m) => m.card.id)]);
    const known = (s.cards || []).filter((c) => c.deck === deck && !inPlay.has(c.id));
    const ids = new Set((s.cards || []).map((c) => c.id));
    if (ui.earlier === null) loadEarlier(C);
    const earlier = (ui.earlier || []).filter((e) => e.deck === deck && !ids.has(e.id));
    return h("div", { class: "b-entry", id: "b-pick-" + deck },
      h("ul", { class: "b-pick" }, known.map((c) => h("li", {},
        h("button", { class: "secondary", dataset: { card: c.id },
          onclick: async () => { ui.entering = null; await send(C, `top ${deck} ${c.id}`); } },
        c.text, " · ", die(C, c.joker)))),
      earlier.map((e) => h("li", {},
        h("button", { class: "secondary", dataset: { earlier: e.id },
          onclick: async () => {
            ui.entering = null;
            if (await send(C, e.line)) await send(C, `top ${deck} ${e.id}`);
          } }, e.condition, " · ", die(C, e.joker))))),
      newCardForm(C, s, deck));
  }

  // cards entered in earlier board games: their "card" lines, from the stored games
  async function loadEarlier(C) {
    ui.earlier = [];
    const found = new Map();
    try {
      const list = await C.getJSON("/api/games?lang=" + C.LANG);
      for (const g of list.games.filter((x) => x.game === "board" && !x.current)) {
        const detail = await C.getJSON(`/api/games/${g.id}?lang=${C.LANG}`);
        for (const e of detail.events) {
          const words = e.action.split(/\s+/);
          if (words[0] !== "card") continue;
          const theft = words[4] === "steal_card" || words[4] === "steal_gem";
          found.set(words[1], { line: e.action, id: words[1], deck: Number(words[2]),
            joker: words[3], condition: words.slice(theft ? 5 : 4).join(" ") });
        }
      }
    } catch (e) { return; }
    ui.earlier = [...found.values()];
    if (C.K.state && C.K.state.game === "board") GAMES.board.table(C.K.state, null, C);
  }

  const KINDS = [["colours", "colours", "2r 1b"], ["pips", "pips", "6 3r"], ["groups", "groups", "3 2"],
    ["sum", "sum", "25"], ["sum_colour", "sum", "r 12"], ["sums", "sums", "r b g"], ["straight", "straight", "4"]];

  function newCardForm(C, s, deck) {
    const { h } = C;
    const W = w(C);
    const id = (n) => `b-new-${n}-${deck}`;
    const add = async () => {
      const kind = KINDS.find((k) => k[0] === C.$(id("kind")).value);
      const numbers = C.$(id("numbers")).value.trim();
      const joker = C.$(id("joker")).value.trim().toLowerCase();
      const theft = deck === 2 ? " " + C.$(id("theft")).value : "";
      let n = 1;
      while ((s.cards || []).some((c) => c.id === `d${deck}-${n}`)) n++;
      const card = `d${deck}-${n}`;
      if (await send(C, `card ${card} ${deck} ${joker}${theft} ${kind[1]} ${numbers}`)) {
        ui.entering = null;
        await send(C, `top ${deck} ${card}`);
      }
    };
    return h("div", { class: "b-new" },
      h("select", { id: id("kind"), "aria-label": W.kind }, KINDS.map((k) => h("option", { value: k[0] }, W["k_" + k[0]] || k[0]))),
      h("input", { id: id("numbers"), "aria-label": W.numbers, placeholder: "2r 1b", autocomplete: "off" }),
      h("input", { id: id("joker"), "aria-label": W.joker_die, placeholder: "6r", maxlength: 2, size: 3, autocomplete: "off" }),
      deck === 2 ? h("select", { id: id("theft") }, h("option", { value: "steal_card" }, W.steal_card),
        h("option", { value: "steal_gem" }, W.steal_gem)) : null,
      h("button", { class: "secondary", id: id("add"), onclick: add }, W.apply));
  }

  // ---- the dice ----------------------------------------------------------------------------

  function diceSection(C, s) {
    const { h, fmt } = C;
    const W = w(C);
    const t = s.turn;
    const buttons = [];
    if (s.phase === "throw" || (s.phase === "check" && t.throws < t.max_throws && !t.added.length)) {
      if (s.eye && s.eye.simulated) {
        buttons.push(h("button", { class: "big throw", id: "b-throw", disabled: !C.K.canAct,
          onclick: () => C.post("/api/throw") }, C.S.throw_dice));
      }
      buttons.push(h("button", { class: "big secondary", id: "b-enter-throw", disabled: !C.K.canAct,
        onclick: () => { ui.throwing = ui.throwing.length ? [] : t.dice.slice(); GAMES.board.table(C.K.state, null, C); } },
      W.enter_throw));
    }
    return h("section", { class: "b-dice", id: "b-dice" },
      h("p", { class: "headline", id: "b-ask" }, s.ask),
      h("div", { class: "dice", id: "b-roll" }, t.dice.map((d) => die(C, d)),
        t.added.map((d) => die(C, d, "added"))),
      t.throws ? h("p", { class: "muted" }, fmt("{n} / {most}", { n: t.throws, most: t.max_throws })) : null,
      h("div", { class: "u-buttons" }, buttons),
      ui.throwing.length ? throwEntry(C) : null);
  }

  function throwEntry(C) {
    const { h } = C;
    const W = w(C);
    const dice = ui.throwing.length === 6 ? ui.throwing : ["1r", "1r", "1r", "1r", "1r", "1r"];
    ui.throwing = dice;
    const redraw = () => GAMES.board.table(C.K.state, null, C);
    return h("div", { class: "b-throw-entry", id: "b-throw-entry" },
      dice.map((d, i) => h("div", { class: "b-die-entry" },
        h("button", { class: "secondary", "aria-label": W.pick_value + " " + (i + 1), onclick: () => {
          ui.throwing[i] = (Number(d[0]) % 6 + 1) + d[1]; redraw();
        } }, d[0]),
        h("button", { class: "secondary c-" + COLOURS[d[1]], "aria-label": W.pick_colour + " " + (i + 1), onclick: () => {
          ui.throwing[i] = d[0] + { r: "g", g: "b", b: "r" }[d[1]]; redraw();
        } }, W[COLOURS[d[1]]]))),
      h("button", { class: "big", id: "b-throw-apply", onclick: async () => {
        const line = "roll " + ui.throwing.join(" ");
        ui.throwing = [];
        await send(C, line);
      } }, W.apply),
      h("button", { class: "big secondary", onclick: () => { ui.throwing = []; redraw(); } }, W.cancel));
  }

  // ---- the card's effects ------------------------------------------------------------------

  function effectsSection(C, s) {
    const { h } = C;
    const W = w(C);
    if (s.phase !== "effects") return null;
    const others = s.players.filter((p) => !p.current);
    const items = s.turn.checklist.map((i) => h("li", { class: i.done ? "done" : "" },
      h("input", { type: "checkbox", checked: i.done, disabled: true, "aria-label": i.text }), " ", i.text));
    const taps = [
      h("button", { class: "secondary", id: "b-gem-white", onclick: () => send(C, "gem white") }, W.gem_white),
      h("button", { class: "secondary", id: "b-gem-gold", onclick: () => send(C, "gem gold") }, W.gem_gold),
    ];
    const todo = s.turn.checklist.filter((i) => !i.done && i.action).map((i) => i.action);
    if (todo.includes("fire")) taps.push(h("button", { class: "secondary", id: "b-fire", onclick: () => send(C, "fire") }, W.fire));
    if (todo.includes("replace")) {
      for (const p of others) taps.push(h("button", { class: "secondary", onclick: () => send(C, "replace " + p.name) }, W.replace + " " + p.name));
    }
    if (todo.includes("steal")) {
      for (const p of others) {
        for (const c of p.cards) taps.push(h("button", { class: "secondary", onclick: () => send(C, `steal ${p.name} ${c.id}`) }, `${W.steal} ${p.name}: ${c.name}`));
        for (const g of ["white", "gold"]) if (p[g]) taps.push(h("button", { class: "secondary", onclick: () => send(C, `steal ${p.name} ${g}`) }, `${W.steal} ${p.name}: ${W[g]}`));
      }
    }
    return h("section", { class: "b-effects", id: "b-effects" }, h("h2", {}, W.effects),
      h("ul", { class: "b-checklist" }, items), h("div", { class: "u-buttons" }, taps,
        h("button", { class: "big", id: "b-done", disabled: !C.K.canAct, onclick: () => send(C, "done") }, W.done)));
  }

  // ---- players and the final scoring ---------------------------------------------------------

  function playersSection(C, s) {
    const { h } = C;
    const W = w(C);
    return h("section", { class: "b-players", id: "b-players" }, s.players.map((p) => h("article", {
      class: "player-score" + (p.current ? " current" : ""), dataset: { player: p.name } },
    h("div", { class: "ps-head" }, C.dot(C.playerColor(s, p.name)), h("span", { class: "ps-name" }, p.name)),
    h("p", {}, p.cards.map((c) => h("span", { class: "kcard" }, c.name, " ", die(C, c.joker)))),
    h("p", { class: "muted" }, `${W.supers} ${p.supers} · ${W.gems} ${p.white} ${W.white}, ${p.gold} ${W.gold} · `
      + `${W.fires} ${p.fires} · ${W.markers} ${p.markers}/16`))),
    h("p", { class: "muted", id: "b-tiles" }, `${W.tiles}: ${s.tiles}`));
  }

  function sheetSection(C, s) {
    const { h } = C;
    const W = w(C);
    if (s.phase !== "sheet" && !s.result && !s.won_markers) return null;
    if (s.won_markers) return h("section", { class: "b-sheet", id: "b-sheet" }, h("p", { class: "winner" }, s.won_markers));
    const entered = Object.fromEntries(s.sheet.map((x) => [x.player, x]));
    const rows = s.players.map((p, i) => h("tr", { dataset: { player: p.name } }, h("th", {}, p.name),
      h("td", {}, h("input", { type: "number", min: 0, max: 30, id: "b-area-" + i, "aria-label": p.name + ": " + W.area,
        value: entered[p.name] ? entered[p.name].largest_area : "" })),
      h("td", {}, h("input", { type: "number", min: 0, max: 30, id: "b-outside-" + i, "aria-label": p.name + ": " + W.outside,
        value: entered[p.name] ? entered[p.name].outside : "" }))));
    const count = async () => {
      const lines = s.players.map((p, i) => `sheet ${p.name} ${C.$("b-area-" + i).value || 0} ${C.$("b-outside-" + i).value || 0}`);
      await sendAll(C, lines);
    };
    const result = s.result ? [h("ol", { class: "final", id: "b-result" },
      s.result.players.slice().sort((a, b) => a.place - b.place).map((x) => h("li", { dataset: { player: x.name } },
        `${x.place}. ${x.name}: ${x.total} ${W.points} (${x.castles} + ${x.outside} + ${W.fires} ${x.dragon_bonus}`
        + ` + ${W.gold} ${x.gold} + ${W.white} ${x.white})`))), h("p", { class: "winner", id: "b-winner" }, s.result.said)] : [];
    return h("section", { class: "b-sheet", id: "b-sheet" }, h("h2", {}, W.sheet),
      h("table", {}, h("tr", {}, h("th", {}), h("th", {}, W.area), h("th", {}, W.outside)), rows),
      h("button", { class: "big", id: "b-count", disabled: !C.K.canAct, onclick: count }, W.count), result);
  }

  function renderTable(s, old, C) {
    for (const id of ["dice-area", "row", "question", "held", "stop", "over"]) {
      const el = C.$(id);
      if (el) el.style.display = "none";
    }
    const area = C.$("court-game");
    area.hidden = false;
    if (s.phase === "none") {
      C.fill(area, C.h("section", { class: "over" }, C.h("p", { class: "headline" }, C.S.no_game),
        C.h("a", { class: "big button", href: "/setup", id: "go-setup" }, C.S.start_game)));
      C.shared(s);
      return;
    }
    if (old && old.turn && s.turn && old.turn.throws !== s.turn.throws) ui.throwing = [];
    keepTyping(area, () => C.fill(area, sheetSection(C, s), s.over ? null : diceSection(C, s),
      effectsSection(C, s), s.over ? null : marketSection(C, s), playersSection(C, s)));
    C.shared(s);
  }

  // What a player is typing survives the page being drawn again (a state another phone sent,
  // the earlier cards arriving): every field the player changed keeps its value, and the one
  // being typed in keeps the focus. A field the player did not touch shows the new state.
  function keepTyping(area, draw) {
    const drawn = (el) => el.tagName !== "SELECT" ? el.defaultValue
      : ([...el.options].find((o) => o.defaultSelected) || el.options[0] || { value: "" }).value;
    const typed = new Map();
    for (const el of area.querySelectorAll("input[id], select[id], textarea[id]")) {
      if (el.value !== drawn(el)) typed.set(el.id, el.value);
    }
    const active = document.activeElement;
    const focused = active && active.id && area.contains(active)
      ? [active.id, active.selectionStart, active.selectionEnd] : null;
    draw();
    const again = (id) => { const el = document.getElementById(id); return el && area.contains(el) ? el : null; };
    for (const [id, value] of typed) { const el = again(id); if (el) el.value = value; }
    const el = focused && again(focused[0]);
    if (!el) return;
    el.focus();
    if (typeof focused[1] === "number") {
      try { el.setSelectionRange(focused[1], focused[2]); } catch (e) { /* not a text field */ }
    }
  }

  function renderScores(s, old, C) {
    const { h, fill, $ } = C;
    C.stats(s);
    $("result").hidden = true;
    if (s.phase === "none") { fill($("scoreboard"), h("p", { class: "headline" }, C.S.no_game)); return; }
    fill($("scoreboard"), playersSection(C, s), sheetSection(C, s));
  }

  GAMES.board = { table: renderTable, scores: renderScores };
})();
