// Every rendered element with text or a control: its content wider than its box (cut, or
// spilling), or its box outside the viewport; and the page itself wider than the viewport.
// Visually hidden text (.sr, the skip link until focused) is left out: it is meant to be.
// With `names` (the players' full names), every word of them on screen is also checked to sit
// on one line: a name breaks at a space or after a hyphen, never inside a word
// ("Lüdenscheid|t"), by wrapping or by hyphenation. Measured after the next two frames, once
// the page has laid itself out again (a long word is set smaller then, see dom.js fitNames).
async (names) => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const out = [];
  const root = document.documentElement;
  const skipped = '.sr, .skip:not(:focus), svg, .printonly, [hidden]';
  if (root.scrollWidth > root.clientWidth) out.push(`page ${root.scrollWidth} > ${root.clientWidth}`);
  const texty = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
    || ['BUTTON', 'A', 'SELECT', 'INPUT', 'SUMMARY', 'LEGEND', 'LABEL', 'TD', 'TH', 'OUTPUT'].includes(el.tagName);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest(skipped) || !el.getClientRects().length) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.position === 'fixed') continue;
    if (!texty(el)) continue;
    const r = el.getBoundingClientRect();
    const what = `${el.tagName.toLowerCase()}.${el.className} "${(el.textContent || el.value || '').trim().slice(0, 40)}"`;
    if (r.right > root.clientWidth + 0.5 || r.left < -0.5) out.push(`sticks out ${Math.round(r.left)}..${Math.round(r.right)}: ${what}`);
    if (el.tagName !== 'INPUT' && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
      out.push(`cut ${el.scrollWidth} > ${el.clientWidth}: ${what}`);
    }
  }
  // "Hohenzollern-Lüdenscheidt" → "Hohenzollern-", "Lüdenscheidt": the pieces that must not break.
  const words = [...new Set((names || []).flatMap((n) => n.split(/\s+/)).flatMap((w) => w.match(/[^-]+-?/g) || []))]
    .filter((w) => w.length > 2);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(skipped) || !el.getClientRects().length) continue;
    for (const word of words) {
      for (let at = node.data.indexOf(word); at >= 0; at = node.data.indexOf(word, at + 1)) {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + word.length);
        const lines = new Set([...range.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.bottom)));
        if (lines.size > 1) out.push(`name broken inside "${word}": ${el.tagName.toLowerCase()}.${el.className} "${node.data.trim().slice(0, 40)}"`);
      }
    }
  }
  return out;
}
