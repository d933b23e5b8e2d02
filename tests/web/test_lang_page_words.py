"""The page's words that the lang lane finished: the create form's preset menu shows each
preset's summary in the player's language (and again after the language changes), and a
long Greek name in the side score table stays on one line, the table inside its panel,
at desktop and phone sizes. Values are read in one go (Page.js), never from a found
element that the page may draw again."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser import DESKTOP, PHONE, Page, ServerThread
from tests.web.play import create, enter

LANGUAGE_KEY = "spades2.language"  # client/web/i18n.js
LONG_NAME = "Παναγιωτόπουλος"  # 15 letters, one word


def opened(server: ServerThread, size: tuple[int, int], code: str, name: str) -> Page:
    page = Page(size)
    page.open(server.base)
    page.js("localStorage.setItem(arguments[0], arguments[1])", LANGUAGE_KEY, code)
    enter(page, server.base, name)
    page.wait(lambda: page.js("return document.documentElement.lang") == code, f"lang={code}")
    return page


def preset_options(page: Page) -> list[str]:
    script = "return [...document.querySelectorAll('#preset option')].map((o) => o.textContent)"
    found: list[str] = page.js(script)
    return found


def test_the_preset_menu_shows_the_summaries_in_the_language(server: ServerThread) -> None:
    page = opened(server, DESKTOP, "de", "Hanna")
    try:
        page.wait(lambda: len(preset_options(page)) == 2, "the preset menu")
        assert preset_options(page) == ["klassisch (bis 300)", "fünfhundert (bis 500, Blind Nil)"]
        # the language changes: the menu is drawn again in it, the chosen preset kept
        page.js("document.querySelector('#preset').value = 'five-hundred'")
        page.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "import('/i18n.js').then((i18n) => i18n.loadLanguage('ja')).then(done);"
        )
        assert preset_options(page)[0].endswith("(300点先取)")
        assert page.js("return document.querySelector('#preset').value") == "five-hundred"
        assert page.errors() == []
    finally:
        page.close()


def name_cells(page: Page) -> Any:
    """The score table's name cells (height and right edge), its panel's right edge and
    the table's, read in one go."""
    return page.js(
        "const table = document.querySelector('.scores');"
        "if (!table) return null;"
        "const side = table.closest('.side').getBoundingClientRect();"
        "const cells = [...table.querySelectorAll('tbody th')].map((th) => {"
        "  const r = th.getBoundingClientRect(); return [th.textContent, r.height]; });"
        "return { cells, table: table.getBoundingClientRect().right, side: side.right,"
        "  scroll: table.parentElement.scrollWidth - table.parentElement.clientWidth };"
    )


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_long_greek_name_stays_on_one_line(server: ServerThread, size: tuple[int, int]) -> None:
    page = opened(server, size, "el", LONG_NAME)
    try:
        create(page, bot="easy")
        found = page.wait(lambda: name_cells(page), "the score table")
        (mine, mine_height), (other, other_height) = found["cells"]
        assert mine == LONG_NAME and other != LONG_NAME
        # the bot's short name is one line: the long one is as tall, so not broken
        assert abs(mine_height - other_height) < 1, found
        assert found["table"] <= found["side"] + 0.5 and found["scroll"] == 0, found
        assert page.errors() == []
    finally:
        page.close()
