// Every rendered element with text or a control: its content wider than its box (cut, or
// spilling), or its box outside the viewport; and the page itself wider than the viewport.
// Visually hidden text (.sr, the skip link until focused) is left out: it is meant to be.
() => {
  const out = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) out.push(`page ${root.scrollWidth} > ${root.clientWidth}`);
  const texty = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
    || ['BUTTON', 'A', 'SELECT', 'INPUT', 'SUMMARY', 'LEGEND', 'LABEL', 'TD', 'TH', 'OUTPUT'].includes(el.tagName);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.sr, .skip:not(:focus), svg, .printonly, [hidden]') || !el.getClientRects().length) continue;
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
  return out;
}
