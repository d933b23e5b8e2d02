"""The browser's account panel in Chromium: register, a rated game against the bot given
up after a move, the profile shows it, the leaderboard lists the established ratings (and
the screenshots of both: tests/web/artifacts/account-*.png)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from server.accounts.passwords import Passwords
from server.store.accounts_rows import RatingRow
from tests.web.browser import DESKTOP, Page, ServerThread
from tests.web.play import act, create, enter, wait_turn_or_window

ESTABLISHED = (("grace", 1702.0, 61.0, 88), ("linus", 1641.0, 74.0, 41), ("ken", 1577.0, 92.0, 23))


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread()
    try:
        yield running
    finally:
        running.close()


def _seed(server: ServerThread) -> None:
    """Three accounts with established classic ratings, one still provisional (each rated
    just now: a rating last updated long ago would be provisional again by its absence)."""

    def seed() -> None:
        hub = server.hub
        hub.accounts.passwords = Passwords(time_cost=1, memory_kib=1024, parallelism=1)
        rows, now = hub.store.accounts, hub.accounts.wall_clock()
        for name, rating, deviation, games in (*ESTABLISHED, ("newbie", 1800.0, 200.0, 2)):
            rows.add_account(f"p-{name}", name, name, "unused", 1.0)
            wins = games * 2 // 3
            rows.put_rating(
                RatingRow(
                    f"p-{name}", "classic", rating, deviation, 0.06, games, wins, games - wins, now
                )
            )
        hub.store.commit()

    server.call(seed)


def test_register_play_rated_then_profile_and_leaderboard(server: ServerThread) -> None:
    _seed(server)
    page = Page(DESKTOP)
    try:
        enter(page, server.base, "ada")
        page.wait(lambda: page.visible("#account-name"), "the account panel")
        page.find("#account-name").send_keys("ada")
        page.find("#account-password").send_keys("short")
        page.click("[data-account='register']")
        page.wait(lambda: "at least 8 characters" in page.find("#account").text, "the refusal")
        page.find("#account-password").send_keys(" and long enough")
        page.click("[data-account='register']")
        page.wait(lambda: "Signed in as ada" in page.find("#account").text, "signed in")
        assert "classic 1500?" in page.find("#account").text
        page.wait(lambda: page.visible("#rated"), "the rated box")
        page.find("#rated").click()
        create(page, bot="easy")
        assert wait_turn_or_window(page) not in ("window", "paused")
        act(page, random.Random(5))
        page.js("window.confirm = () => true")
        page.click("#leave")
        page.wait(lambda: page.visible("[data-account='profile']"), "the lobby")
        page.click("[data-account='profile']")
        page.wait(lambda: page.exists(".games-table"), "the profile")
        profile = page.find("#account").text
        assert "Profile of ada" in profile
        assert "bot (easy)" in profile and "lost" in profile and "rated" in profile
        assert "classic 1500?" not in profile  # the loss moved the rating (the header too)
        page.screenshot("account-profile")
        page.click("[data-account='board']")
        page.wait(lambda: page.exists(".board-table"), "the leaderboard")
        rows = [row.text for row in page.all(".board-table tr")]
        assert [row.split()[1] for row in rows] == [name for name, *_ in ESTABLISHED]
        assert "newbie" not in page.find("#account").text  # provisional: left off
        page.screenshot("account-leaderboard")
        page.click("[data-account='profile']")
        page.wait(lambda: page.exists(".games-table a"), "the profile again")
        page.click(".games-table a")  # a game's date opens its replay and analysis
        page.wait(lambda: page.js("return document.body.dataset.screen") == "replay", "replay")
        page.wait(lambda: "Replay" in page.find("#replay").text, "the game's replay")
        assert not page.errors()
    finally:
        page.close()
