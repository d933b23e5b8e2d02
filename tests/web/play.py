"""Playing the web client the way a person does: name, lobby, table, one turn at a time."""

from __future__ import annotations

import random
from typing import Any

from selenium.webdriver.common.keys import Keys

from tests.web.browser import ARTIFACTS, Page, ServerThread, cards_named_in

NO_PAUSE = {"trickPauseMs": 0, "autoPlayOne": True}


def enter(page: Page, url: str, name: str, settings: dict[str, Any] | None = None) -> None:
    """Open ``url`` in a fresh profile, store the settings, give a name and press Play."""
    page.open(url)
    page.wait(lambda: page.visible("#name-input"), "the name form")
    page.js(
        "localStorage.setItem('spades2.settings', JSON.stringify(arguments[0]))",
        settings if settings is not None else NO_PAUSE,
    )
    page.driver.refresh()  # the page reads its settings when it loads
    page.wait(lambda: page.visible("#name-input"), "the name form")
    field = page.find("#name-input")
    field.clear()
    field.send_keys(name)
    page.click("#name-form button")


# the page's clock no longer ends a trick's pause (its timer, endPause, is set for 10
# minutes; the setting and what it draws stay as they are): each pause then ends by the
# test's click or key, however slow the machine
HOLD_PAUSES = """
if (!window.spadesPausesHeld) {
  const clock = window.setTimeout.bind(window);
  window.setTimeout = (callback, ms, ...rest) =>
    clock(callback, callback && callback.name === 'endPause' ? 600000 : ms, ...rest);
  window.spadesPausesHeld = true;
}
"""


def hold_trick_pauses(page: Page) -> None:
    """Let no trick's pause end by itself in this page (until it is loaded again)."""
    page.js(HOLD_PAUSES)


def choose(page: Page, selector: str, value: str) -> None:
    """Pick ``value`` in a <select> as a person would (the change event fires)."""
    page.js(
        "const s = document.querySelector(arguments[0]); s.value = arguments[1];"
        "s.dispatchEvent(new Event('change', {bubbles: true}));",
        selector,
        value,
    )


def create(
    page: Page,
    bot: str = "",
    private: bool = True,
    preset: str = "classic",
    target: int = 0,
    turn_seconds: int = 0,
) -> str:
    """Fill in the lobby's create form and create the table; returns its code."""
    page.wait(lambda: page.visible("#create"), "the lobby")
    choose(page, "#preset", preset)
    choose(page, "#bot-level", bot)
    box = page.find("#private")
    if box.is_selected() != private:
        box.click()
    if target or turn_seconds:
        page.find("details summary").click()
    if target:
        field = page.find("#rule-target_score")
        field.clear()
        field.send_keys(str(target))
    if turn_seconds:
        page.find("#turn-seconds").send_keys(str(turn_seconds))
    page.click("#create")
    page.wait(lambda: page.table_data().get("version") is not None, "the table")
    code: str = page.js("return document.querySelector('#table .code').textContent")
    return code


def my_turn(page: Page) -> str:
    return page.table_data().get("myTurn", "")


def hand_window_open(page: Page) -> bool:
    return page.visible("#hand-window")


def wait_turn_or_window(page: Page, timeout: float = 30.0) -> str:
    """Wait until this page may act (returns the phase), the hand window shows ("window"), or
    the page holds a finished trick on screen ("paused")."""

    def ready() -> str:
        # one read of the page: separate reads could see the turn of the next hand
        # without the window that opened in between
        phase: str = page.js(
            "const w = document.querySelector('#hand-window');"
            "if (w && w.offsetParent !== null) return 'window';"
            "const t = document.querySelector('#table');"
            "if (!t) return '';"
            "return t.dataset.paused === 'yes' ? 'paused' : (t.dataset.myTurn || '');"
        )
        return phase

    return page.wait(ready, "my turn or the hand window", timeout)


def hand_cards(page: Page) -> list[str]:
    return list(
        page.js(
            "return [...document.querySelectorAll('.hand [data-card]')].map(e => e.dataset.card)"
        )
    )


def legal_cards(page: Page) -> list[str]:
    return list(
        page.js(
            "return [...document.querySelectorAll('.hand .card.legal:not([disabled])')]"
            ".map(e => e.dataset.card)"
        )
    )


def act(page: Page, rng: random.Random, use_keys: bool = False) -> str:
    """Take this page's turn (it must be its turn) by click or by keyboard; returns the phase."""
    phase = my_turn(page)
    version = page.table_data()["version"]
    body = page.find("body")
    if phase == "draft":
        choice = rng.choice(["keep", "discard"])
        if use_keys:
            body.send_keys(choice[0])
        else:
            page.click(f"[data-draft={choice}]")
    elif phase == "blind_nil":
        page.click("[data-blind=no]")
    elif phase == "exchange":
        page.click("#give")
    elif phase == "bidding":
        bids = page.js(
            "return [...document.querySelectorAll('[data-bid]')].map(e => e.dataset.bid)"
        )
        bid = rng.choice([b for b in bids if b != "0"] or bids)
        if use_keys:
            body.send_keys(bid, Keys.ENTER)
        else:
            page.click(f"[data-bid='{bid}']")
    elif phase == "play":
        card = rng.choice(legal_cards(page))
        if use_keys:
            body.send_keys(card.lower())
        else:
            page.click(f".hand [data-card='{card}']")
    else:
        raise AssertionError(f"not my turn: {phase!r}")
    # the click is handled at once: the turn is gone from the page before any reply
    page.wait(
        lambda: my_turn(page) == "" or page.table_data()["version"] != version,
        f"the {phase} action to be taken",
    )
    return phase


def scan(page: Page, server: ServerThread, code: str, seat: int | None) -> bool:
    """Check that the page and its storage name no card this seat may not know.

    The check needs the page and the server at the same moment: it runs only when the
    page shows the server's current version (True), else it is skipped (False).
    """
    version, known = server.known_cards(code, seat)
    if page.table_data().get("version") != str(version):
        return False
    text = page.html_and_storage()
    if server.known_cards(code, seat)[0] != version:
        return False
    leaked = cards_named_in(text) - known
    if leaked:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / f"leak-seat{seat}.html").write_text(text)
    where = [text[max(0, text.find(card) - 200) : text.find(card) + 50] for card in leaked]
    assert not leaked, f"seat {seat} may not know {sorted(leaked)} (version {version}): {where}"
    return True
