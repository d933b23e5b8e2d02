"""One page on its own: its SHA-256 and deck agree with engine.shuffle; a refused name;
the lobby's list of open tables."""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine.cards import Card
from engine.shuffle import commitment_of, shuffled_deck
from protocol import messages as m
from tests.server.helpers import Client
from tests.web.browser import DESKTOP, Page, ServerThread


@pytest.fixture(scope="module")
def page(server: ServerThread) -> Iterator[Page]:
    opened = Page(DESKTOP)
    try:
        opened.open(server.base)
        opened.wait(lambda: opened.visible("#name-input"), "the page")
        yield opened
    finally:
        errors = opened.errors()
        opened.close()
        assert not errors, errors


def run_module(page: Page, body: str, *args: Any) -> Any:
    """Run ``body`` (an async function body with the page's modules imported) in the page."""
    script = (
        "const done = arguments[arguments.length - 1];"
        "const args = Array.from(arguments).slice(0, -1);"
        "Promise.all([import('/sha256.js'), import('/shuffle.js'), import('/cards.js')])"
        ".then(async ([sha, shuffle, cards]) => {" + body + "})"
        ".then(done, (e) => done('error: ' + e));"
    )
    return page.driver.execute_async_script(script, *args)


def test_sha256_in_the_page_matches_hashlib(page: Page) -> None:
    rng = random.Random(256)
    inputs = [
        bytes(rng.getrandbits(8) for _ in range(n))
        for n in (0, 1, 55, 56, 63, 64, 65, 119, 120, 1000)
    ]
    got = run_module(
        page,
        "return args[0].map((hex) => [sha.bytesToHex(sha.sha256Plain(sha.hexToBytes(hex)))]);",
        [data.hex() for data in inputs],
    )
    assert [row[0] for row in got] == [hashlib.sha256(data).hexdigest() for data in inputs]
    # served from 127.0.0.1 the page is a secure context: Web Crypto is the one in use
    assert run_module(page, "return sha.hasWebCrypto();") is True


@pytest.mark.parametrize("entropy", [[], [b"\x01\x02\x03", b"seat one"]], ids=["plain", "entropy"])
def test_deck_in_the_page_matches_the_engine(page: Page, entropy: list[bytes]) -> None:
    rng = random.Random(52)
    for _ in range(3):
        seed = bytes(rng.getrandbits(8) for _ in range(32))
        got = run_module(
            page,
            "return [await shuffle.deckFromSeed(args[0], args[1]),"
            " await shuffle.commitmentOf(args[0])];",
            seed.hex(),
            [e.hex() for e in entropy],
        )
        assert got == [shuffled_deck(seed, entropy), commitment_of(seed)]


def test_the_hand_check_catches_a_bad_seed_commitment_or_card(page: Page) -> None:
    seed = bytes(range(32))
    deck = [str(Card(i)) for i in shuffled_deck(seed)]
    result = {"seed": seed.hex(), "commitment": commitment_of(seed), "entropy": []}
    body = (
        "const [result, seen] = args;"
        "const ok = await shuffle.checkHand(result, result.commitment, seen);"
        "const otherCommit = await shuffle.checkHand(result, '00'.repeat(32), seen);"
        "const forged = {...result, seed: 'ff' + result.seed.slice(2)};"
        "const badSeed = await shuffle.checkHand(forged, null, seen);"
        "const moved = await shuffle.checkHand(result, null, [{card: seen[0].card, position: 5}]);"
        "return [ok.ok, otherCommit.ok, badSeed.ok, moved.ok, cards.cardOf(0), cards.cardOf(51)];"
    )
    stock = run_module(
        page, "return (await shuffle.deckFromSeed(args[0])).map(cards.cardOf);", seed.hex()
    )
    assert stock == deck and stock[:2] == ["6S", "QC"]  # the docs' test vector, top first
    seen = [{"card": stock[0], "position": 0}, {"card": stock[3], "position": 3}]
    assert run_module(page, body, result, seen) == [True, False, False, False, "2C", "AS"]


def test_a_refused_name_asks_for_another(page: Page) -> None:
    # this module's page still shows the name form; the server refuses a control character
    page.js(
        "const field = document.querySelector('#name-input'); field.value = 'bad\\u0007name';"
        "document.querySelector('#name-form').requestSubmit();"
    )
    page.wait(lambda: page.text("#name-notice") != "", "the refusal")
    assert page.visible("#name-input") and not page.visible("#lobby")
    assert page.js("return localStorage.getItem('spades2.name')") is None
    field = page.find("#name-input")
    field.clear()
    field.send_keys("good name")
    page.click("#name-form button")
    page.wait(lambda: page.visible("#create"), "the lobby")
    assert page.text("#status") == "online as good name"


def test_the_lobby_lists_an_open_table_and_joins_it(server: ServerThread, page: Page) -> None:
    async def open_table() -> str:
        # someone in a terminal opens a public table and waits for a second player
        client = await Client.hello(server.url, "waiting")
        snap = await client.request(m.CreateTable(preset="classic"), m.Snapshot)
        clients.append(client)
        return snap.table.code

    clients: list[Client] = []
    code = asyncio.run_coroutine_threadsafe(open_table(), server.loop).result(20)
    # a remembered name goes straight to the lobby (set here: with pytest-xdist this test
    # may run in a module instance of its own, without the name test before it)
    page.js("localStorage.setItem('spades2.name', 'good name')")
    page.open(server.base)
    page.wait(lambda: page.visible("#create"), "the lobby")
    page.wait(lambda: page.js("return globalThis.spadesTrace.length") > 0, "the welcome")
    page.click("#refresh")
    row = f"[data-join='{code}']"
    page.wait(lambda: page.exists(row), "the open table in the list")
    assert "waiting" in page.text("#table-list")
    page.click(row)
    page.wait(lambda: page.table_data().get("hand") == "1", "the game at the joined table")
    # read in one go: the table may be drawn again (new elements) between two reads
    opponent = "const o = document.querySelector('.opponent'); return o ? o.innerText : ''"
    page.wait(lambda: "waiting" in page.js(opponent), "the opponent's name")
    assert server.call(lambda: server.hub.tables[code].seats[1].name) == "good name"
