"""One hand against the bot in a given language, looked at in every phase at desktop and
phone size: what is cut or overflows, and screenshots (tests/web/artifacts/lang-*.png)."""

from __future__ import annotations

import random
from typing import Any

from selenium.webdriver.common.keys import Keys

from tests.web.browser import DESKTOP, PHONE, Page, ServerThread
from tests.web.play import act, create, enter, hold_trick_pauses, wait_turn_or_window

LANGUAGE_KEY = "spades2.language"  # client/web/i18n.js
CHECKED = "#hand-window .verify:not([data-verified=pending])"

# every shown element that holds words of its own: cut (hidden overflow, an ellipsis),
# scrolling sideways, or reaching past the screen's edges; and the page scrolling sideways
OVERFLOW = """
const problems = [];
const width = document.documentElement.clientWidth;
if (document.documentElement.scrollWidth > width + 1)
  problems.push('the page scrolls sideways: ' + document.documentElement.scrollWidth);
const own = (e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
for (const e of document.querySelectorAll('body *')) {
  if (!own(e) || e.closest('.card, .back, [hidden], script, style, option')) continue;
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || e.offsetParent === null) continue;
  const s = getComputedStyle(e);
  const words = e.textContent.trim().slice(0, 40);
  if (r.left < -1 || r.right > width + 1) problems.push('past the edge: ' + words);
  const clips = ['hidden', 'clip', 'auto', 'scroll'].includes(s.overflowX)
    || s.textOverflow === 'ellipsis';
  if (clips && e.scrollWidth > e.clientWidth + 1) problems.push('cut: ' + words);
}
return problems;
"""


# animations that end (a deal, a card arriving) still running: a busy machine may look
# mid-deal, when the dealt cards are on their way in from past the edge
RUNNING = """
return document.getAnimations().filter((a) => a.playState === 'running'
  && a.effect && a.effect.getTiming().iterations !== Infinity).length;
"""


def look(page: Page, code: str, phase: str, facts: dict[str, Any]) -> None:
    """Note the problems and take screenshots of the page once its animations ended, at
    both sizes."""
    for size in (DESKTOP, PHONE):
        page.resize(size)
        page.wait(lambda: page.js(RUNNING) == 0, "the animations to end")
        facts["problems"][f"{phase}-{size[0]}"] = page.js(OVERFLOW)
        page.screenshot(f"lang-{code}-{phase}-{size[0]}x{size[1]}")
    page.resize(DESKTOP)
    facts["seen"].append(phase)


def play_a_hand_in(server: ServerThread, code: str, name: str) -> dict[str, Any]:
    """Play one hand at desktop size in language ``code``; return what was seen."""
    facts: dict[str, Any] = {"problems": {}, "seen": []}
    rng = random.Random(2828)
    page = Page(DESKTOP)
    try:
        page.open(server.base)
        page.js("localStorage.setItem(arguments[0], arguments[1])", LANGUAGE_KEY, code)
        enter(page, server.base, name, {"trickPauseMs": 1500, "autoPlayOne": False})
        page.wait(lambda: page.visible("#create"), "the lobby")
        facts["lang"] = page.js("return document.documentElement.lang")
        look(page, code, "lobby", facts)
        # the looking sees a cut when there is one: a planted line too long for its box
        page.js(
            "const p = document.createElement('p'); p.id = 'planted'; p.textContent ="
            " 'Παναγιωτόπουλος Παναγιωτόπουλος';"
            " p.style.cssText = 'width:60px;overflow:hidden;white-space:nowrap';"
            " document.querySelector('#lobby').append(p);"
        )
        facts["planted"] = page.js(OVERFLOW)
        page.js("document.querySelector('#planted').remove()")
        hold_trick_pauses(page)
        create(page, bot="easy", private=False)
        while True:
            phase = wait_turn_or_window(page)
            if phase == "window":
                page.wait(lambda: page.exists("#hand-window[data-keys=on]"), "the window")
                page.wait(lambda: page.exists(CHECKED), "the shuffle check")
                look(page, code, "window", facts)
                page.click("#close-hand")
                page.find("body").send_keys("s")
                page.wait(lambda: page.visible(".sheet"), "the score sheet")
                look(page, code, "sheet", facts)
                page.find("body").send_keys(Keys.ESCAPE)
                break
            if phase in ("paused", "draft", "bidding", "play") and phase not in facts["seen"]:
                look(page, code, phase, facts)
            if phase == "paused":
                page.js("document.querySelector('.board').click()")
                continue
            act(page, rng)
        facts["errors"] = page.errors()
    finally:
        page.close()
    return facts
