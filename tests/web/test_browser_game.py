"""The web client in headless Chromium: whole hands, a link, resume, illegal cards, privacy.

Each test starts a real server (bot delay 0) and real browser windows; waits are bounded
polls of the page. The server's shuffles are random, so each test plays whatever it is
dealt; the choices the tests make come from fixed seeds.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator

import pytest

from protocol import convert
from protocol import messages as m
from protocol.verify import seat_commitment
from tests.server.helpers import Client, choose
from tests.web.browser import DESKTOP, PHONE, Page, ServerThread, cards_named_in
from tests.web.play import (
    act,
    create,
    enter,
    hand_cards,
    legal_cards,
    my_turn,
    scan,
    wait_turn_or_window,
)


@pytest.fixture
def server() -> Iterator[ServerThread]:
    running = ServerThread()
    try:
        yield running
    finally:
        running.close()


def drop_connections_of(server: ServerThread, player_id: str) -> int:
    """Cut the player's connections without a closing handshake, like a dead network."""
    dropped = 0
    for conn in list(server.hub.conns):
        if conn.player is not None and conn.player.id == player_id:
            conn.ws.transport.abort()
            dropped += 1
    return dropped


def shoot(page: Page, name: str) -> None:
    """Screenshots of the page as it is now, at desktop and at phone size."""
    page.screenshot(f"{name}-1280x800")
    page.resize(PHONE)
    page.screenshot(f"{name}-390x844")
    page.resize(DESKTOP)


def close_hand_window(page: Page) -> None:
    page.click("#close-hand")
    page.wait(lambda: not page.visible("#hand-window"), "the hand window to close")


def test_a_whole_hand_against_the_bot_shows_no_hidden_card(
    server: ServerThread, page: Page
) -> None:
    rng = random.Random(1301)
    enter(page, server.base, "ada")
    code = create(page, bot="easy", private=False)
    phases: list[str] = []
    scans = 0
    shot: set[str] = set()
    labelled = 0
    while True:
        phase = wait_turn_or_window(page)
        if phase == "window":
            break
        scans += scan(page, server, code, 0)
        ready_to_shoot = phase != "play" or page.all(".trick [data-card]")
        if phase in ("draft", "bidding", "play") and phase not in shot and ready_to_shoot:
            shoot(page, phase)
            shot.add(phase)
        if phase == "play":
            # a screen reader hears each card's name, and whether it can be played
            buttons = page.js(
                "return [...document.querySelectorAll('.hand [data-card]')].map((b) =>"
                " [b.dataset.card, b.getAttribute('aria-label') || '', b.hasAttribute('disabled')])"
            )
            for card, label, disabled in buttons:
                assert cards_named_in(label) == {card}, label
                assert ("cannot be played" in label) == disabled
                labelled += 1
        phases.append(act(page, rng, use_keys=len(phases) % 3 == 0))
    # the hand window: scores, and the shuffle checked in this browser
    # read in one go: the window may be drawn again (new elements) between two reads
    verdict = page.wait(
        lambda: page.js(
            "const v = document.querySelector('#hand-window .verify');"
            "return v && v.dataset.verified !== 'pending' ? [v.dataset.verified,"
            " document.querySelector('#hand-window').innerText] : null"
        ),
        "the shuffle check",
    )
    assert verdict[0] == "yes", verdict
    assert "Fair shuffle ✓" in verdict[1]
    # the checks themselves are in the details panel (folded away: read its text content)
    text = page.attr("#hand-window", "textContent")
    assert "bags" in text and "total" in text
    # classic shows the card after a keep: this seat saw 2 stock cards on each of 13 turns
    assert "the 26 cards this seat drew lie where the deck puts them" in text
    # this browser sent its own entropy, and the shuffle used it
    assert "your entropy is in it" in text
    revealed = server.call(
        lambda: convert.view_message(server.hub.tables[code].state.view_for(0)).hand_results
    )
    first = revealed[0]
    assert len(first.entropy[0]) == 64 and first.entropy[1] == ""  # the bot: none
    # protocol 1.3: the page committed first, then revealed the value it had committed to
    value = bytes.fromhex(first.entropy[0])
    committed = server.call(lambda: server.hub.tables[code].play.hand_commitments[1])
    assert committed[0] == seat_commitment(first.commitment, 0, value)
    shoot(page, "hand-window")
    assert phases.count("draft") == 13
    assert phases.count("bidding") == 1
    assert 1 <= phases.count("play") <= 13  # Auto Play One plays forced cards
    assert scans >= 20
    assert {"draft", "bidding"} <= shot
    assert labelled > 0
    # every action this page sent was taken: no error at all (no stale or doubled action)
    assert page.js("return globalThis.spadesErrors") == []
    close_hand_window(page)
    # dark mode: the next hand's draft
    page.resize(PHONE, dark=True)
    page.wait(lambda: my_turn(page) == "draft", "the next draft")
    # nothing of the last hand (log, trick, notices) may stay: scan the new hand's page
    assert page.wait(lambda: scan(page, server, code, 0), "a scan of hand 2")
    assert page.table_data()["hand"] == "2"
    assert page.js("return matchMedia('(prefers-color-scheme: dark)').matches") is True
    page.screenshot("draft-dark-390x844")
    page.resize(DESKTOP, dark=True)
    page.screenshot("draft-dark-1280x800")
    page.resize(DESKTOP)
    # the score sheet has the hand
    page.find("body").send_keys("s")
    page.wait(lambda: "hand" in page.text("#modal"), "the score sheet")
    assert page.all(".sheet tbody tr")
    page.find("body").send_keys("\ue00c")  # Escape


def test_an_illegal_card_cannot_be_played_then_game_over_and_rematch(
    server: ServerThread, page: Page
) -> None:
    rng = random.Random(7)
    enter(page, server.base, "bea")
    code = create(page, bot="easy", target=10, turn_seconds=900)
    rules = server.call(lambda: server.hub.tables[code].rules)
    assert rules.target_score == 10
    page.wait(lambda: page.exists("#turn-timer"), "the turn timer")
    assert 0 < int(page.text("#turn-timer")) <= 900
    tried = False
    while not tried:
        phase = wait_turn_or_window(page)
        assert phase != "window", "no turn with an illegal card in a whole hand"
        if phase == "play":
            legal = legal_cards(page)
            illegal = [card for card in hand_cards(page) if card not in legal]
            if illegal:
                version = page.table_data()["version"]
                before = server.known_cards(code, 0)
                button = page.find(f".hand [data-card='{illegal[0]}']")
                assert button.get_attribute("disabled") is not None
                assert "cannot be played" in (button.get_attribute("aria-label") or "")
                button.click()  # a disabled button: nothing happens
                page.find("body").send_keys(illegal[0].lower())  # typing it is refused
                page.wait(lambda: "cannot be played" in page.text(".board .notice"), "the refusal")
                assert page.table_data()["version"] == version
                assert my_turn(page) == "play"
                assert server.known_cards(code, 0) == before  # the server saw nothing
                assert illegal[0] in hand_cards(page)
                tried = True
                continue
        act(page, rng)
    # play on to the end of the game (10 points), then ask for a rematch
    while not page.visible("#game-over"):
        phase = wait_turn_or_window(page)
        if phase == "window":
            close_hand_window(page)
            page.wait(
                lambda: page.visible("#game-over") or my_turn(page) != "", "game over or a turn"
            )
        elif not page.visible("#game-over"):
            act(page, rng)
    assert "won" in page.text("#game-over").lower()
    page.click("#game-over #rematch")
    page.wait(lambda: not page.visible("#game-over"), "the rematch")
    page.wait(lambda: page.table_data().get("hand") == "1", "hand 1 of the new game")
    assert server.call(lambda: server.hub.tables[code].game_no) == 2


def test_reload_or_a_dropped_network_mid_trick_resumes_the_seat_and_tricks_pause(
    server: ServerThread, page: Page
) -> None:
    rng = random.Random(21)
    # a pause longer than the test: each finished trick stays until it is clicked
    enter(page, server.base, "cy", {"trickPauseMs": 600_000, "autoPlayOne": True})
    code = create(page, bot="")  # a friend's table: then the bot is brought in instead
    page.wait(lambda: "Waiting for an opponent" in page.text(".phase"), "an empty seat")
    page.click("#add-bot")
    page.wait(lambda: "bot" in page.text(".opponent"), "the bot in the other seat")
    player = server.call(lambda: server.hub.tables[code].seats[0].player_id)
    assert player is not None
    pauses = 0
    while True:
        phase = wait_turn_or_window(page)
        assert phase != "window", "no trick led by the bot in a whole hand"
        if phase == "paused":
            trick = page.find("#trick")
            assert len(trick.find_elements("css selector", "[data-card]")) == 2
            assert "won trick" in page.text(".phase")
            assert my_turn(page) == ""  # nothing can be played while the trick shows
            held = page.table_data()["version"]
            trick.click()
            # Auto Play One may answer the next turn at once and its trick pause again: a
            # later version shows the pause ended as surely as "no" does
            page.wait(
                lambda held=held: (
                    page.table_data().get("paused") == "no"
                    or page.table_data().get("version") != held
                ),
                "the pause to end",
            )
            pauses += 1
            continue
        if phase == "play" and len(page.all(".trick [data-card]")) == 1 and pauses:
            break
        act(page, rng)
    hand = hand_cards(page)
    version = page.table_data()["version"]
    page.driver.refresh()
    page.wait(lambda: my_turn(page) == "play", "the seat back after a reload")
    assert page.table_data()["version"] == version
    assert hand_cards(page) == hand
    assert len(page.all(".trick [data-card]")) == 1
    assert server.call(lambda: server.hub.tables[code].seats[0].player_id) == player
    assert page.js("return location.hash") == f"#t={code}"
    # a dropped network (the server's side of the socket dies): back in the seat again
    dropped = server.call(lambda: drop_connections_of(server, player))
    assert dropped == 1
    page.wait(lambda: page.attr("#status", "data-state") == "reconnecting", "the drop")
    page.wait(lambda: page.attr("#status", "data-state") == "open", "the resume")
    page.wait(lambda: my_turn(page) == "play", "the turn after the resume")
    assert hand_cards(page) == hand
    assert server.call(lambda: server.hub.tables[code].seats[0].player_id) == player
    # the same seat opened in a second tab (same storage, same token) takes it over; the
    # first tab says so and does not take it back on its own
    first = page.driver.current_window_handle
    page.driver.switch_to.new_window("tab")
    page.open(f"{server.base}#t={code}")
    page.wait(lambda: my_turn(page) == "play", "the seat in the second tab")
    second = page.driver.current_window_handle
    page.driver.switch_to.window(first)
    page.wait(lambda: page.attr("#status", "data-state") == "replaced", "replaced")
    assert page.visible("#reclaim")
    page.driver.switch_to.window(second)
    assert page.attr("#status", "data-state") == "open"
    page.driver.close()
    page.driver.switch_to.window(first)
    assert my_turn(page) == ""  # nothing to play in a page that lost its seat
    page.click("#reclaim")
    page.wait(lambda: page.attr("#status", "data-state") == "open", "reclaimed")
    page.wait(lambda: my_turn(page) == "play", "the seat back in the first tab")
    # and the game goes on from there
    act(page, rng)


def test_two_browsers_at_one_private_table_through_the_link(server: ServerThread) -> None:
    rng = random.Random(99)
    host, friend, watcher = Page(DESKTOP), Page(PHONE), Page(DESKTOP)
    try:
        enter(host, server.base, "host")
        code = create(host, bot="", private=True)
        link = host.wait(lambda: host.attr("#invite-link", "value"), "the link")
        assert link == f"{server.base}#t={code}"
        enter(friend, link, "friend")
        host.wait(lambda: host.table_data().get("phase") not in (None, "deal"), "the game")
        for page in (host, friend):
            page.wait(lambda p=page: p.table_data().get("hand") == "1", "hand 1")
        assert "friend" in host.text(".opponent") and "host" in friend.text(".opponent")
        # a spectator: by code from the lobby, sees both seats and no hand
        enter(watcher, server.base, "watcher")
        watcher.wait(lambda: watcher.visible("#code-input"), "the lobby")
        watcher.find("#code-input").send_keys(code.lower())
        watcher.click("#watch-code")
        watcher.wait(lambda: watcher.table_data().get("hand") == "1", "the watched table")
        assert "watching" in watcher.text(".topline")
        assert not watcher.all(".hand [data-card]")
        # chat reaches both
        field = friend.find("#chat-input")
        field.send_keys("good luck", "\n")
        host.wait(lambda: "good luck" in host.text(".chat"), "the chat line")
        pages = {0: host, 1: friend}
        tricks = 0
        scans = 0
        while tricks < 2:
            seat = server.call(lambda: server.hub.tables[code].state.current_player)
            if seat is None:
                continue
            page = pages[seat]
            page.wait(lambda p=page: my_turn(p) != "", f"seat {seat}'s turn", 30)
            for other, other_page in pages.items():
                scans += scan(other_page, server, code, other)
            scans += scan(watcher, server, code, None)
            version = server.call(lambda: server.hub.tables[code].state.version)
            act(page, rng)
            # the page lets go of its turn at once; the server's next seat is known only
            # once it has taken the action
            page.wait(
                lambda v=version: server.call(lambda: server.hub.tables[code].state.version) != v,
                "the server to take the action",
            )
            tricks = server.call(lambda: len(server.hub.tables[code].state.view_for(0).tricks))
        assert scans >= 15
        for each in (host, friend, watcher):
            assert each.js("return globalThis.spadesErrors") == []
        shoot(watcher, "spectator")
    finally:
        errors = host.errors() + friend.errors() + watcher.errors()
        host.close()
        friend.close()
        watcher.close()
    assert not errors, errors


def test_a_browser_against_a_terminal_protocol_client(server: ServerThread, page: Page) -> None:
    rng = random.Random(5)
    enter(page, server.base, "web")
    code = create(page, bot="", private=True, preset="five-hundred", target=100)
    rules = server.call(lambda: server.hub.tables[code].rules)
    assert rules.blind_nil and rules.target_score == 100
    outcome: list[m.ServerMessage | BaseException] = []

    def terminal() -> None:
        async def play() -> None:
            # a protocol 1.1 client in msgpack: its entropy for the shuffle, random moves
            client = await Client.hello(server.url, "term")
            await client.request(m.JoinTable(code=code), m.Snapshot)
            choices = random.Random(3)
            while True:
                message = await client.recv(30)
                if isinstance(message, m.Events):
                    for event in message.events:
                        if isinstance(event, m.HandStartedEvent):
                            value = choices.randbytes(32).hex()
                            await client.send(
                                m.Entropy(code=code, hand_number=event.hand_number, value=value)
                            )
                elif isinstance(message, m.YourTurn):
                    action = await choose(client, message, choices)
                    client.seq += 1
                    await client.send(
                        m.Act(code=code, action=action, version=message.version, seq=client.seq)
                    )
                elif isinstance(message, m.HandResult):
                    outcome.append(message)
                    break
                elif isinstance(message, m.ErrorMessage):
                    raise AssertionError(message)
            await client.close()

        try:
            asyncio.run(play())
        except BaseException as error:
            outcome.append(error)

    thread = threading.Thread(target=terminal, daemon=True)
    thread.start()
    page.wait(lambda: "term" in page.text(".opponent"), "the terminal player")
    exchanged: list[str] = []
    counts: tuple[int | None, int | None] | None = None
    scans = 0
    while True:
        phase = wait_turn_or_window(page)
        if phase == "window":
            break
        scans += scan(page, server, code, 0)
        if exchanged and counts is None:
            counts = server.call(lambda: server.hub.tables[code].state.view_for(0).exchange_counts)
        if phase == "blind_nil":
            # declare blind nil (by key), so this seat gets the exchange after the draft
            assert "Blind nil?" in page.text(".phase")
            shoot(page, "blind-nil")
            page.find("body").send_keys("y")
            page.wait(lambda: my_turn(page) != "blind_nil", "the declaration")
        elif phase == "exchange":
            text = page.text(".phase")
            assert "Pick up to 3" in text
            for card in hand_cards(page)[:2]:
                page.click(f".hand [data-card='{card}']")
                page.wait(
                    lambda c=card: "picked" in page.attr(f".hand [data-card='{c}']", "aria-label"),
                    "the pick",
                )
                exchanged.append(card)
            shoot(page, "exchange")
            page.click("#give")
            page.wait(lambda: my_turn(page) != "exchange", "the exchange")
        else:
            act(page, rng)
    assert counts is not None and counts[0] == len(exchanged) == 2
    assert scans >= 15
    thread.join(30)
    assert outcome and isinstance(outcome[0], m.HandResult), outcome
    # the terminal player has gone: its seat is held, and the page counts the hold down
    page.wait(lambda: "seat held" in page.text(".opponent"), "the hold countdown")
    held = int(page.text(".opponent [data-hold]"))
    assert 0 < held <= 60
    result = outcome[0]
    text = page.attr("#hand-window", "textContent")
    assert f"Hand {result.hand_number}" in text
    assert all(len(value) == 64 for value in result.entropy)  # both seats' entropy went in
    assert "your entropy is in it" in text
    assert str(result.scores[0]) in text and str(result.scores[1]) in text
