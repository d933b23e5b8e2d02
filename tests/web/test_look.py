"""The card room's look (issue 29): WCAG AA contrast for every text and card in light and
dark mode, the four-colour deck option, the optional "your turn" sound, the draft card
dealt from the stock and the trick gathered toward its winner."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.keys import Keys

from engine import game_record
from tests.analysis.helpers import CLASSIC, play
from tests.web.browser import DESKTOP, PHONE, Page, ServerThread
from tests.web.contrast import low_contrast
from tests.web.play import act, create, enter, hold_trick_pauses, wait_turn_or_window
from tests.web.test_room import contrast

Facts = dict[str, Any]
RECORD_ID = "WebLookRecord01"


def both_themes(page: Page, where: str, facts: Facts) -> None:
    """Contrast failures of the page as it is, at both sizes, light and dark."""
    for dark in (False, True):
        for size in (DESKTOP, PHONE):
            page.resize(size, dark)
            facts.setdefault("contrast", {})[f"{where}-{size[0]}-{dark}"] = low_contrast(page)
    page.resize(DESKTOP)


CARD_COLOURS = """
return Object.fromEntries([...document.querySelectorAll('.hand [data-card]')].map((e) => {
  const s = getComputedStyle(e); return [e.dataset.card, [s.color, s.backgroundColor]]; }));
"""


@pytest.fixture(scope="module")
def room() -> Iterator[Facts]:
    server = ServerThread()
    page = Page(DESKTOP)
    facts: Facts = {"draft": None, "gather": [], "chimes": []}
    rng = random.Random(2929)
    try:
        settings = {"trickPauseMs": 3000, "autoPlayOne": False, "turnSound": True}
        page.open(server.base)
        page.wait(lambda: page.visible("#name-input"), "the name form")
        both_themes(page, "name", facts)
        enter(page, server.base, "Lena", settings)
        page.wait(lambda: page.visible("#create"), "the lobby")
        both_themes(page, "lobby", facts)
        # the walk sees a faint text when there is one (#999 on white: 2.8 to 1)
        page.js(
            "const p = document.createElement('p'); p.id = 'faint'; p.textContent = 'faint';"
            "p.style.cssText = 'color:#999;background:#fff'; document.body.append(p);"
        )
        facts["faint"] = low_contrast(page)
        page.js("document.querySelector('#faint').remove()")
        hold_trick_pauses(page)
        create(page, bot="easy", private=False)
        page.find("body").click()  # a person's touch: the page may make sound
        pauses = 0
        while True:
            phase = wait_turn_or_window(page)
            if phase == "window":
                page.wait(lambda: page.exists("#hand-window[data-keys=on]"), "the window")
                both_themes(page, "hand-window", facts)
                page.click("#close-hand")
                page.wait(lambda: not page.visible("#hand-window"), "the window closed")
                for overlay in ("s", "o", "?"):
                    page.find("body").send_keys(overlay)
                    page.wait(lambda: page.visible(".window"), "the overlay")
                    both_themes(page, f"overlay-{overlay}", facts)
                    page.find("body").send_keys(Keys.ESCAPE)
                break
            if phase == "draft" and facts["draft"] is None:
                facts["draft"] = page.js(
                    "const c = document.querySelector('.offer .card');"
                    "return {classes: c.className, animation: getComputedStyle(c).animationName,"
                    " stock: !!document.querySelector('.offer .back.stock')};"
                )
                both_themes(page, "draft", facts)
            if phase == "bidding" and "two" not in facts:
                facts["two"] = page.js(CARD_COLOURS)
                both_themes(page, "bidding", facts)
                page.find("body").send_keys("o")
                page.click("#set-four")
                page.find("body").send_keys(Keys.ESCAPE)
                facts["four"] = page.js(CARD_COLOURS)
                both_themes(page, "bidding-four", facts)
                page.driver.refresh()
                page.wait(lambda: page.exists(".hand [data-card]"), "the hand after a reload")
                hold_trick_pauses(page)
                facts["four_kept"] = page.js(CARD_COLOURS)
                page.find("body").click()
                continue
            if phase == "paused":
                pauses += 1
                facts["gather"].append(
                    page.js(
                        "const t = document.querySelector('.trick.finished');"
                        "const c = t.querySelector('.card');"
                        "const s = getComputedStyle(c);"
                        "return {classes: t.className, animation: s.animationName,"
                        " delay: s.animationDelay, winner: !!t.querySelector('.winner'),"
                        " mine: !!t.querySelector('.slot-row:last-child .winner')};"
                    )
                )
                if pauses == 1:
                    both_themes(page, "play", facts)
                if pauses == 2:
                    facts["chimes"] = page.js("return globalThis.spadesChimes")
                page.js("document.querySelector('.board').click()")
                continue
            if phase in ("draft", "blind_nil", "exchange", "bidding", "play"):
                act(page, rng)
        # the replay and the analysis of a stored game
        record = game_record(play(CLASSIC, "web-look", stop=lambda s: bool(s.hand_results)))
        server.call(lambda: server.hub.store.save_record(RECORD_ID, "WEBLOOK1", 1, record))
        page.open(server.base + "#r=" + RECORD_ID)
        page.driver.refresh()
        page.wait(lambda: page.visible("#replay .replay-board"), "the replay")
        for _ in range(40):
            page.find("body").send_keys(Keys.ARROW_RIGHT)
        both_themes(page, "replay", facts)
        page.click('[data-analyse="0"]')
        page.wait(lambda: page.visible(".analysis .costliest [data-decision]"), "analysis", 120)
        page.click(".analysis .costliest [data-decision]")
        page.wait(lambda: page.visible(".decision .knew"), "the decision")
        both_themes(page, "analysis", facts)
        facts["errors"] = page.errors()
        yield facts
    finally:
        page.close()
        server.close()


def test_every_text_and_card_meets_wcag_aa_in_light_and_dark_mode(room: Facts) -> None:
    checked = room["contrast"]
    screens = ["name", "lobby", "draft", "bidding", "bidding-four", "play", "hand-window"]
    screens += ["overlay-s", "overlay-o", "overlay-?", "replay", "analysis"]
    for where in screens:
        for size in (DESKTOP[0], PHONE[0]):
            for dark in (False, True):
                assert f"{where}-{size}-{dark}" in checked
    assert [found["text"] for found in room["faint"]] == ["faint"], room["faint"]
    failing = {key: found for key, found in checked.items() if found}
    assert not failing, failing
    assert not room["errors"]


def test_the_four_colour_deck_paints_clubs_green_and_diamonds_blue(room: Facts) -> None:
    def rgb(text: str) -> tuple[int, ...]:
        return tuple(int(float(n)) for n in text.strip("rgba()").split(",")[:3])

    for card, (colour, background) in room["four"].items():
        red, green, blue = rgb(colour)
        suit = card[-1]
        if suit == "D":
            assert blue > red + 80 and blue > green, (card, colour)
        elif suit == "C":
            assert green > red + 60 and green > blue, (card, colour)
        elif suit == "H":
            assert red > 150 and green < 90, (card, colour)
        else:
            assert max(red, green, blue) < 60, (card, colour)
        assert contrast(colour, background) >= 4.5, (card, colour, background)
        # the two-colour deck had diamonds red and clubs black
        two = rgb(room["two"][card][0])
        if suit == "D":
            assert two[0] > 150 and two[2] < 90
    assert room["four_kept"] == room["four"]  # kept across a reload


def test_the_draft_card_is_dealt_from_the_stock(room: Facts) -> None:
    draft = room["draft"]
    assert draft["stock"], draft
    assert "deal" in draft["classes"].split() and draft["animation"] == "deal", draft


def test_a_finished_trick_is_gathered_toward_its_winner(room: Facts) -> None:
    assert len(room["gather"]) == 13  # every trick of the hand
    for held in room["gather"]:
        classes = held["classes"].split()
        assert "gather-3000" in classes and held["winner"], held
        # toward this seat when its card (the lower row) won, else toward the other's
        toward = "to-me" if held["mine"] else "to-them"
        assert toward in classes, held
        assert held["animation"] == ("gather-me" if toward == "to-me" else "gather-them"), held
        assert held["delay"] != "0s", held  # after the trick was seen, as the pause ends


def test_the_your_turn_sound_chimes_once_per_turn(room: Facts) -> None:
    chimes = room["chimes"]
    assert chimes, "no chime"
    versions = [chime["version"] for chime in chimes]
    assert len(versions) == len(set(versions))  # one per turn, never twice
