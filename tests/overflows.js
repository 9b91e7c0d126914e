// Run in the page by tests/browserkit.py (overflows): every way text can leave its box, as a list.
(() => {
  const bad = [];
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "") +
    ' "' + (el.textContent || "").trim().slice(0, 30) + '"';
  const shown = (el) => {
    if (el.closest("[hidden], dialog:not([open]), script, style, .visually-hidden, option, select, svg")) return false;
    const cs = getComputedStyle(el);
    return cs.display !== "none" && cs.visibility !== "hidden";
  };
  const vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw + 1)
    bad.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " > " + vw);
  const BOXES = "button, a.button, .slot, .pick, .kind-tile, .chip-player, .player-score, .village, " +
    ".question, .over, .dice-area, .jump, .kcard, td, th, .stop-early, .topline, .result, .tabs a, .lang";
  for (const el of document.querySelectorAll("body *")) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const cs = getComputedStyle(el);
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (text && cs.display !== "inline" && el.scrollWidth > el.clientWidth + 1 &&
        !["auto", "scroll"].includes(cs.overflowX))
      bad.push(name(el) + ": text wider than its box (" + el.scrollWidth + " > " + el.clientWidth + ")");
    const box = el.parentElement && el.parentElement.closest(BOXES);
    if (box && (text || el.matches(BOXES))) {
      const b = box.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1)
        bad.push(name(el) + " sticks out of " + name(box));
    }
    if (cs.position !== "fixed" && r.right > vw + 1) bad.push(name(el) + " runs past the screen's edge");
  }
  // a word is never broken inside itself ("Sum/me", "Scoundre/ls"): each word's letters
  // lie on one line
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement || !shown(node.parentElement)) continue;
    for (const m of node.textContent.matchAll(/[\p{L}\p{N}]{2,}/gu)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((q) => q.width > 0)
        .map((q) => Math.round(q.top)));
      if (tops.size > 1) bad.push(name(node.parentElement) + ': the word "' + m[0] + '" breaks inside itself');
    }
  }
  const LINES = ".village, .card-top, .tl-main, .ps-head, .kind-tile, .pick, .fits, .strip, .chip-player, .over-buttons, .dice";
  for (const line of document.querySelectorAll(LINES)) {
    if (!shown(line)) continue;
    // an inline text is judged line by line (text flows around a floating badge)
    const kids = [...line.children].filter(shown).map((k) => [k, [...k.getClientRects()]]);
    const hit = (ra, rb) => Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 1 &&
      Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 1;
    for (let i = 0; i < kids.length; i++) for (let j = i + 1; j < kids.length; j++) {
      const [a, ras] = kids[i], [b, rbs] = kids[j];
      if (ras.some((ra) => rbs.some((rb) => hit(ra, rb)))) bad.push(name(a) + " overlaps " + name(b));
    }
  }
  return bad;
})
