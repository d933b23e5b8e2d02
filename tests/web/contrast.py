"""WCAG contrast of what a page draws: every piece of visible text against the colour
behind it, as the browser computes both (CSS variables, dark mode and opacity resolved).

    failures = low_contrast(page)   # [] when every text meets WCAG AA
"""

from __future__ import annotations

from typing import Any

from tests.web.browser import Page

# Every visible element with text of its own (or a form control), its text colour blended
# by its opacity over its background, the background composed from the root down. A
# disabled control is left out (WCAG exempts inactive controls). AA: 4.5, 3 for large text.
WALK = """
const parse = (text) => { const n = (text.match(/[\\d.]+/g) || ['0','0','0']).map(Number);
  return {r: n[0], g: n[1], b: n[2], a: n.length > 3 ? n[3] : 1}; };
const over = (top, below, alpha) => ({r: top.r * alpha + below.r * (1 - alpha),
  g: top.g * alpha + below.g * (1 - alpha), b: top.b * alpha + below.b * (1 - alpha)});
const lum = (c) => { const f = (v) => { v /= 255;
  return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
const ratio = (a, b) => { const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05); };
const out = [];
for (const el of document.querySelectorAll('body *')) {
  const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const control = el.matches('input:not([type=checkbox]):not([type=file]), select, button');
  if (!own && !control) continue;
  if (el.closest('[disabled], [hidden], .back, script, style')) continue;
  const box = el.getBoundingClientRect();
  if (box.width < 1 || box.height < 1) continue;
  const style = getComputedStyle(el);
  if (style.visibility === 'hidden') continue;
  const chain = []; for (let e = el; e; e = e.parentElement) chain.unshift(e);
  let bg = {r: 255, g: 255, b: 255}; let opacity = 1;
  for (const e of chain) { const s = getComputedStyle(e); const c = parse(s.backgroundColor);
    if (c.a > 0) bg = over(c, bg, c.a); opacity *= Number(s.opacity); }
  if (opacity < 0.05) continue;  // faded out on purpose (a trick gathered away)
  const ink = parse(style.color);
  const seen = over(ink, bg, ink.a * opacity);
  const size = parseFloat(style.fontSize); const bold = Number(style.fontWeight) >= 700;
  const need = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
  const r = ratio(seen, bg);
  if (r < need) out.push({text: (el.textContent || el.value || '').trim().slice(0, 40),
    tag: el.tagName, cls: el.className, color: style.color, background: bg, ratio: r, need});
}
return out;
"""


def low_contrast(page: Page) -> list[dict[str, Any]]:
    """The texts of the page that fall below WCAG AA (an empty list when none does)."""
    # motion would catch a card half-way through a fade: let every animation finish
    page.js("document.getAnimations().forEach((a) => { try { a.finish(); } catch (e) {} })")
    found: list[dict[str, Any]] = page.js(WALK)
    return found
