// Um Krone und Kragen on the phone page: draws its view (GET /api/state with "game":
// "ukuk") and sends its action words. app.js owns the page (token, live stream, toasts,
// undo, the typed-action box) and hands every state of this game to these functions.
(() => {
  "use strict";

  const GAMES = window.KOTD_GAMES = window.KOTD_GAMES || {};
  const ui = { picked: [], use: null, throwing: [] };

  // an ordinary die drawn with pips (app.js's die); data-n is its number, for tests and CSS
  function dieFace(C, value, attrs) {
    const a = attrs || {};
    return C.die({ value, color: null }, {
      onclick: a.onclick, disabled: a.disabled, pressed: a.pressed, extra: a.extra,
      label: a.label || String(value), dataset: Object.assign({ n: value }, a.dataset || {}),
    });
  }

  // The dice of the turn changed (a throw, a set-aside, a card used, another turn): what was
  // selected no longer means the same dice, so the selection clears.
  function diceKey(s) {
    const d = s.dice || {};
    return [s.game_id, s.turn, d.throws, (d.active || []).join(","), (d.aside || []).join(",")].join("|");
  }

  // ---- the turn's dice ----------------------------------------------------------------

  function selectedValues(s) {
    return ui.picked.filter((i) => i < s.dice.active.length).map((i) => s.dice.active[i]);
  }

  function throwCount(s) {
    const d = s.dice;
    return d.throws === 0 ? d.hand + d.active.length : d.active.length;
  }

  function canThrow(s) {
    const d = s.dice;
    if (s.over) return false;
    return d.throws === 0 ? d.hand + d.active.length > 0 : d.active.length > 0 && !d.must_set_aside;
  }

  function diceSection(C, s) {
    const { h, S, fmt } = C;
    const d = s.dice;
    ui.picked = ui.picked.filter((i) => i < d.active.length);
    const parts = [];
    const checking = s.held && s.held.why === "check";
    if (d.throws === 0 && s.round > 1 && s.order && s.order[0] === s.current_player && !s.final) {
      // the last player of a round starts the next: say why the same player goes again
      parts.push(h("p", { class: "u-hint", id: "u-twice" }, fmt("u_start_twice", { player: s.current_player })));
    }
    if (checking) {
      parts.push(h("p", { class: "u-hand", id: "u-held" }, fmt("u_held", { player: s.held.player })));
    } else if (d.throws === 0) {
      parts.push(h("p", { class: "u-hand", id: "u-hand" },
        fmt("u_hand", { player: s.current_player, n: d.hand + d.active.length })));
    }
    parts.push(h("div", { class: "u-zone", id: "u-active", "aria-label": S.u_active },
      h("span", { class: "u-zone-name" }, S.u_active),
      d.active.length ? d.active.map((v, i) => dieFace(C, v, {
        onclick: C.K.canAct ? () => { toggle(i); GAMES.ukuk.table(C.K.state, null, C); } : null,
        pressed: ui.picked.includes(i), extra: ui.picked.includes(i) ? "picked" : "",
        dataset: { active: i + 1 }, label: fmt("u_die", { n: i + 1, value: v }),
      })) : h("span", { class: "muted" }, "—")));
    parts.push(h("div", { class: "u-zone aside", id: "u-aside", "aria-label": S.u_aside },
      h("span", { class: "u-zone-name" }, S.u_aside),
      d.aside.length ? d.aside.map((v) => dieFace(C, v, { extra: "aside" }))
        : h("span", { class: "muted" }, "—"),
      d.aside.length ? h("span", { class: "u-sum muted" }, fmt("sum", { n: d.aside.reduce((a, b) => a + b, 0) })) : null));
    if (d.must_set_aside) parts.push(h("p", { class: "u-hint" }, S.u_must_aside));
    const picked = selectedValues(s);
    const buttons = [];
    if (d.active.length) {
      buttons.push(h("button", {
        class: "big", id: "u-set-aside", disabled: !C.K.canAct || !picked.length,
        onclick: () => send(C, "aside " + picked.join(" ")),
      }, picked.length ? fmt("u_set_aside_n", { dice: picked.join(" ") }) : S.u_set_aside));
      buttons.push(h("button", {
        class: "big secondary", id: "u-all-aside", disabled: !C.K.canAct,
        onclick: () => send(C, "aside " + d.active.join(" ")),
      }, S.u_all_aside));
    }
    if (canThrow(s)) {
      // not while the table checks a held throw: a new throw would replace it
      if (s.eye && s.eye.simulated && !checking) {
        buttons.push(h("button", { class: "big throw", id: "u-throw", disabled: !C.K.canAct,
          onclick: () => C.post("/api/throw") }, S.throw_dice));
      }
      buttons.push(h("button", { class: "big secondary", id: "u-enter-throw", disabled: !C.K.canAct,
        onclick: () => openThrow(C, s) }, fmt("u_enter_throw", { n: throwCount(s) })));
    }
    parts.push(h("div", { class: "u-buttons" }, buttons));
    parts.push(h("div", { class: "camera u-camera", id: "u-camera" }, C.camera(s)));
    return h("section", { class: "u-dice", id: "u-dice", "aria-label": S.dice }, parts);
  }

  function toggle(i) {
    const at = ui.picked.indexOf(i);
    if (at >= 0) ui.picked.splice(at, 1); else ui.picked.push(i);
  }

  // one action at a time (app.js): a tap while one is on its way waits on a disabled button
  async function send(C, line) {
    const after = await C.actAlone(line);
    if (after) ui.picked = [];
    return after;
  }

  // ---- court cards: use one --------------------------------------------------------------

  function cardsSection(C, s) {
    const { h, S, fmt } = C;
    if (!s.unused.length || s.over) return null;
    return h("section", { class: "u-cards", id: "u-cards" },
      h("h2", {}, fmt("u_unused", { player: s.current_player })),
      h("div", { class: "u-card-list" }, s.unused.map((u) => h("button", {
        class: "u-card", dataset: { card: u.id }, disabled: !C.K.canAct,
        onclick: () => useCard(C, s, u),
      }, h("strong", {}, u.name), h("span", { class: "u-ability" }, u.ability)))));
  }

  function useCard(C, s, u) {
    const before = selectedValues(s);
    if (u.takes === 0 && u.decides) { send(C, `use ${u.id}`); return; }
    if (u.takes !== 0 && !before.length) { C.toast(C.fmt("u_pick_first", { card: u.name }), true); return; }
    if (u.decides) { send(C, `use ${u.id} ${before.join(" ")}`); return; }
    openUse(C, s, u, before);
  }

  function openUse(C, s, u, before) {
    const { h, fill, S, fmt } = C;
    const count = u.takes === 0 ? 1 : before.length;
    const after = u.takes === 0 ? [6] : before.slice();
    ui.use = { card: u, before, after };
    C.$("use-title").textContent = before.length
      ? fmt("u_use_title", { card: u.name, dice: before.join(" ") }) : u.name;
    const draw = () => fill(C.$("use-values"), after.map((v, k) => h("div", { class: "choices", role: "group",
      "aria-label": fmt("u_new_value", { n: k + 1 }) },
    [1, 2, 3, 4, 5, 6].map((w) => h("button", {
      class: "choice" + (w === after[k] ? " on" : ""), "aria-pressed": String(w === after[k]),
      dataset: { die: k + 1, value: w }, onclick: () => { after[k] = w; draw(); },
    }, String(w))))));
    after.length = count;
    for (let k = 0; k < count; k++) if (after[k] === undefined) after[k] = 1;
    draw();
    C.$("use-dialog").showModal();
  }

  function applyUse(C) {
    const u = ui.use;
    if (!u) return;
    C.$("use-dialog").close();
    const before = u.before.length ? " " + u.before.join(" ") : "";
    send(C, `use ${u.card.id}${before} -> ${u.after.join(" ")}`);
  }

  // ---- entering a throw by hand ---------------------------------------------------------

  function openThrow(C, s) {
    const { h, fill, fmt } = C;
    const n = throwCount(s);
    ui.throwing = Array.from({ length: n }, (_, i) => ui.throwing[i] || 1);
    ui.throwing.length = n;
    C.$("throw-title").textContent = fmt("u_enter_throw", { n });
    const draw = () => fill(C.$("throw-values"), ui.throwing.map((v, k) => h("button", {
      class: "die c-none choice", dataset: { n: v, die: k + 1 },
      "aria-label": fmt("u_die", { n: k + 1, value: v }),
      onclick: () => { ui.throwing[k] = v % 6 + 1; draw(); },
    }, String(v))));
    draw();
    C.$("throw-dialog").showModal();
  }

  // ---- buying, the reach -----------------------------------------------------------------

  function buySection(C, s) {
    const { h, S, fmt } = C;
    if (s.over || !s.dice.done) return null;
    if (s.final) {
      return h("section", { class: "u-buy", id: "u-buy" },
        h("button", { class: "big", id: "u-bid", disabled: !C.K.canAct, onclick: () => send(C, "bid") },
          S.u_bid));
    }
    const cards = s.can_buy.map((id) => s.court.flatMap((r) => r.cards).find((c) => c.id === id));
    return h("section", { class: "u-buy", id: "u-buy" },
      h("h2", {}, cards.length ? S.u_buys : S.u_buys_nothing),
      h("div", { class: "u-card-list" }, cards.map((c) => h("button", {
        class: "u-card buy", dataset: { buy: c.id }, disabled: !C.K.canAct,
        onclick: () => send(C, "buy " + c.id),
      }, h("strong", {}, fmt("u_buy", { card: c.name })), h("span", { class: "u-ability" }, c.ability)))),
      h("button", { class: "big secondary", id: "u-pass", disabled: !C.K.canAct,
        onclick: () => send(C, "pass") }, S.u_pass));
  }

  function reachSection(C, s) {
    const { h, S, fmt } = C;
    if (s.over || !s.dice.throws || s.dice.hand) return null;
    const now = s.reach.filter((r) => r.uses === 0);
    const later = s.reach.filter((r) => r.uses > 0);
    const me = s.players.find((p) => p.name === s.current_player);
    const owns = me && me.cards.length;
    return h("section", { class: "u-reach", id: "u-reach" },
      h("h2", {}, S.u_reach_plain),
      !s.dice.done && now.length
        ? h("p", { class: "u-now", id: "u-now" }, fmt("u_now", { cards: now.map((r) => r.name).join(", ") }))
        : null,
      later.length ? h("ol", { class: "u-plans" }, later.map((r) => h("li", { dataset: { reach: r.card } },
        h("span", { class: "u-plan" }, h("strong", {}, r.name), h("br"), r.said),
        h("button", { class: "small", dataset: { plan: r.card }, disabled: !C.K.canAct,
          onclick: () => runPlan(C, r) }, S.u_do_it))))
        : h("p", { class: "muted" }, !owns ? S.u_reach_none_owned
          : (s.unused.length ? S.u_reach_none : S.u_reach_no_cards)));
  }

  async function runPlan(C, plan) {
    for (const step of plan.steps) {
      if (!(await send(C, step.action))) return;
    }
    const s = C.K.state;
    if (s && s.dice.active.length) await send(C, "aside " + s.dice.active.join(" "));
  }

  function courtSection(C, s) {
    const { h, S, fmt } = C;
    return h("details", { class: "u-court", id: "u-court" },
      h("summary", {}, S.u_court),
      s.court.map((row) => h("div", { class: "u-row" },
        h("h3", {}, fmt("u_row", { row: row.row })),
        h("ul", {}, row.cards.map((c) => h("li", { class: c.left ? "" : "gone", dataset: { court: c.id } },
          h("strong", {}, c.name), " — ", c.cost, " · ", c.ability, " ",
          h("span", { class: "muted" }, fmt("u_left", { n: c.left, of: c.copies }))))))));
  }

  // ---- the table page ----------------------------------------------------------------------

  function topline(C, s) {
    const { h, fill, S, fmt, $ } = C;
    const el = $("topline");
    if (s.phase === "none") { fill(el); el.hidden = true; return; }
    el.hidden = false;
    if (s.over) { fill(el, h("p", { class: "tl-main" }, h("span", { class: "tl-who" }, C.icon("crown"), S.game_over))); return; }
    // as King of the Dice's top line: on a phone the name alone, so it stays one line
    const [before, after] = (S.turn_of || "{player}").split("{player}");
    fill(el, h("p", { class: "tl-main" },
      h("span", { class: "tl-who", id: "whose-turn" }, C.dot(C.playerColor(s, s.current_player)),
        before ? h("span", { class: "tl-words" }, before) : null, s.current_player,
        after ? h("span", { class: "tl-words" }, after) : null),
      h("span", { class: "roll-count", id: "roll-count" }, fmt("u_round", { n: s.round }),
        s.dice.throws ? " · " + fmt("u_throw_n", { n: s.dice.throws }) : "")),
    s.final ? h("span", { class: "badge" }, S.u_final) : null);
  }

  function strip(C, s) {
    const { h, fill, $ } = C;
    const el = $("strip");
    if (s.phase === "none") { fill(el); el.hidden = true; return; }
    el.hidden = false;
    fill(el, s.players.map((p) => h("span", {
      class: "chip-player" + (p.current ? " current" : ""), dataset: { player: p.name },
    }, C.dot(C.playerColor(s, p.name)), h("span", { class: "cp-name" }, p.name),
    p.king ? C.icon("crown") : null,
    h("strong", { class: "cp-total", title: C.S.u_cards }, String(p.cards.length)))));
  }

  function overSection(C, s) {
    const { h, S, fmt } = C;
    if (s.phase === "none") {
      return h("section", { class: "over" }, h("p", { class: "headline" }, S.no_game),
        h("a", { class: "big button", href: "/setup", id: "go-setup" }, S.start_game));
    }
    if (!s.over && !s.bids.length) return null;
    return h("section", { class: "u-final", id: "u-final" },
      s.over && s.places.length ? h("p", { class: "winner" }, C.icon("crown"),
        fmt("u_wins", { player: s.places[0].player })) : null,
      s.holder && !s.over ? h("p", {}, fmt("u_holder", { player: s.holder })) : null,
      h("ol", { class: "final" }, (s.over ? s.places : []).map((p) => h("li", { dataset: { player: p.player } },
        fmt("place", { n: p.place }), " ", p.player,
        p.bid ? " · " + fmt("u_bid_of", { count: p.bid.count, number: p.bid.number }) : ""))),
      !s.over ? h("ul", { class: "u-bids" }, s.bids.map((b) => h("li", {},
        b.player + ": " + fmt("u_bid_of", { count: b.count, number: b.number })))) : null);
  }

  function renderTable(s, old, C) {
    topline(C, s);
    strip(C, s);
    const area = C.$("court-game");
    area.hidden = false;
    if (old && diceKey(old) !== diceKey(s)) ui.picked = [];
    C.held(s);  // a throw the camera is unsure of: shown with confirm and fix (app.js)
    C.fill(area, overSection(C, s),
      s.phase === "none" || s.over ? null : diceSection(C, s),
      s.phase === "none" || s.over ? null : cardsSection(C, s),
      buySection(C, s), reachSection(C, s),
      s.phase === "none" ? null : courtSection(C, s));
    C.shared(s);
  }

  // ---- the scoreboard -------------------------------------------------------------------

  function renderScores(s, old, C) {
    const { h, fill, S, fmt, $ } = C;
    C.stats(s);
    $("result").hidden = true;
    if (s.phase === "none") { fill($("scoreboard"), h("p", { class: "headline" }, S.no_game)); return; }
    const places = Object.fromEntries((s.places || []).map((p) => [p.player, p]));
    fill($("scoreboard"), s.players.map((p) => h("article", {
      class: "player-score" + (p.current ? " current" : "") + (p.king ? " first" : ""),
      dataset: { player: p.name },
    }, h("div", { class: "ps-head" },
      places[p.name] ? h("span", { class: "place" }, fmt("place", { n: places[p.name].place })) : null,
      C.dot(C.playerColor(s, p.name)), h("span", { class: "ps-name" }, p.name),
      p.king ? C.icon("crown") : null,
      h("span", { class: "ps-total" }, fmt("u_n_cards", { n: p.cards.length }))),
    h("p", { class: "muted" }, fmt("u_start_dice", { n: p.start_dice })),
    h("div", { class: "kingdom" }, p.cards.length ? p.cards.map((c) => h("span", { class: "kcard" }, c.name))
      : h("span", { class: "muted" }, S.kingdom_empty)))));
  }

  function init(C) {
    if (GAMES.ukuk.ready || !C.$("use-apply")) return;
    GAMES.ukuk.ready = true;
    C.$("use-apply").addEventListener("click", () => applyUse(C));
    C.$("use-cancel").addEventListener("click", () => C.$("use-dialog").close());
    C.$("throw-cancel").addEventListener("click", () => C.$("throw-dialog").close());
    C.$("throw-apply").addEventListener("click", () => {
      C.$("throw-dialog").close();
      send(C, "roll " + ui.throwing.join(" "));
    });
  }

  GAMES.ukuk = {
    table: (s, old, C) => { init(C); renderTable(s, old, C); },
    scores: renderScores,
  };
})();
