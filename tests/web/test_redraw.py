"""The page draws a part again only when its drawing changed: the same state drawn twice
keeps the very elements (focus, the reader's place, a countdown's ticks, a card's motion;
and a test's handle on an element stays good). The table and the window alike."""

from __future__ import annotations

from tests.web.browser import Page, ServerThread
from tests.web.play import create, enter, my_turn

# draw the page once (a card's motion class drops after its first drawing), mark an
# element, draw the page twice more through its own module, and ask whether the marked
# element is still the one in the document
PROBE = """
const done = arguments[arguments.length - 1];
import('/store.js').then((store) => {
  store.render();
  const marked = document.querySelector(arguments[0]);
  store.render();
  store.render();
  done({before: !!marked, still: !!marked && marked.isConnected,
        same: document.querySelector(arguments[0]) === marked});
}, (e) => done('error: ' + e));
"""


def test_the_table_and_its_window_are_not_drawn_again_when_nothing_changed(
    server: ServerThread, page: Page
) -> None:
    enter(page, server.base, "Redraw")
    create(page, bot="easy")
    # the game waits for this seat now: nothing changes until it acts
    page.wait(lambda: my_turn(page) in ("draft", "bidding"), "this seat's turn")
    table = page.driver.execute_async_script(PROBE, "#open-settings")
    assert table == {"before": True, "still": True, "same": True}
    page.find("body").send_keys("s")  # the score sheet window
    page.wait(lambda: page.visible(".sheet"), "the score sheet")
    window = page.driver.execute_async_script(PROBE, ".sheet")
    assert window == {"before": True, "still": True, "same": True}
