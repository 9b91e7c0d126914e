// The phone page: renders /api/state, stays live over /api/live, sends actions.
// No framework, no build step, nothing from outside the table's own network.
(() => {
  "use strict";

  const S = JSON.parse(document.getElementById("strings").textContent);
  const PAGE = document.body.dataset.page;
  const LANG = document.documentElement.lang || "en";
  const TOKEN_KEY = "kotd-token";
  const K = { state: null, cards: null, canAct: false, token: null, source: null };

  // ---- small helpers ------------------------------------------------------------------

  const $ = (id) => document.getElementById(id);

  function fmt(key, vars) {
    return (S[key] || key).replace(/\{(\w+)\}/g, (_, k) => (vars && k in vars ? vars[k] : ""));
  }

  // h("button", {class: "big", onclick: f}, "text", child...) -> element (text is never HTML)
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "class") el.className = v;
      else if (k === "dataset") Object.assign(el.dataset, v);
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : String(c));
    }
    return el;
  }

  function fill(el, ...children) {
    el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  }

  function minus(n) { return n < 0 ? "−" + Math.abs(n) : String(n); }

  let toastTimer = null;
  function toast(text, bad) {
    const el = $("toast");
    el.textContent = text;
    el.classList.toggle("bad", !!bad);
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, bad ? 6000 : 2500);
  }

  // ---- the token: from the QR code's link into this phone's storage --------------------

  function initToken() {
    const url = new URL(location.href);
    const fromLink = url.searchParams.get("token");
    let stored = null;
    try {
      if (fromLink) localStorage.setItem(TOKEN_KEY, fromLink);
      stored = localStorage.getItem(TOKEN_KEY);
    } catch (e) { /* private mode: keep it for this page only */ }
    K.token = fromLink || stored;
    if (fromLink) {  // keep the secret out of the address bar and screenshots
      url.searchParams.delete("token");
      history.replaceState(null, "", url.pathname + url.search + url.hash);
    }
  }

  function headers(json) {
    const hs = {};
    if (json) hs["Content-Type"] = "application/json";
    if (K.token) hs["X-Table-Token"] = K.token;
    return hs;
  }

  async function getJSON(path) {
    const r = await fetch(path, { headers: headers(false), cache: "no-store" });
    const body = await r.json().catch(() => ({ error: r.statusText }));
    if (!r.ok) throw new Error(body.error || r.statusText);
    return body;
  }

  async function act(line) {
    let r, body;
    try {
      r = await fetch("/api/action?lang=" + LANG, {
        method: "POST", headers: headers(true), body: JSON.stringify({ action: line }),
      });
      body = await r.json().catch(() => ({ error: r.statusText }));
    } catch (e) {
      toast(fmt("refused", { error: e.message }), true);
      return null;
    }
    if (!r.ok) {
      toast(fmt("refused", { error: body.error }), true);
      return null;
    }
    toast(fmt("done", { action: line }));
    render(body);
    return body;
  }

  // ---- live: one EventSource while the page is visible -------------------------------------

  function setLive(on) {
    const el = $("live");
    el.textContent = on ? S.live : S.offline;
    el.classList.toggle("off", !on);
  }

  function connect() {
    if (K.source) return;
    const es = new EventSource("/api/live?lang=" + LANG);
    es.addEventListener("state", (e) => render(JSON.parse(e.data), true));
    es.onopen = () => { setLive(true); K.fresh = true; };
    es.onerror = () => {
      setLive(false);
      if (es.readyState === EventSource.CLOSED && K.source === es) {  // gave up: try again
        K.source = null;
        setTimeout(() => { if (document.visibilityState === "visible") connect(); }, 3000);
      }
    };
    K.source = es;
  }

  function disconnect() {
    if (K.source) { K.source.close(); K.source = null; }
    setLive(false);
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") { connect(); wake(K.state); }
    else disconnect();
  });
  window.addEventListener("pagehide", disconnect);

  // ---- keep the screen awake while a game runs --------------------------------------------

  // The Wake Lock API needs a secure context: the Pi's own screen (localhost) has it, a
  // phone on http://<pi>:8000 usually not. There NoSleep.js (vendored, MIT) plays a tiny
  // muted looping video, which browsers allow from the first tap; if that fails too, the
  // page says so once and works on.
  let lock = null, asking = false, sleeper = null, wanted = false;
  function wakeNote(show) { $("wake-note").hidden = !show; }
  function videoWake() {  // called from a tap: the only time a video may start
    if (!wanted || !window.NoSleep || "wakeLock" in navigator) return;
    sleeper = sleeper || new window.NoSleep();
    if (sleeper.isEnabled) return;
    sleeper.enable().then(() => wakeNote(false), () => wakeNote(true));
  }
  document.addEventListener("click", videoWake, true);
  document.addEventListener("touchend", videoWake, true);
  async function wake(s) {
    if (!s) return;
    const want = s.phase !== "none" && !s.over && document.visibilityState === "visible";
    wanted = want;
    if (!("wakeLock" in navigator)) {
      if (!want && sleeper && sleeper.isEnabled) sleeper.disable();
      wakeNote(want && !window.NoSleep);
      return;
    }
    if (want && !lock && !asking) {
      asking = true;
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => { lock = null; });
        wakeNote(false);
      } catch (e) { lock = null; wakeNote(true); }  // refused (battery saver…): works on
      asking = false;
    } else if (!want) {
      wakeNote(false);
      if (lock) { lock.release().catch(() => {}); lock = null; }
    }
  }

  // ---- shared pieces -----------------------------------------------------------------------

  function card(id) { return (K.cards && K.cards.cards[id]) || { id, name: id, label: id, kind: "" }; }

  function pointsText(c) {
    if (c.effect === "fairy_points") return "n²";
    return c.points === null || c.points === undefined ? "" : minus(c.points);
  }

  function die(d, attrs) {
    const cls = "die " + (d.color ? "c-" + d.color : "c-none") + (attrs && attrs.extra ? " " + attrs.extra : "");
    return h(attrs && attrs.onclick ? "button" : "span",
      { class: cls, onclick: attrs && attrs.onclick, disabled: attrs && attrs.disabled,
        "aria-label": `${d.value} ${d.color || ""}`, dataset: attrs && attrs.dataset },
      String(d.value),
      attrs && attrs.pos ? h("small", { class: "pos" }, attrs.pos) : null);
  }

  // A picker of cards still in the box: kind chips to narrow, big buttons to tap.
  function picker(container, choices, onPick, chosen) {
    const kinds = [];
    for (const id of choices) { const k = card(id).kind; if (!kinds.includes(k)) kinds.push(k); }
    const filter = container.dataset.filter && kinds.includes(container.dataset.filter)
      ? container.dataset.filter : "";
    const chips = h("div", { class: "chips" },
      h("button", { class: "chip" + (filter ? "" : " on"), onclick: () => { container.dataset.filter = ""; picker(container, choices, onPick, chosen); } }, S.picker_all),
      kinds.map((k) => h("button", {
        class: "chip" + (filter === k ? " on" : ""), dataset: { kind: k },
        onclick: () => { container.dataset.filter = k; picker(container, choices, onPick, chosen); },
      }, (K.cards && K.cards.kinds[k]) || k)));
    const grid = h("div", { class: "pick-grid" },
      choices.filter((id) => !filter || card(id).kind === filter).map((id) => {
        const c = card(id);
        const used = chosen && chosen.includes(id);
        return h("button", {
          class: "pick v-" + (c.village || "none") + (used ? " used" : ""), dataset: { card: id },
          disabled: !K.canAct || used, onclick: () => onPick(id),
        }, h("span", { class: "pick-name" }, c.name), h("span", { class: "pick-rule" }, c.rule || c.label),
        h("span", { class: "pick-points" }, pointsText(c)));
      }));
    fill(container, chips, grid);
  }

  // ---- the table ---------------------------------------------------------------------------

  const fix = { position: 0, value: 1, color: "r" };

  function openFix(position, d) {
    fix.position = position;
    fix.value = d.value;
    fix.color = d.color ? d.color[0] : "r";
    $("fix-title").textContent = fmt("fix_die", { n: position });
    drawFix();
    $("fix-dialog").showModal();
  }

  function drawFix() {
    fill($("fix-values"), [1, 2, 3, 4, 5, 6].map((v) => h("button", {
      class: "choice" + (v === fix.value ? " on" : ""), onclick: () => { fix.value = v; drawFix(); },
    }, String(v))));
    fill($("fix-colors"), [["r", "red"], ["g", "green"], ["b", "blue"]].map(([l, name]) => h("button", {
      class: "choice die c-" + name + (l === fix.color ? " on" : ""), "aria-label": name,
      onclick: () => { fix.color = l; drawFix(); },
    }, String(fix.value))));
  }

  function initTable() {
    $("fix-cancel").addEventListener("click", () => $("fix-dialog").close());
    $("fix-apply").addEventListener("click", () => {
      $("fix-dialog").close();
      act(`fix ${fix.position} ${fix.value}${fix.color}`);
    });
    $("undo").addEventListener("click", () => act("undo"));
    $("action-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const input = $("action-input");
      if (input.value.trim() && await act(input.value.trim())) input.value = "";
    });
    $("odds").addEventListener("change", () => showAdvice());
  }

  async function showAdvice() {
    const box = $("advice");
    if (!$("odds").checked || !K.state || !K.state.advice) { box.hidden = true; return; }
    try {
      const body = await getJSON("/api/advice?lang=" + LANG);
      const a = body.advice;
      if (!a) { box.textContent = S.odds_none; box.hidden = false; return; }
      const pct = (p) => Math.round(p * 100) + "%";
      const lines = a.cards.map((c) => fmt("odds_card", {
        slot: c.slot, name: card(c.id).name, p: pct(c.probability),
        keep: c.keep_dice || "—" }));
      const best = a.best;
      if (best && best.keep_dice !== null) {
        lines.push(best.stop ? fmt("odds_stop", { points: best.expected_points.toFixed(1) })
          : fmt("odds_best", { keep: best.keep_dice || "—",
            points: best.expected_points.toFixed(1) }));
      }
      box.textContent = lines.join("\n");
    } catch (e) { box.textContent = e.message; }
    box.hidden = false;
  }

  function renderTurn(s) {
    const el = $("turn");
    if (s.phase === "none") {
      fill(el, h("p", { class: "headline" }, S.no_game),
        h("a", { class: "big button", href: "/setup", id: "go-setup" }, S.start_game));
      return;
    }
    if (s.over) {
      const winners = s.scores.filter((x) => x.place === 1).map((x) => x.player);
      fill(el, h("p", { class: "headline" }, S.game_over),
        h("p", { class: "sub" }, winners.length > 1 ? S.shared_win + ": " + winners.join(", ")
          : fmt("winner", { player: winners[0] })),
        s.ended_by ? h("p", { class: "sub" }, fmt("ended_by", { why: s.ended_by })) : null,
        h("a", { class: "big button", href: "/scores" }, S.scores));
      return;
    }
    const rollText = s.phase === "rolling"
      ? (s.rolls_used ? fmt("roll_n_of", { n: s.rolls_used, max: s.max_rolls }) : S.no_roll_yet)
      : S["phase_" + s.phase] || s.phase;
    fill(el,
      h("p", { class: "headline", id: "whose-turn" }, fmt("turn_of", { player: s.current_player })),
      h("p", { class: "sub" },
        h("span", { class: "roll-count", id: "roll-count" }, rollText),
        s.extra_turn ? h("span", { class: "badge" }, S.extra_turn) : null,
        h("span", { class: "muted" }, " · " + fmt("turn", { n: s.turn }))),
      h("p", { class: "piles muted" }, fmt("draw_pile", { n: s.draw_pile }) + " · " +
        fmt("penalty_pile", { n: s.penalty_pile })));
  }

  function renderQuestion(s) {
    const el = $("question");
    const q = s.question;
    if (!q || s.over) { el.hidden = true; fill(el); return; }
    el.hidden = false;
    el.dataset.ask = q.ask;
    if (q.ask === "give") {
      fill(el, h("p", {}, fmt("give_to", { player: s.current_player })),
        h("div", { class: "choices" }, q.choices.map((p) => h("button", {
          class: "big choice-wide", disabled: !K.canAct, dataset: { give: p }, onclick: () => act("give " + p),
        }, "🐉 " + p))));
    } else if (q.ask === "penalty") {
      fill(el, h("p", {}, fmt("penalty_q", { player: s.current_player })),
        h("div", { class: "choices" }, q.choices.map((v) => h("button", {
          class: "big choice penalty", disabled: !K.canAct, dataset: { penalty: v }, onclick: () => act("penalty " + v),
        }, minus(v)))));
    } else if (q.ask === "draw") {
      const box = h("div", { class: "picker", id: "draw-picker" });
      fill(el, h("p", {}, fmt("draw_q", { slots: q.slots.join(", ") })), box);
      picker(box, q.choices, (id) => act("draw " + id));
    } else if (q.ask === "row") {
      fill(el, h("p", {}, S.row_q), h("a", { class: "big button", href: "/setup" }, S.first_row));
    }
  }

  function renderDice(s) {
    const dice = s.dice;
    const rolling = s.phase === "rolling" && dice;
    fill($("dice"), dice ? dice.dice.map((d, i) => die(d, {
      pos: i + 1, dataset: { pos: i + 1 },
      onclick: () => openFix(i + 1, d), disabled: !(K.canAct && rolling),
    })) : [h("span", { class: "muted" }, s.phase === "none" ? "" : S.no_roll_yet)]);
    fill($("dice-info"), dice ? h("span", {}, fmt("sum", { n: dice.sum })) : null,
      dice && dice.warning ? h("span", { class: "warning" }, S.warning + " " + dice.warning) : null);
    const eye = s.eye || {};
    fill($("camera"),
      h("span", { class: "cam cam-" + eye.camera, id: "camera-status" },
        S["camera_" + eye.camera] || eye.camera, eye.seeing ? " · " + eye.seeing : ""),
      eye.message ? h("span", { class: "muted cam-msg" }, eye.message) : null,
      eye.camera !== "none" ? h("button", { class: "small", id: "photo-button", onclick: () => {
        $("photo").src = "/api/camera.jpg?v=" + Date.now();
        $("photo-dialog").showModal();
      } }, S.picture) : null,
      eye.camera !== "none" ? h("button", { class: "small", id: "reread", disabled: !K.canAct, onclick: async () => {
        const r = await fetch("/api/reread", { method: "POST", headers: headers(false) });
        if (!r.ok) toast(fmt("refused", { error: (await r.json().catch(() => ({}))).error || r.status }), true);
      } }, S.reread) : null,
      eye.camera === "simulated" ? h("button", { class: "small", id: "throw", disabled: !K.canAct, onclick: async () => {
        const r = await fetch("/api/throw", { method: "POST", headers: headers(false) });
        if (!r.ok) toast(fmt("refused", { error: (await r.json().catch(() => ({}))).error || r.status }), true);
      } }, S.throw_dice) : null);
  }

  function renderRow(s) {
    const dice = s.dice ? s.dice.dice : [];
    fill($("row"), s.row.map((slot, i) => {
      const v = slot.village;
      const c = slot.card;
      const head = h("div", { class: "village v-" + v.color },
        h("span", {}, v.name), h("span", { class: "v-points" },
          v.top ? `${v.points} · ${fmt("village_left", { n: v.left })}` : S.village_none));
      if (!c) return h("article", { class: "slot empty", dataset: { slot: slot.slot } }, head,
        h("div", { class: "card-body muted" }, S.empty_slot));
      const info = card(c.id);
      const sat = !!c.satisfied;
      const claimable = s.claimable.includes(slot.slot);
      const witness = sat && c.witness ? h("div", { class: "witness" },
        c.witness.map((i) => dice[i] ? die(dice[i], { pos: i + 1, extra: "mini" }) : null)) : null;
      const status = s.dice && s.phase === "rolling"
        ? (sat ? h("span", { class: "ok" }, S.satisfied)
          : h("span", { class: "muted" }, fmt("missing", { n: c.missing })))
        : null;
      return h("article", {
        class: "slot" + (sat ? " satisfied" : "") + (c.village_match ? " match" : ""),
        dataset: { slot: slot.slot, card: c.id },
      }, head,
      h("div", { class: "card-body" },
        h("div", { class: "card-top" },
          h("span", { class: "slot-no" }, slot.slot),
          h("span", { class: "card-name" }, info.name),
          h("span", { class: "card-points" }, pointsText(info))),
        h("div", { class: "card-rule" }, info.rule || c.label),
        h("div", { class: "card-foot" }, status,
          c.village_match && v.top ? h("span", { class: "badge" }, S.village_match) : null),
        witness,
        claimable ? h("button", {
          class: "big claim", disabled: !K.canAct, dataset: { claim: slot.slot },
          onclick: () => act("claim " + slot.slot),
        }, S.claim) : null,
        // the rules let a player leave the village card, or the hypnotist's bonus card
        claimable && c.village_match && v.top ? h("button", {
          class: "leave", disabled: !K.canAct,
          onclick: () => act("claim " + slot.slot + " no-village"),
        }, S.claim_no_village) : null,
        claimable && c.kind === "hypnotist" && s.row[i + 1] && s.row[i + 1].card
          ? h("button", {
            class: "leave", disabled: !K.canAct,
            onclick: () => act("claim " + slot.slot + " no-bonus"),
          }, S.claim_no_bonus) : null));
    }));
  }

  function renderTable(s) {
    renderTurn(s);
    renderQuestion(s);
    renderDice(s);
    renderRow(s);
    const undo = $("undo");
    const lastAction = s.actions && s.actions.length ? s.actions[s.actions.length - 1] : "";
    undo.disabled = !(K.canAct && s.can_undo);
    undo.textContent = lastAction ? fmt("undo_last", { last: lastAction }) : S.undo;
    fill($("last"), s.last && s.phase !== "none" ? [h("span", { class: "muted" }, S.last + " "), s.last] : []);
    $("action-input").disabled = !K.canAct;
    $("action-form").querySelector("button").disabled = !K.canAct;
    $("odds-toggle").hidden = !s.advice;
    if (s.advice && $("odds").checked) showAdvice();
  }

  // ---- the scoreboard --------------------------------------------------------------------

  function renderScores(s) {
    const result = $("result");
    if (s.over) {
      const winners = s.scores.filter((x) => x.place === 1).map((x) => x.player);
      result.hidden = false;
      fill(result, h("p", { class: "headline" }, S.game_over),
        h("p", { class: "winner" }, winners.length > 1 ? S.shared_win + ": " + winners.join(", ")
          : "♛ " + fmt("winner", { player: winners[0] })),
        s.ended_by ? h("p", { class: "muted" }, fmt("ended_by", { why: s.ended_by })) : null);
    } else {
      result.hidden = true;
    }
    if (s.phase === "none") {
      fill($("scoreboard"), h("p", { class: "headline" }, S.no_game));
      return;
    }
    const players = Object.fromEntries(s.players.map((p) => [p.name, p]));
    fill($("scoreboard"), s.scores.map((x) => {
      const p = players[x.player] || { kingdom: [], current: false };
      const parts = [
        [S.citizens, x.citizens], [S.villages, x.villages],
        [S.fairies, x.fairies ? `${x.fairies} → ${x.fairy_points}` : 0],
        [S.penalties, minus(x.penalties)], [S.dragons, minus(x.dragons)],
      ];
      return h("article", {
        class: "player-score" + (p.current && !s.over ? " current" : "") + (x.place === 1 ? " first" : ""),
        dataset: { player: x.player },
      },
      h("div", { class: "ps-head" },
        h("span", { class: "place" }, fmt("place", { n: x.place })),
        h("span", { class: "ps-name" }, x.player),
        h("span", { class: "ps-total" }, minus(x.total))),
      h("dl", { class: "ps-parts" }, parts.map(([k, v]) => [h("dt", {}, k), h("dd", {}, String(v))])),
      x.tie_break && (s.over || x.total !== 0) ? h("p", { class: "tie" }, S.tie_break + ": " + x.tie_break) : null,
      h("div", { class: "kingdom" },
        p.kingdom.length ? p.kingdom.map((id, i) => {
          const c = card(id);
          return h("span", {
            class: "kcard k-" + c.kind + " v-" + (c.village || "none") + (i === p.kingdom.length - 1 ? " top" : ""),
          }, c.name + (c.points !== null && c.points !== undefined ? " " + minus(c.points) : ""));
        }) : h("span", { class: "muted" }, S.kingdom_empty)));
    }));
  }

  // ---- setup -----------------------------------------------------------------------------

  const setup = { names: null, picked: [] };

  function drawPlayers() {
    fill($("player-list"), setup.names.map((name, i) => h("li", {},
      h("input", {
        value: name, maxlength: 20, placeholder: fmt("player_n", { n: i + 1 }), autocomplete: "off",
        "aria-label": fmt("player_n", { n: i + 1 }), dataset: { player: i },
        oninput: (e) => { setup.names[i] = e.target.value; },
      }),
      h("button", { class: "small", disabled: i === 0, "aria-label": S.up, onclick: () => {
        [setup.names[i - 1], setup.names[i]] = [setup.names[i], setup.names[i - 1]]; drawPlayers();
      } }, S.up),
      h("button", { class: "small", disabled: i === setup.names.length - 1, "aria-label": S.down, onclick: () => {
        [setup.names[i + 1], setup.names[i]] = [setup.names[i], setup.names[i + 1]]; drawPlayers();
      } }, S.down),
      h("button", { class: "small", disabled: setup.names.length <= 2, "aria-label": S.remove, onclick: () => {
        setup.names.splice(i, 1); drawPlayers();
      } }, S.remove))));
    $("add-player").disabled = setup.names.length >= 5 || !K.canAct;
    $("start-game").disabled = !K.canAct;
  }

  function initSetup() {
    $("add-player").addEventListener("click", () => {
      if (setup.names.length < 5) { setup.names.push(""); drawPlayers(); }
    });
    $("start-game").addEventListener("click", async () => {
      const names = setup.names.map((n) => n.trim().replace(/\s+/g, "-")).filter(Boolean);
      const s = K.state;
      if (s && s.phase !== "none" && !s.over && !confirm(S.new_game_confirm)) return;
      if (await act("players " + names.join(" "))) setup.picked = [];
    });
    $("picked-clear").addEventListener("click", () => { setup.picked = []; renderSetup(K.state); });
    $("picked-lay").addEventListener("click", async () => {
      if (await act("row " + setup.picked.join(" "))) { setup.picked = []; location.href = "/"; }
    });
  }

  function renderSetup(s) {
    if (setup.names === null) {
      setup.names = s.players.length ? s.players.map((p) => p.name) : ["", ""];
      drawPlayers();
    } else {
      $("add-player").disabled = setup.names.length >= 5 || !K.canAct;
      $("start-game").disabled = !K.canAct;
    }
    const q = s.question;
    const area = $("picker-area");
    if (!q || (q.ask !== "row" && q.ask !== "draw")) { area.hidden = true; return; }
    area.hidden = false;
    const size = q.ask === "row" ? q.count : 1;
    if (q.ask === "row") {
      setup.picked = setup.picked.filter((id) => q.choices.includes(id));
      $("picker-title").textContent = S.row_q;
      $("picker-buttons").hidden = false;
      fill($("picked"), Array.from({ length: size }, (_, i) => {
        const id = setup.picked[i];
        return h("li", { class: id ? "filled" : "" }, id ? h("button", {
          class: "pick-chip", onclick: () => { setup.picked.splice(i, 1); renderSetup(K.state); },
        }, card(id).name + ": " + (card(id).rule || "") + " ✕") : "—");
      }));
      $("picked-lay").disabled = !K.canAct || setup.picked.length !== size;
      picker($("picker"), q.choices, (id) => {
        if (setup.picked.length < size) { setup.picked.push(id); renderSetup(K.state); }
      }, setup.picked);
    } else {
      $("picker-title").textContent = fmt("draw_q", { slots: q.slots.join(", ") });
      $("picker-buttons").hidden = true;
      fill($("picked"));
      picker($("picker"), q.choices, async (id) => {
        const after = await act("draw " + id);
        if (after && (!after.question || after.question.ask !== "draw")) location.href = "/";
      });
    }
  }

  // ---- history ---------------------------------------------------------------------------

  function time(at) {
    const d = new Date(at);
    return isNaN(d) ? at : d.toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  }

  function eventList(events) {
    return events.length ? events.map((e) => h("li", { dataset: { seq: e.seq } },
      h("span", { class: "ev-time muted" }, time(e.at)), h("code", {}, e.action)))
      : [h("li", { class: "muted" }, S.no_history)];
  }

  let historyVersion = -1;
  async function renderHistory(s) {
    if (s.version === historyVersion) return;
    historyVersion = s.version;
    try {
      const [hist, games] = await Promise.all([getJSON("/api/history"), getJSON("/api/games")]);
      fill($("events"), eventList(hist.events));
      fill($("games"), games.games.map((g) => h("li", {},
        h("button", { class: "game-button", dataset: { game: g.id }, onclick: () => openGame(g.id) },
          h("strong", {}, "#" + g.id + " "), new Date(g.started).toLocaleString(LANG) + " · " +
          g.players.join(", ") + " · " + fmt("events", { n: g.events }),
          g.current ? h("span", { class: "badge" }, S.current_game) : null))));
    } catch (e) { toast(e.message, true); }
  }

  async function openGame(id) {
    const detail = $("game-detail");
    try {
      const g = await getJSON(`/api/games/${id}?lang=${LANG}`);
      fill(detail, h("h3", {}, "#" + g.id),
        h("ol", { class: "ranking" }, g.view.scores.map((x) => h("li", {},
          `${fmt("place", { n: x.place })} ${x.player}: ${minus(x.total)}` + (x.tie_break ? ` (${x.tie_break})` : "")))),
        h("ol", { class: "events" }, eventList(g.events)));
      detail.hidden = false;
      detail.scrollIntoView({ behavior: "smooth" });
    } catch (e) { toast(e.message, true); }
  }

  // ---- one render for every page -----------------------------------------------------------

  const RENDER = { table: renderTable, scores: renderScores, setup: renderSetup, history: renderHistory };
  const INIT = { table: initTable, setup: initSetup };

  function render(s, fromStream) {
    const old = K.state;
    if (fromStream && K.fresh) K.fresh = false;  // a new stream (maybe a restarted server)
    else if (old && s.game_id === old.game_id) {
      // answers to our own actions and the stream race: never step back to an older state
      if (s.version < old.version) return;
      if (fromStream && s.version === old.version && s.eye.version === old.eye.version) return;
    }
    K.state = s;
    document.body.classList.toggle("can-act", K.canAct);
    $("watching").hidden = K.canAct;
    $("qr-button").hidden = !K.canAct;
    RENDER[PAGE](s);
    wake(s);
  }

  async function start() {
    initToken();
    if (INIT[PAGE]) INIT[PAGE]();
    $("qr-button").addEventListener("click", () => {
      $("qr-img").src = "/qr.svg?token=" + encodeURIComponent(K.token || "");
      $("qr-dialog").showModal();
    });
    try {
      const [cards, state] = await Promise.all([
        getJSON("/api/cards?lang=" + LANG), getJSON("/api/state?lang=" + LANG)]);
      K.cards = cards;
      K.canAct = !!state.can_act;
      render(state);
    } catch (e) { toast(e.message, true); }
    connect();
    document.body.dataset.ready = "1";
  }

  start();
})();
