// The phone page: renders /api/state, stays live over /api/live, sends actions.
// No framework, no build step, nothing from outside the table's own network.
(() => {
  "use strict";

  const S = JSON.parse(document.getElementById("strings").textContent);
  const PAGE = document.body.dataset.page;
  const ICONS = document.body.dataset.icons || "/static/icons.svg";
  const LANG = document.documentElement.lang || "en";
  const TOKEN_KEY = "kotd-token";
  const VIBRATE_KEY = "kotd-vibrate";
  // seat colours until the table gives each player a colour of its own (setup)
  const SEAT_COLORS = ["#e53935", "#1e88e5", "#43a047", "#f9a825", "#8e24aa"];
  const K = { state: null, cards: null, canAct: false, token: null, source: null };

  // ---- small helpers ------------------------------------------------------------------

  const $ = (id) => document.getElementById(id);

  // a template with its {names} filled; with n = 1 the singular KEY_1 (or, for KEY_n, the
  // key's stem + _1) where the page has one ("1 card", not "1 cards")
  function fmt(key, vars) {
    if (vars && vars.n === 1) {
      const one = S[key + "_1"] || S[key.replace(/_n$/, "") + "_1"];
      if (one) key = key + "_1" in S ? key + "_1" : key.replace(/_n$/, "") + "_1";
    }
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
      else if (k === "style") el.style.cssText = v;
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : String(c));
    }
    return el;
  }

  // an icon from the page's own SVG sprite (no emoji: fonts lack them)
  function icon(name, cls) {
    const NS = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("class", "icon" + (cls ? " " + cls : ""));
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    const use = document.createElementNS(NS, "use");
    use.setAttribute("href", ICONS + "#" + name);
    svg.append(use);
    return svg;
  }

  function fill(el, ...children) {
    el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  }

  function minus(n) { return n < 0 ? "−" + Math.abs(n) : String(n); }

  function list(names) {  // "Ann, Ben and Cem"
    return names.length < 2 ? names.join("") : names.slice(0, -1).join(", ") + " " + S.and + " " + names[names.length - 1];
  }

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

  async function post(path) {
    const r = await fetch(path + "?lang=" + LANG, { method: "POST", headers: headers(false) });
    if (!r.ok) toast(fmt("refused", { error: (await r.json().catch(() => ({}))).error || r.status }), true);
    return r.ok;
  }

  // every action gets an id: if the reply is lost (Wi-Fi), the same action is sent again
  // with the same id, and the assistant applies it once
  function actionId() {
    const bytes = new Uint8Array(9);
    crypto.getRandomValues(bytes);  // (crypto.randomUUID needs https; the page is http)
    return "p-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function act(line) {
    let r, body;
    const id = actionId();
    for (let attempt = 0; ; attempt++) {
      try {
        r = await fetch("/api/action?lang=" + LANG, {
          method: "POST", headers: headers(true), body: JSON.stringify({ action: line, id }),
        });
        body = await r.json().catch(() => ({ error: r.statusText }));
        break;
      } catch (e) {  // no answer: try again (the id keeps it from happening twice)
        if (attempt >= 2) {
          toast(fmt("refused", { error: e.message }), true);
          return null;
        }
        await new Promise((ok) => setTimeout(ok, 700 * (attempt + 1)));
      }
    }
    if (!r.ok) {
      toast(fmt("refused", { error: body.error }), true);
      return null;
    }
    if (body.last_said) toast(body.last_said);  // the referee's words for what was done
    render(body);
    return body;
  }

  // ---- one action at a time on another game's table ----------------------------------------

  // While an action is on its way, the table's buttons are disabled (a tap then waits,
  // visibly, instead of being lost), and enabled again when it is answered. Buttons a live
  // update draws meanwhile are disabled too: the stream often brings the new state before
  // the action's own answer.
  const sending = { on: false, held: new Set() };

  function holdButtons() {
    const area = $("court-game");
    if (!sending.on || !area) return;
    for (const b of area.querySelectorAll("button:not([disabled])")) {
      b.disabled = true;
      sending.held.add(b);
    }
  }

  async function actAlone(line) {
    if (sending.on) return null;
    sending.on = true;
    holdButtons();
    try { return await act(line); } finally {
      sending.on = false;
      for (const b of sending.held) b.disabled = false;
      sending.held.clear();
    }
  }

  // ---- live: one EventSource while the page is visible -------------------------------------

  function setLive(on) {
    const el = $("live");
    clearTimeout(K.offlineSoon);
    el.textContent = on ? S.live : S.offline;
    el.classList.toggle("off", !on);
  }

  // a stream that ends and reconnects at once (every ten minutes, or a server restart) is
  // not worth a flickering badge: "reconnecting" shows only if it lasts two seconds
  function offlineSoon() {
    clearTimeout(K.offlineSoon);
    K.offlineSoon = setTimeout(() => setLive(false), 2000);
  }

  function connect() {
    if (K.source) return;
    // the token (if this phone has it) keeps a player's stream when spectators crowd in
    const es = new EventSource("/api/live?lang=" + LANG +
      (K.token ? "&token=" + encodeURIComponent(K.token) : ""));
    es.addEventListener("state", (e) => render(JSON.parse(e.data), true));
    es.onopen = () => { setLive(true); K.fresh = true; };
    es.onerror = () => {
      offlineSoon();
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

  // ---- the opt-in buzz on the phone of the player whose turn it is ------------------------

  function vibrateFor() { try { return localStorage.getItem(VIBRATE_KEY) || ""; } catch (e) { return ""; } }

  function buzz(old, s) {
    const who = vibrateFor();
    if (!who || !s || s.phase !== "rolling" || s.over || !navigator.vibrate) return;
    const turnChanged = !old || old.game_id !== s.game_id || old.turn !== s.turn || old.phase !== "rolling";
    if (turnChanged && s.current_player === who) navigator.vibrate([180, 80, 180]);
  }

  // ---- shared pieces -----------------------------------------------------------------------

  function card(id) { return (K.cards && K.cards.cards[id]) || { id, name: id, label: id, kind: "" }; }

  function pointsText(c) {
    if (c.effect === "fairy_points") return "n²";
    return c.points === null || c.points === undefined ? "" : minus(c.points);
  }

  function playerColor(s, name) {
    const i = s.players.findIndex((p) => p.name === name);
    const p = s.players[i];
    return (p && p.color) || SEAT_COLORS[i % SEAT_COLORS.length] || "#888";
  }

  function dot(color) { return h("span", { class: "dot", style: "background:" + color }); }

  function dieLabel(d, n) {
    return fmt("dice_label", { n, value: d.value, color: d.color ? S[d.color] || d.color : "" }).trim();
  }

  function die(d, attrs) {
    const a = attrs || {};
    const plain = !d.color;  // an ordinary die (Um Krone und Kragen): drawn with pips
    const cls = "die " + (plain ? "c-none pips" : "c-" + d.color) + (a.extra ? " " + a.extra : "");
    return h(a.onclick ? "button" : "span",
      { class: cls, onclick: a.onclick, disabled: a.disabled,
        "aria-label": a.label || (a.pos ? dieLabel(d, a.pos) : `${d.value} ${d.color ? S[d.color] || d.color : ""}`.trim()),
        role: a.onclick ? null : "img", "aria-pressed": a.pressed === undefined ? null : String(!!a.pressed),
        dataset: Object.assign({}, a.dataset, a.pos ? { n: a.pos } : {}) },
      plain ? pips(d.value) : String(d.value));  // the die's place is drawn by CSS (data-n)
  }

  // the pips of an ordinary die's face, laid out by CSS (.pips.v1 ... .v6)
  function pips(value) {
    return h("span", { class: "face v" + value, "aria-hidden": "true" },
      Array.from({ length: value }, () => h("span", { class: "pip" })));
  }

  // What a card still lacks, in the card's own terms ("sum 17, needs ≤ 12": the sum now
  // and what the card asks).
  function missingText(c, sum) {
    const r = c.requirement || {};
    if (r.type === "sum_at_most" && sum > r.total) return fmt("sum_over", { sum, total: r.total });
    if (r.type === "sum_at_least" && sum < r.total) return fmt("sum_under", { sum, total: r.total });
    return c.missing === 1 ? S.dice_short_1 : fmt("dice_short_n", { n: c.missing });
  }

  // ---- the card picker: a compact grid of kinds with counts, type-ahead, two taps at most --

  // picker(container, choices, onPick, {chosen, shift}) draws into container; what the
  // player has typed or opened survives live updates (kept on the container).
  function picker(container, choices, onPick, opts) {
    const o = opts || {};
    const chosen = o.chosen || [];
    const ui = container.pickerUI || (container.pickerUI = { kind: "", query: "" });
    const left = choices.filter((id) => !chosen.includes(id));
    const kinds = [];
    for (const id of left) { const k = card(id).kind; if (!kinds.includes(k)) kinds.push(k); }
    if (ui.kind && !kinds.includes(ui.kind)) ui.kind = "";
    const redraw = () => picker(container, choices, onPick, o);

    const search = h("input", {
      type: "search", class: "pick-search", value: ui.query, placeholder: S.search_card,
      "aria-label": S.search_card, autocomplete: "off", autocapitalize: "off", spellcheck: "false",
      disabled: !K.canAct,
      oninput: (e) => { ui.query = e.target.value; ui.kind = ""; drawBody(); },
      onkeydown: (e) => {
        if (e.key !== "Enter") return;
        e.preventDefault();
        const found = matches(ui.query);
        if (found.length === 1) { ui.query = ""; onPick(found[0]); }
      },
    });
    const body = h("div", { class: "pick-body" });

    function matches(q) {
      const words = q.toLowerCase().split(/\s+/).filter(Boolean);
      return left.filter((id) => {
        const c = card(id);
        const text = [c.name, c.rule || "", c.label || "", id].join(" ").toLowerCase();
        return words.every((w) => text.includes(w));
      });
    }

    function cardButton(id) {
      const c = card(id);
      return h("button", {
        class: "pick v-" + (c.village || "none") + (c.kind === "dragon" ? " dragon" : ""),
        dataset: { card: id }, disabled: !K.canAct,
        onclick: () => { ui.query = ""; ui.kind = ""; onPick(id); },
      },
      h("span", { class: "pick-name" }, c.name),
      h("span", { class: "pick-rule" }, c.rule || c.label),
      h("span", { class: "pick-points" }, c.kind === "dragon" ? icon("dragon") : null, pointsText(c)));
    }

    function drawBody() {
      if (ui.query.trim()) {
        const found = matches(ui.query);
        fill(body, found.length
          ? h("div", { class: "pick-grid" }, found.map(cardButton))
          : h("p", { class: "muted" }, S.no_match));
        return;
      }
      if (ui.kind) {
        fill(body, h("div", { class: "pick-grid" },
          h("button", { class: "pick back secondary", onclick: () => { ui.kind = ""; drawBody(); } },
            h("span", { class: "pick-rule" }, "‹ " + S.back)),
          left.filter((id) => card(id).kind === ui.kind).map(cardButton)));
        return;
      }
      fill(body, h("div", { class: "kinds" }, kinds.map((k) => {
        const ids = left.filter((id) => card(id).kind === k);
        const c = card(ids[0]);
        return h("button", {
          class: "kind-tile v-" + (c.village || "none") + (k === "dragon" ? " dragon" : ""),
          dataset: { kind: k }, disabled: !K.canAct,
          onclick: () => { ui.kind = k; drawBody(); },
        },
        h("span", { class: "kind-count", title: fmt("kind_left", { n: ids.length }) }, ids.length),
        h("span", { class: "kind-name" }, k === "dragon" ? icon("dragon") : null,
          (K.cards && K.cards.kinds[k]) || k));
      })));
    }

    drawBody();
    fill(container, o.shift || null, search, body);
  }

  // A small picture of the refill: the cards slide right, the new one goes in on the left.
  function shiftPicture(s, slots) {
    const target = Math.max(...slots);
    return h("div", { class: "shift" },
      h("div", { class: "shift-row", role: "img", "aria-label": S.shift_picture },
        s.row.map((slot) => {
          const c = slot.card;
          const isTarget = slot.slot === target;
          return h("span", {
            class: "shift-slot" + (c ? " full" : " empty") + (isTarget ? " target" : ""),
          }, c ? icon("arrow-right", "moved") : (isTarget ? S.new_card : ""),
          h("small", {}, slot.slot));
        })),
      h("p", { class: "shift-hint" }, fmt("shift_hint", { slot: target })));
  }

  // ---- the table ---------------------------------------------------------------------------

  const fix = { position: 0, value: 1, color: "r", held: false };

  function openFix(position, d, held) {
    fix.held = !!held;
    fix.position = position;
    fix.value = d.value;
    fix.color = d.color ? d.color[0] : "";  // "": an ordinary die, no colour to choose
    $("fix-title").textContent = fmt("fix_die", { n: position });
    drawFix();
    $("fix-dialog").showModal();
  }

  function drawFix() {
    fill($("fix-values"), [1, 2, 3, 4, 5, 6].map((v) => h("button", {
      class: "choice" + (v === fix.value ? " on" : ""), "aria-pressed": v === fix.value ? "true" : "false",
      onclick: () => { fix.value = v; drawFix(); },
    }, String(v))));
    $("fix-colors").hidden = !fix.color;
    if (!fix.color) { fill($("fix-colors")); return; }
    fill($("fix-colors"), [["r", "red"], ["g", "green"], ["b", "blue"]].map(([l, name]) => h("button", {
      class: "choice die c-" + name + (l === fix.color ? " on" : ""), "aria-label": S[name] || name,
      "aria-pressed": l === fix.color ? "true" : "false",
      dataset: { color: name },
      onclick: () => { fix.color = l; drawFix(); },
    }, String(fix.value))));
  }

  function initTable() {
    $("fix-cancel").addEventListener("click", () => $("fix-dialog").close());
    $("fix-apply").addEventListener("click", () => {
      $("fix-dialog").close();
      if (fix.held) sendHeld({ fix: `${fix.position} ${fix.value}${fix.color}` });
      else act(`fix ${fix.position} ${fix.value}${fix.color}`);
    });
    $("undo").addEventListener("click", () => act("undo"));
    $("throw").addEventListener("click", () => post("/api/throw"));
    $("action-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const input = $("action-input");
      if (input.value.trim() && await act(input.value.trim())) input.value = "";
    });
    $("odds").addEventListener("change", () => showAdvice());
    $("photo-dialog").addEventListener("close", () => clearTimeout(liveView.timer));
    $("calibrate").addEventListener("click", async () => {
      if (await post("/api/calibrate")) toast(S.calibrated);
    });
    wireTray();
    $("vibrate").addEventListener("change", (e) => {
      try { localStorage.setItem(VIBRATE_KEY, e.target.value); } catch (err) { /* private mode */ }
      if (e.target.value && navigator.vibrate) navigator.vibrate(60);  // a tap: buzz once to show it works
    });
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

  // The question the table must answer now. A penalty is one only when no roll is left:
  // while rolls remain, stopping early is the player's choice, not the page's question.
  function question(s) {
    const q = s.question;
    if (!q || s.over) return null;
    if (q.ask === "penalty" && s.rolls_used < s.max_rolls) return null;
    return q;
  }

  // Penalty values the player may stop with now (nothing fits, rolls still left), or null.
  function stopChoices(s) {
    if (s.phase !== "rolling" || s.over || !s.dice || s.claimable.length) return null;
    if (s.rolls_used >= s.max_rolls) return null;
    if (s.penalty_choices) return s.penalty_choices;
    return s.question && s.question.ask === "penalty" ? s.question.choices : null;
  }

  function rollsLeft(s) { return Math.max(0, s.max_rolls - s.rolls_used); }

  function renderTopline(s) {
    const el = $("topline");
    if (s.phase === "none") { fill(el); el.hidden = true; return; }
    el.hidden = false;
    if (s.over) {
      fill(el, h("p", { class: "tl-main" }, h("span", { class: "tl-who" }, icon("crown"), S.game_over)));
      return;
    }
    // "Ann's turn": on a phone the name alone (the words around it hide), so the top line
    // stays one line
    const [before, after] = (S.turn_of || "{player}").split("{player}");
    const who = h("span", { class: "tl-who", id: "whose-turn" }, dot(playerColor(s, s.current_player)),
      before ? h("span", { class: "tl-words" }, before) : null, s.current_player,
      after ? h("span", { class: "tl-words" }, after) : null);
    let roll;
    let short = null;  // the roll count in fewer words, for a line that would not fit
    if (s.phase === "rolling") {
      const elf = s.max_rolls === 4 ? "_elf" : "";
      const n = { n: s.rolls_used, max: s.max_rolls };
      roll = h("span", { class: "roll-count", id: "roll-count" },
        !s.rolls_used ? S.no_roll_yet : fmt("roll_n_of" + elf, n));
      if (s.rolls_used) short = fmt("roll_n_of_short" + elf, n);
    } else {
      roll = h("span", { class: "roll-count phase", id: "roll-count" }, S["phase_" + s.phase] || s.phase);
    }
    let fits = null;
    if (s.phase === "rolling" && s.dice) {
      const n = s.claimable.length;
      fits = h("span", { class: "fits" + (n ? " some" : ""), id: "fits",
        "aria-label": n ? (n === 1 ? S.fits_one : fmt("fits_n", { n })) : null },
      n ? h("span", { class: "fits-words" }, n === 1 ? S.fits_one : fmt("fits_n", { n }))
        : (rollsLeft(s) ? S.fits_none : S.fits_none_last),
      n ? icon("check", "fits-icon") : null,
        s.claimable.map((slot) => h("a", {
          class: "jump", href: "#slot-" + slot, dataset: { jump: slot },
          "aria-label": fmt("jump_slot", { n: slot }),
          onclick: (e) => {
            e.preventDefault();
            const target = $("slot-" + slot);
            if (target) { target.scrollIntoView({ behavior: "smooth", block: "center" }); target.classList.add("flash"); setTimeout(() => target.classList.remove("flash"), 900); }
          },
        }, String(slot))));
    }
    fill(el, h("p", { class: "tl-main" }, who, roll),
      s.extra_turn ? h("span", { class: "badge", id: "extra-turn" }, S.extra_turn_why) : null, fits);
    if (short && lines(el) > 1) roll.textContent = short;
  }

  // How many lines the top line's parts take (a part lying wholly below the first starts one).
  function lines(el) {
    const boxes = [...el.querySelectorAll(".tl-who, .roll-count, .badge, .fits")]
      .map((part) => part.getBoundingClientRect()).filter((r) => r.height > 0);
    if (!boxes.length) return 0;
    const first = boxes[0];
    return boxes.some((r) => r.top >= first.bottom - 1) ? 2 : 1;
  }

  function renderStrip(s) {
    const el = $("strip");
    if (s.phase === "none") { fill(el); el.hidden = true; return; }
    el.hidden = false;
    const totals = Object.fromEntries(s.scores.map((x) => [x.player, x.total]));
    fill(el, s.players.map((p) => h("span", {
      class: "chip-player" + (p.current && !s.over ? " current" : ""), dataset: { player: p.name },
    }, dot(playerColor(s, p.name)), h("span", { class: "cp-name" }, p.name),
    h("strong", { class: "cp-total" }, minus(totals[p.name] || 0)),
    p.current && !s.over ? h("span", { class: "visually-hidden" }, " " + S.turn_now) : null)));
  }

  function tieWords(s) {
    const top = s.scores.filter((x) => x.total === s.scores[0].total);
    if (top.length < 2) return null;
    if (top[0].shared) return fmt("tie_shared");
    return fmt("tie_words", { winner: top[0].player, other: top[1].player, points: top[0].total,
      a: top[0].minus, b: top[1].minus });
  }

  function rematchLine(s) {
    const names = s.players.map((p) => p.name);
    return names.slice(1).concat(names.slice(0, 1));  // same seats, the next player starts
  }

  function renderOver(s) {
    const el = $("over");
    if (!s.over) { el.hidden = true; fill(el); return; }
    el.hidden = false;
    const winners = s.scores.filter((x) => x.place === 1);
    const best = winners[0];
    const next = rematchLine(s);
    fill(el,
      h("p", { class: "winner" }, icon("crown"), winners.length > 1
        ? fmt("share_win", { players: list(winners.map((x) => x.player)), points: best.total })
        : fmt("wins_with", { player: best.player, points: best.total })),
      tieWords(s) ? h("p", { class: "tie" }, tieWords(s)) : null,
      s.ended_by ? h("p", { class: "muted" }, fmt("ended_by", { why: s.ended_by })) : null,
      h("ol", { class: "final" }, s.scores.map((x) => h("li", {
        class: x.place === 1 ? "first" : "", dataset: { player: x.player } },
        h("div", { class: "ft-head" },
          h("span", { class: "place" }, fmt("place", { n: x.place })),
          h("span", { class: "ft-name" }, dot(playerColor(s, x.player)), x.player),
          h("span", { class: "ft-total" }, minus(x.total))),
        h("p", { class: "ft-parts" }, [
          [S.citizens, x.citizens], [S.villages, x.villages], [S.fairies, x.fairy_points],
          [S.penalties, minus(x.penalties)], [S.dragons, minus(x.dragons)],
        ].filter(([, v]) => v !== 0 && v !== "0").map(([k, v]) => h("span", {}, k + " " + v)))))),
      h("div", { class: "over-buttons" },
        h("button", {
          class: "big", id: "rematch", disabled: !K.canAct,
          onclick: () => act("players " + next.join(" ")),
        }, S.rematch, h("small", { class: "btn-sub" }, fmt("rematch_hint", { player: next[0] }))),
        h("a", { class: "big button secondary", href: "/setup", id: "new-game" }, S.new_game_short)));
  }

  function renderQuestion(s) {
    const el = $("question");
    const q = question(s);
    if (!q) { el.hidden = true; fill(el); el.dataset.key = ""; delete el.dataset.ask; return; }
    el.hidden = false;
    // the picker keeps what was typed across live updates: redraw only for a new question
    const key = [s.game_id, q.ask, (q.slots || []).join(), (q.choices || []).join(), K.canAct].join("|");
    if (el.dataset.key === key) return;
    el.dataset.key = key;
    el.dataset.ask = q.ask;
    if (q.ask === "give") {
      fill(el, h("p", { class: "q-text" }, icon("dragon"), fmt("give_to", { player: s.current_player })),
        h("div", { class: "choices" }, q.choices.map((p) => h("button", {
          class: "big choice-wide", disabled: !K.canAct, dataset: { give: p }, onclick: () => act("give " + p),
        }, dot(playerColor(s, p)), p))));
    } else if (q.ask === "penalty") {
      // the penalty's second effect is said before it happens: the rightmost citizen goes
      const last = s.row.length && s.row[s.row.length - 1].card;
      fill(el, h("p", { class: "q-text" }, icon("scoundrel"), last
        ? fmt("penalty_q_row", { player: s.current_player, card: card(last.id).name })
        : fmt("penalty_q", { player: s.current_player })),
        penaltyButtons(q.choices, "big choice penalty"));
    } else if (q.ask === "draw") {
      const box = h("div", { class: "picker", id: "draw-picker" });
      fill(el, h("p", { class: "q-text" }, fmt("draw_q", { slots: q.slots.join(", ") })), box);
      picker(box, q.choices, (id) => act("draw " + id), { shift: shiftPicture(s, q.slots) });
    } else if (q.ask === "row") {
      fill(el, h("p", { class: "q-text" }, S.row_q), h("a", { class: "big button", href: "/setup" }, S.first_row));
    }
    if (K.canAct) {  // the table must answer: bring the question to the top of the screen
      const head = document.querySelector(".headrow");
      el.style.scrollMarginTop = ((head && head.offsetHeight) || 0) + 6 + "px";
      const r = el.getBoundingClientRect();
      if (q.ask === "draw" || r.top < 0 || r.top > innerHeight * 0.45) el.scrollIntoView({ block: "start" });
    }
  }

  function penaltyButtons(values, cls) {
    return h("div", { class: "choices" }, values.map((v) => h("button", {
      class: cls, disabled: !K.canAct, dataset: { penalty: v }, onclick: () => act("penalty " + v),
    }, minus(v))));
  }

  function renderStop(s) {
    const el = $("stop");
    const values = stopChoices(s);
    if (!values) { el.hidden = true; fill(el); el.dataset.key = ""; return; }
    el.hidden = false;
    const key = [s.version, K.canAct].join("|");
    if (el.dataset.key === key) return;
    el.dataset.key = key;
    const open = el.querySelector("details") && el.querySelector("details").open;
    const left = rollsLeft(s);
    fill(el, h("details", { class: "stop-early", open: !!open },
      h("summary", { id: "stop-early" }, S.stop_early, h("span", { class: "muted" },
        " · " + (left === 1 ? S.rolls_left_1 : fmt("rolls_left_n", { n: left })))),
      h("p", {}, fmt("stop_early_q", { player: s.current_player })),
      penaltyButtons(values, "choice penalty")));
  }

  // A roll the table holds: seen while a question was open (it counts once the question is
  // answered), or read with a die the camera is unsure of (the table checks it first).
  async function sendHeld(body) {
    let r, answer;
    try {
      r = await fetch("/api/held?lang=" + LANG, { method: "POST", headers: headers(true), body: JSON.stringify(body) });
      answer = await r.json().catch(() => ({ error: r.statusText }));
    } catch (e) { toast(fmt("refused", { error: e.message }), true); return null; }
    if (!r.ok) { toast(fmt("refused", { error: answer.error }), true); return null; }
    render(answer);
    return answer;
  }

  function renderHeld(s) {
    const el = $("held");
    const held = s.held;
    if (!held || s.over) { el.hidden = true; fill(el); return; }
    el.hidden = false;
    el.dataset.why = held.why;
    const unsure = held.unsure || [];
    const dice = held.dice.map((d, i) => die(d, {
      pos: i + 1, dataset: { pos: i + 1 }, extra: unsure.includes(i + 1) ? "unsure" : "",
      onclick: held.why === "check" ? () => openFix(i + 1, d, true) : null,
      disabled: !K.canAct,
    }));
    if (held.why === "check") {
      fill(el, h("p", { class: "q-text" }, icon("alert"),
        fmt(unsure.length > 1 ? "held_check_n" : "held_check",
          { dice: list(unsure.map(String)), player: held.player })),
      ...whyUnsure(unsure, held.unsure_why),
      h("div", { class: "dice held-dice" }, dice),
      h("button", { class: "big", id: "held-confirm", disabled: !K.canAct,
        onclick: () => sendHeld({ confirm: true }) }, icon("check"), " ", S.held_right));
    } else {
      fill(el, h("p", { class: "held-note" }, fmt("held_waiting", { player: held.player })),
        h("div", { class: "dice held-dice small" }, dice));
    }
  }

  // Why the camera doubts each unsure die, in words, where it could say.
  function whyUnsure(unsure, why, tag = "p") {
    return unsure.filter((pos) => why && S["why_" + why[pos]])
      .map((pos) => h(tag, { class: "why-unsure" },
        fmt("why_of", { die: pos, why: S["why_" + why[pos]] })));
  }

  function renderDice(s) {
    const dice = s.dice;
    const rolling = s.phase === "rolling" && dice;
    const unsure = (s.eye && s.eye.unsure) || [];
    $("dice-area").hidden = s.phase === "none" || s.over;
    fill($("dice"), dice ? dice.dice.map((d, i) => die(d, {
      pos: i + 1, dataset: { pos: i + 1 }, extra: unsure.includes(i + 1) ? "unsure" : "",
      onclick: () => openFix(i + 1, d), disabled: !(K.canAct && rolling),
    })) : [h("p", { class: "dice-empty muted" },
      s.over ? "" : (s.phase === "rolling" ? S.throw_hint : ""))]);
    fill($("dice-info"), dice ? h("span", {}, fmt("sum", { n: dice.sum })) : null,
      dice && s.phase === "rolling" ? h("span", { class: "muted" },
        rollsLeft(s) === 0 ? S.no_rolls_left : rollsLeft(s) === 1 ? S.rolls_left_1 : fmt("rolls_left_n", { n: rollsLeft(s) })) : null,
      unsure.length && rolling ? h("span", { class: "warning" }, icon("alert"), fmt("check_die", { dice: unsure.join(", ") })) : null,
      ...(rolling ? whyUnsure(unsure, s.eye && s.eye.unsure_why, "span") : []),
      dice && dice.warning ? h("span", { class: "warning" }, icon("alert"), S.warning + " " +
        (dice.clash ? fmt("haba_clash", { dice: dice.clash.dice.join(", "), pair: dice.clash.pair }) : dice.warning)) : null);
    fill($("camera"), cameraNodes(s));
    const eye = s.eye || {};
    // the simulated tray's throw button sits in the thumb zone while the player may roll
    const thumb = $("thumb");
    // not while the table checks a held die: a new throw would replace that roll
    const checking = s.held && s.held.why === "check";
    const canThrow = eye.camera === "simulated" && s.phase === "rolling" && !s.over && !checking;
    thumb.hidden = !canThrow;
    document.body.classList.toggle("has-thumb", canThrow);
    $("throw").disabled = !(K.canAct && canThrow && rollsLeft(s) > 0);
  }

  // the camera's status, its live view and the re-read button (every game's page)
  function cameraNodes(s) {
    const eye = s.eye || {};
    const playing = s.phase !== "none" && !s.over;
    const seeing = eye.seeing ? fmt("seeing_" + eye.seeing, { n: eye.dice_seen, dice: eye.dice_wanted || (K.cards && K.cards.dice) || 6 }) : "";
    return [
      h("span", { class: "cam cam-" + eye.camera, id: "camera-status" },
        icon("camera"), S["camera_" + eye.camera] || eye.camera,
        seeing && S["seeing_" + eye.seeing] ? " · " + seeing : ""),
      eye.camera === "lost" || eye.camera === "stalled"
        ? h("span", { class: "muted cam-msg" }, S.camera_lost_note) : null,
      eye.tilted ? h("span", { class: "muted cam-msg", id: "camera-tilted" }, S.camera_tilted) : null,
      eye.message && LANG === "en" && eye.camera !== "none" && !S["seeing_" + eye.seeing]
        ? h("span", { class: "muted cam-msg" }, eye.message) : null,
      playing && eye.camera !== "none" ? h("button", { class: "small secondary", id: "photo-button",
        onclick: openLiveView }, icon("camera"), " ", S.picture) : null,
      playing && eye.camera !== "none" ? h("button", { class: "small secondary", id: "reread", disabled: !K.canAct,
        onclick: () => post("/api/reread") }, S.reread) : null];
  }

  // ---- the live camera view: a few pictures a second, each die labelled by its number --------

  const liveView = { timer: null, loading: false };

  function openLiveView() {
    showLiveViewButtons();
    $("photo-dialog").showModal();
    nextPicture();
  }

  // Calibrating and marking the tray are offered while the camera is up: checked with every
  // picture, so a view opened while the camera was still starting offers them once it is.
  function showLiveViewButtons() {
    const eye = (K.state && K.state.eye) || {};
    $("calibrate-area").hidden = !(K.canAct && eye.can_calibrate);
    // the tray is marked for ordinary dice too: wherever a camera picture comes
    $("tray-area").hidden = !(K.canAct && ["ok", "simulated"].includes(eye.camera));
  }

  function nextPicture() {
    const dialog = $("photo-dialog");
    if (!dialog.open || liveView.loading) return;
    liveView.loading = true;
    const img = $("photo");
    const done = () => {
      liveView.loading = false;
      showLiveViewButtons();
      drawLabels();
      drawTray();
      clearTimeout(liveView.timer);
      if (dialog.open) liveView.timer = setTimeout(nextPicture, 300);  // about 3 a second
    };
    img.onload = done;
    img.onerror = done;
    img.src = "/api/camera.jpg?v=" + Date.now();
  }

  // The eye says where each die lies (fractions of the picture, in the page's order).
  function drawLabels() {
    const eye = (K.state && K.state.eye) || {};
    const at = eye.dice_at || [];
    fill($("photo-labels"), at.map(([x, y], i) => h("span", {
      class: "photo-label", style: `left:${(x * 100).toFixed(2)}%;top:${(y * 100).toFixed(2)}%`,
    }, String(i + 1))));
  }

  // ---- the tray: four taps on the live view, or the camera's suggestion to confirm --------

  const trayMarking = { points: null, suggestion: null };

  async function sendTray(method, path, body) {
    const r = await fetch(path + "?lang=" + LANG, {
      method, headers: headers(body !== undefined), body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await r.json().catch(() => ({}));
    if (!r.ok) toast(fmt("refused", { error: answer.error || r.status }), true);
    return r.ok ? answer : null;
  }

  // the tray's answer: the camera's tilt from straight down, with advice when too tilted
  function trayMarked(answer) {
    if (!answer) return;
    const tilt = fmt(answer.too_tilted ? "tray_too_tilted" : "tray_tilt", { tilt: answer.tilt });
    toast(S.tray_marked + " " + tilt);
  }

  function wireTray() {
    $("tray-mark").addEventListener("click", () => {
      trayMarking.points = [];
      trayMarking.suggestion = null;
      $("tray-use").hidden = true;
      $("tray-hint").textContent = fmt("tray_tap", { n: 1 });
      drawTray();
    });
    $("photo").addEventListener("click", async (e) => {
      const points = trayMarking.points;
      if (!points) return;
      const box = e.currentTarget.getBoundingClientRect();
      points.push([(e.clientX - box.left) / box.width, (e.clientY - box.top) / box.height]);
      $("tray-hint").textContent = points.length < 4 ? fmt("tray_tap", { n: points.length + 1 }) : S.tray_hint;
      drawTray();
      if (points.length < 4) return;
      trayMarking.points = null;
      trayMarked(await sendTray("POST", "/api/tray", { corners: points }));
      drawTray();
    });
    $("tray-find").addEventListener("click", async () => {
      const found = await sendTray("POST", "/api/tray/suggest");
      trayMarking.points = null;
      trayMarking.suggestion = found ? found.corners : null;
      $("tray-use").hidden = !found;
      drawTray();
    });
    $("tray-use").addEventListener("click", async () => {
      const corners = trayMarking.suggestion;
      trayMarking.suggestion = null;
      $("tray-use").hidden = true;
      if (corners) trayMarked(await sendTray("POST", "/api/tray", { corners }));
      drawTray();
    });
    $("tray-clear").addEventListener("click", async () => {
      trayMarking.points = trayMarking.suggestion = null;
      $("tray-use").hidden = true;
      if (await sendTray("DELETE", "/api/tray")) toast(S.tray_cleared);
      drawTray();
    });
  }

  // The kept tray (from the state), the suggestion and the taps so far, over the picture.
  function drawTray() {
    const eye = (K.state && K.state.eye) || {};
    const svg = "http://www.w3.org/2000/svg";
    const layer = $("photo-tray");
    layer.replaceChildren();
    const shape = (kind, points, cls) => {
      const el = document.createElementNS(svg, kind);
      el.setAttribute("class", cls);
      el.setAttribute("points", points.map(([x, y]) => `${x},${y}`).join(" "));
      layer.append(el);
    };
    if (eye.tray && eye.tray.length) shape("polygon", eye.tray, "tray-kept");
    if (trayMarking.suggestion) shape("polygon", trayMarking.suggestion, "tray-suggested");
    if (trayMarking.points && trayMarking.points.length) {
      shape("polyline", trayMarking.points, "tray-taps");
      for (const [x, y] of trayMarking.points) {
        const dot = document.createElementNS(svg, "ellipse");
        dot.setAttribute("class", "tray-tap");
        for (const [k, v] of [["cx", x], ["cy", y], ["rx", 0.012], ["ry", 0.016]]) dot.setAttribute(k, v);
        layer.append(dot);
      }
    }
  }

  function renderRow(s) {
    const dice = s.dice ? s.dice.dice : [];
    const el = $("row");
    el.hidden = s.phase === "none" || s.phase === "setup";
    fill(el, s.row.map((slot, i) => {
      const v = slot.village;
      const c = slot.card;
      const head = h("div", { class: "village v-" + v.color },
        h("span", { class: "v-name" }, v.name), h("span", { class: "v-points" },
          v.top ? fmt("village_head", { points: v.points, n: v.left }) : S.village_none));
      if (!c) return h("article", { class: "slot empty", id: "slot-" + slot.slot, dataset: { slot: slot.slot } }, head,
        h("div", { class: "card-body muted" }, S.empty_slot));
      const info = card(c.id);
      const sat = !!c.satisfied;
      const claimable = s.claimable.includes(slot.slot);
      const dragon = info.kind === "dragon";
      const witness = sat && c.witness ? h("div", { class: "witness" },
        c.witness.map((w) => dice[w] ? die(dice[w], { extra: "mini" }) : null)) : null;
      const status = s.dice && s.phase === "rolling"
        ? (sat ? h("span", { class: "ok" }, icon("check"), S.satisfied)
          : h("span", { class: "muted" }, missingText(c, s.dice.sum)))
        : null;
      return h("article", {
        class: "slot" + (sat ? " satisfied" : "") + (c.village_match ? " match" : "") + (dragon ? " dragon" : ""),
        id: "slot-" + slot.slot, dataset: { slot: slot.slot, card: c.id },
      }, head,
      h("div", { class: "card-body" },
        h("div", { class: "card-top" },
          h("span", { class: "slot-no" }, slot.slot),
          h("span", { class: "card-name" }, info.name),
          h("span", { class: "card-points" + (dragon ? " gift" : "") }, dragon ? icon("dragon") : null, pointsText(info)),
          h("span", { class: "card-rule" }, info.rule || c.label)),
        dragon ? h("div", { class: "gift-note" }, S.dragon_hint) : null,
        h("div", { class: "card-foot" }, status,
          c.village_match && v.top ? h("span", { class: "badge" }, S.village_match) : null),
        witness,
        claimable ? h("button", {
          class: "big claim", disabled: !K.canAct, dataset: { claim: slot.slot },
          onclick: () => act("claim " + slot.slot),
        }, S.claim) : null,
        // the rules let a player leave the village card, or the hypnotist's bonus card
        claimable && c.village_match && v.top ? h("button", {
          class: "leave", disabled: !K.canAct, dataset: { leave: "village" },
          onclick: () => act("claim " + slot.slot + " no-village"),
        }, S.claim_no_village) : null,
        claimable && c.kind === "hypnotist" && s.row[i + 1] && s.row[i + 1].card
          ? [h("p", { class: "bonus-hint muted" }, S.bonus_hint), h("button", {
            class: "leave", disabled: !K.canAct, dataset: { leave: "bonus" },
            onclick: () => act("claim " + slot.slot + " no-bonus"),
          }, S.claim_no_bonus)] : null));
    }));
  }

  function renderNoGame(s) {
    const el = $("over");
    if (s.phase !== "none") return;
    el.hidden = false;
    fill(el, h("p", { class: "headline" }, S.no_game),
      h("a", { class: "big button", href: "/setup", id: "go-setup" }, S.start_game));
  }

  function renderVibrate(s) {
    const sel = $("vibrate");
    const who = vibrateFor();
    const names = s.players.map((p) => p.name);
    const key = names.join("|") + "#" + who;
    if (sel.dataset.key === key) return;
    sel.dataset.key = key;
    fill(sel, h("option", { value: "" }, S.vibrate_nobody),
      names.map((n) => h("option", { value: n, selected: n === who }, n)));
  }

  window.addEventListener("resize", () => { if (K.state && $("topline")) renderTopline(K.state); });

  function renderTable(s, old) {
    renderTopline(s);
    renderStrip(s);
    renderOver(s);
    renderNoGame(s);
    renderQuestion(s);
    renderStop(s);
    renderHeld(s);
    renderDice(s);
    renderRow(s);
    renderVibrate(s);
    buzz(old, s);
    sharedControls(s);
    $("odds-toggle").hidden = !s.advice;
    if (s.advice && $("odds").checked) showAdvice();
  }

  // what every game's table page has: undo, the last action, the typed-action box
  function sharedControls(s) {
    const undo = $("undo");
    undo.disabled = !(K.canAct && s.can_undo);
    fill(undo, icon("undo"), " ", s.last_said ? fmt("undo_last", { last: s.last_said }) : S.undo);
    fill($("last"), s.last_said && s.phase !== "none" ? [h("span", { class: "muted" }, S.last + " "), s.last_said] : []);
    $("action-input").disabled = !K.canAct;
    $("action-form").querySelector("button").disabled = !K.canAct;
  }

  // ---- the scoreboard --------------------------------------------------------------------

  function renderScores(s) {
    renderStats(s);
    const result = $("result");
    if (s.over) {
      const winners = s.scores.filter((x) => x.place === 1);
      result.hidden = false;
      fill(result, h("p", { class: "headline" }, S.game_over),
        h("p", { class: "winner" }, icon("crown"), winners.length > 1
          ? fmt("share_win", { players: list(winners.map((x) => x.player)), points: winners[0].total })
          : fmt("winner", { player: winners[0].player })),
        tieWords(s) ? h("p", { class: "tie" }, tieWords(s)) : null,
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
      const tie = x.tie_break ? (x.shared ? S.tie_shared : fmt("tie_fewer", { points: x.total })) : null;
      return h("article", {
        class: "player-score" + (p.current && !s.over ? " current" : "") + (x.place === 1 ? " first" : ""),
        dataset: { player: x.player },
      },
      h("div", { class: "ps-head" },
        h("span", { class: "place" }, fmt("place", { n: x.place })),
        dot(playerColor(s, x.player)),
        h("span", { class: "ps-name" }, x.player),
        h("span", { class: "ps-total" }, minus(x.total))),
      h("dl", { class: "ps-parts" }, parts.map(([k, v]) => h("div", {}, h("dt", {}, k), h("dd", {}, String(v))))),
      tie && (s.over || x.total !== 0) ? h("p", { class: "tie" }, S.tie_break + ": " + tie) : null,
      h("div", { class: "kingdom" },
        p.kingdom.length ? p.kingdom.map((id, i) => {
          const c = card(id);
          return h("span", {
            class: "kcard k-" + c.kind + " v-" + (c.village || "none") + (i === p.kingdom.length - 1 ? " top" : ""),
          }, c.kind === "dragon" ? icon("dragon") : null, c.kind === "penalty" ? icon("scoundrel") : null,
          c.name + (c.points !== null && c.points !== undefined ? " " + minus(c.points) : ""));
        }) : h("span", { class: "muted" }, S.kingdom_empty)));
    }));
  }

  let statsVersion = -1;
  async function renderStats(s) {
    if (s.version === statsVersion && s.game_id === K.statsGame) return;
    statsVersion = s.version; K.statsGame = s.game_id;
    try {
      const st = await getJSON("/api/stats?lang=" + LANG + "&game=" + encodeURIComponent(s.game || "kotd"));
      if (!st.players.length) { fill($("stats"), h("p", { class: "muted" }, S.no_history)); return; }
      fill($("stats"), h("table", { class: "stats-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, S.player_col), h("th", { scope: "col" }, S.stats_games),
          h("th", { scope: "col" }, S.stats_wins), h("th", { scope: "col" }, S.stats_best))),
        h("tbody", {}, st.players.map((p) => h("tr", { dataset: { player: p.name } },
          h("th", { scope: "row" }, p.name), h("td", {}, p.games), h("td", {}, p.wins),
          h("td", {}, p.best === null ? "–" : minus(p.best)))))));
    } catch (e) { fill($("stats"), h("p", { class: "muted" }, e.message)); }
  }

  // ---- setup -----------------------------------------------------------------------------

  const setup = { names: null, picked: [], colors: {} };
  const PALETTE = ["#e53935", "#1e88e5", "#43a047", "#f9a825", "#8e24aa", "#00897b", "#f4511e", "#6d4c41"];

  function colorOf(i) {
    const name = (setup.names[i] || "").trim();
    return setup.colors[i] || (K.state && name && (K.state.players.find((p) => p.name === name) || {}).color)
      || SEAT_COLORS[i % SEAT_COLORS.length];
  }

  function drawPlayers() {
    fill($("player-list"), setup.names.map((name, i) => h("li", {},
      h("button", {
        class: "small swatch", style: "background:" + colorOf(i), dataset: { swatch: i },
        "aria-label": fmt("color_of", { player: name || fmt("player_n", { n: i + 1 }) }),
        onclick: () => {  // tap: the next colour of the palette
          const now = PALETTE.indexOf(colorOf(i));
          setup.colors[i] = PALETTE[(now + 1) % PALETTE.length];
          drawPlayers();
        },
      }),
      h("input", {
        value: name, maxlength: 20, placeholder: fmt("player_n", { n: i + 1 }), autocomplete: "off",
        "aria-label": fmt("player_n", { n: i + 1 }), dataset: { player: i },
        oninput: (e) => { setup.names[i] = e.target.value; },
      }),
      h("button", { class: "small icon-button", disabled: i === 0, "aria-label": S.up + " " + (i + 1), onclick: () => {
        [setup.names[i - 1], setup.names[i]] = [setup.names[i], setup.names[i - 1]];
        [setup.colors[i - 1], setup.colors[i]] = [colorOf(i), colorOf(i - 1)]; drawPlayers();
      } }, icon("up")),
      h("button", { class: "small icon-button", disabled: i === setup.names.length - 1, "aria-label": S.down + " " + (i + 1), onclick: () => {
        [setup.names[i + 1], setup.names[i]] = [setup.names[i], setup.names[i + 1]];
        [setup.colors[i + 1], setup.colors[i]] = [colorOf(i), colorOf(i + 1)]; drawPlayers();
      } }, icon("down")),
      h("button", { class: "small icon-button", disabled: setup.names.length <= 2, "aria-label": S.remove + " " + (i + 1), onclick: () => {
        setup.names.splice(i, 1); drawPlayers();
      } }, icon("close")))));
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
      const colors = {};
      setup.names.forEach((n, i) => { const name = n.trim().replace(/\s+/g, "-"); if (name) colors[name] = colorOf(i); });
      if (await act("players " + names.join(" "))) {
        setup.picked = [];
        setup.colors = {};
        await fetch("/api/colors?lang=" + LANG, { method: "POST", headers: headers(true), body: JSON.stringify({ colors }) })
          .catch(() => null);
        if (K.state && K.state.game && K.state.game !== "kotd") location.href = "/";  // no row to lay
      }
    });
    for (const b of document.querySelectorAll("#game-choice [data-game]")) {
      b.addEventListener("click", async () => {
        const s = K.state;
        if (s && s.game === b.dataset.game) return;
        if (s && s.phase !== "none" && !s.over && !confirm(S.switch_game_confirm)) return;
        if (await act("game " + b.dataset.game)) K.cards = await getJSON("/api/cards?lang=" + LANG);
      });
    }
    $("picked-clear").addEventListener("click", () => { setup.picked = []; renderSetup(K.state); });
    $("picked-lay").addEventListener("click", async () => {
      if (await act("row " + setup.picked.join(" "))) { setup.picked = []; location.href = "/"; }
    });
  }

  function renderSetup(s) {
    for (const b of document.querySelectorAll("#game-choice [data-game]")) {
      const on = (s.game || "kotd") === b.dataset.game;
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", String(on));
      b.disabled = !K.canAct;
    }
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
          class: "pick-chip", "aria-label": S.remove + " " + card(id).name,
          onclick: () => { setup.picked.splice(i, 1); renderSetup(K.state); },
        }, card(id).name + ": " + (card(id).rule || ""), icon("close")) : "—");
      }));
      $("picked-lay").disabled = !K.canAct || setup.picked.length !== size;
      picker($("picker"), q.choices, (id) => {
        if (setup.picked.length < size) { setup.picked.push(id); renderSetup(K.state); }
      }, { chosen: setup.picked });
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
      h("span", { class: "ev-time muted" }, time(e.at)),
      e.said ? h("span", { class: "ev-said" }, e.said) : h("code", {}, e.action)))
      : [h("li", { class: "muted" }, S.no_history)];
  }

  let historyVersion = -1;
  async function renderHistory(s) {
    if (s.version === historyVersion) return;
    historyVersion = s.version;
    try {
      const [hist, games] = await Promise.all([getJSON("/api/history?lang=" + LANG), getJSON("/api/games?lang=" + LANG)]);
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
        h("ol", { class: "ranking" }, g.view.scores ? g.view.scores.map((x) => h("li", {},
          `${fmt("place", { n: x.place })} ${x.player}: ${minus(x.total)}`))
          : (g.view.places || []).map((x) => h("li", {}, `${fmt("place", { n: x.place })} ${x.player}`))),
        h("ol", { class: "events" }, eventList(g.events)));
      detail.hidden = false;
      detail.scrollIntoView({ behavior: "smooth" });
    } catch (e) { toast(e.message, true); }
  }

  // ---- one render for every page -----------------------------------------------------------

  const RENDER = { table: renderTable, scores: renderScores, setup: renderSetup, history: renderHistory };
  // Other games draw their own table and scoreboard with the page's helpers.
  const GAMES = window.KOTD_GAMES || {};
  const CTX = { $, h, fill, fmt, icon, toast, act, actAlone, post, getJSON, dot, playerColor,
    minus, list, S, K, LANG, shared: sharedControls, stats: renderStats, die, held: renderHeld,
    camera: cameraNodes };
  const INIT = { table: initTable, setup: initSetup };

  function render(s, fromStream) {
    const old = K.state;
    if (fromStream && K.fresh) K.fresh = false;  // a new stream (maybe a restarted server)
    else if (old && s.game_id === old.game_id) {
      // answers to our own actions and the stream race: never step back to an older state,
      // and never draw the same state twice (a button redrawn under a finger loses its tap)
      if (s.version < old.version) return;
      if (s.version === old.version && s.eye.version === old.eye.version) return;
    }
    K.state = s;
    document.body.classList.toggle("can-act", K.canAct);
    document.body.dataset.phase = s.over ? "over" : s.phase;
    document.body.classList.toggle("joining", s.over || s.phase === "none" || s.phase === "setup");
    $("watching").hidden = K.canAct;
    // a stored game the rules could not replay: shown as far as it went, said here
    $("problem").hidden = !s.problem;
    $("problem").textContent = s.problem ? fmt("problem", { why: s.problem }) : "";
    $("qr-button").hidden = !K.canAct;
    renderStorage(s.storage);
    document.body.dataset.game = s.game || "kotd";
    const other = GAMES[s.game];  // another game's page (web/static/<game>.js)
    if (other && other[PAGE]) {
      other[PAGE](s, old, CTX);
      holdButtons();
    } else RENDER[PAGE](s, old);
    wake(s);
  }

  // the game file: a banner on every phone while the game cannot be saved (the card is
  // full or read-only), and a note when the file was kept aside or written again
  function renderStorage(storage) {
    const el = $("storage");
    if (!el) return;
    const problem = storage && !storage.ok;
    el.hidden = !storage || (!problem && !storage.message);
    el.classList.toggle("alarm", !!problem);
    el.textContent = !storage ? "" : problem
      ? fmt("storage_problem", { message: storage.message })
      : fmt("storage_note", { message: storage.message });
  }

  // the Pi's own screen (kotd kiosk opens ?kiosk=1): the join code stays in a corner
  function initKiosk() {
    if (!new URL(location.href).searchParams.has("kiosk")) return;
    document.body.classList.add("kiosk");
    $("join-qr").src = "/qr.svg?token=" + encodeURIComponent(K.token || "");
    $("join").hidden = false;
  }

  async function start() {
    initToken();
    initKiosk();
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
