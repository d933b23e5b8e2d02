"""Motion at the card table (issue 29): a card played slides to the trick and a playable
card lifts; a system that asks for reduced motion gets none of it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.browser import DESKTOP, Page, ServerThread

# a played card and a playable card of the hand, drawn with the page's own classes
MOTION = """
const board = document.createElement('div');
board.innerHTML = '<div class="trick"><span class="card face red arrive from-top">Q</span></div>'
  + '<div class="hand playing"><button class="card black legal">A</button></div>';
document.body.append(board);
const played = getComputedStyle(board.querySelector('.arrive'));
const lifted = getComputedStyle(board.querySelector('.legal'));
const result = {animation: played.animationName, duration: played.animationDuration,
                transition: lifted.transitionDuration, lift: lifted.transform};
board.remove();
return result;
"""


@pytest.fixture
def page() -> Iterator[Page]:
    server = ServerThread()
    opened = Page(DESKTOP)
    try:
        opened.open(server.base)
        opened.wait(lambda: opened.visible("#name-input"), "the page")
        yield opened
    finally:
        opened.close()
        server.close()


def reduced_motion(page: Page, on: bool) -> None:
    page.driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-reduced-motion", "value": "reduce" if on else ""}]},
    )


def test_a_played_card_moves_and_reduced_motion_turns_motion_off(page: Page) -> None:
    moving = page.js(MOTION)
    assert moving["animation"] == "arrive-top" and moving["duration"] != "0s", moving
    assert moving["transition"] not in ("0s", "0s, 0s"), moving
    assert moving["lift"] != "none", moving  # the playable card is lifted
    reduced_motion(page, True)
    assert page.js("return matchMedia('(prefers-reduced-motion: reduce)').matches") is True
    still = page.js(MOTION)
    assert still["animation"] == "none", still
    assert set(still["transition"].split(", ")) == {"0s"}, still
    assert still["lift"] != "none", still  # lifted still, only without the motion
    assert not page.errors()


DEAL_AND_GATHER = """
const board = document.createElement('div');
board.innerHTML = '<div class="offer"><span class="card face black suit-S big deal">A</span></div>'
  + '<div class="trick finished gather-1500 to-me">'
  + '<span class="card face red suit-H">Q</span></div>';
document.body.append(board);
const dealt = getComputedStyle(board.querySelector('.deal'));
const gathered = getComputedStyle(board.querySelector('.trick .card'));
const result = {deal: dealt.animationName, gather: gathered.animationName,
                delay: gathered.animationDelay};
board.remove();
return result;
"""


def test_the_deal_and_the_gathered_trick_move_unless_motion_is_reduced(page: Page) -> None:
    moving = page.js(DEAL_AND_GATHER)
    assert moving == {"deal": "deal", "gather": "gather-me", "delay": "1.15s"}, moving
    reduced_motion(page, True)
    still = page.js(DEAL_AND_GATHER)
    assert still["deal"] == "none" and still["gather"] == "none", still
    assert not page.errors()
