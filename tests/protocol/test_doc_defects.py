"""The defects issue 26 found in docs/protocol.md (a stranger wrote a client from it
alone), one test each, so that none comes back: the version it describes, the rules
file it cites, what ``hand_started`` and ``hand_result.entropy`` are, the empty entropy
value in the shuffle key, where a blind-nil exchange's given cards go, and the package
docstrings that named old versions. (That every code example runs to the end of a game
is tests/protocol/test_doc_examples_run.py.)"""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any

import msgpack

import protocol
from engine import CARDS, Exchange, GameState, Phase, RuleSet, Shuffle, shuffled_deck
from engine.actions import BlindNil, Commit, Discard, Keep
from engine.shuffle import RandomStream
from protocol import messages as m
from protocol import schema
from protocol.codec import decode_server
from protocol.shuffle_vectors import SHUFFLE_SEED, WORKED_ENTROPY

DOC = schema.DOC_PATH.read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(\w+)(?: (\w+))?\n(.*?)^```$", re.DOTALL | re.MULTILINE)
CURRENT = f"1.{m.PROTOCOL_MINOR}"


def json_blocks(label: str) -> list[dict[str, Any]]:
    found = BLOCK.findall(DOC)
    return [json.loads(body) for lang, tag, body in found if (lang, tag) == ("json", label)]


def section(heading: str) -> str:
    start = DOC.index(heading)
    level = len(heading.split(" ")[0])  # ends at the next heading of this level or above
    following = re.search(rf"^#{{1,{level}}} ", DOC[start + len(heading) :], re.MULTILINE)
    return DOC[start : start + len(heading) + (following.start() if following else len(DOC))]


def test_the_document_describes_the_current_version_throughout() -> None:
    assert DOC.startswith(f"# The spades2 protocol, version {CURRENT}\n")
    assert f"This document describes **version {CURRENT}**" in DOC
    assert f"**`protocol_minor: {m.PROTOCOL_MINOR}`**" in DOC
    assert "describes **version 1.1**" not in DOC
    # every hello the document shows, in code or as a message, asks for the current version
    said = re.findall(r"protocol_minor\"?: (\d+)", "".join(b for _, _, b in BLOCK.findall(DOC)))
    assert len(said) >= 6 and set(said) == {str(m.PROTOCOL_MINOR)}
    hellos = [b for b in json_blocks("client") if b["type"] == "hello"]
    welcomes = [b for b in json_blocks("server") if b["type"] == "welcome"]
    assert hellos and welcomes
    assert {b["protocol_minor"] for b in hellos + welcomes} == {m.PROTOCOL_MINOR}
    versions = section("## Versions: 1.0, 1.1, 1.2 and 1.3")
    for note in ("- **1.0**", "- **1.1**", "- **1.2**", "- **1.3**", "### Notes for 1.0 clients"):
        assert note in versions + section("### Notes for 1.0 clients")


def test_the_protocol_package_names_the_current_version() -> None:
    assert protocol.__doc__ is not None and m.__doc__ is not None
    assert f"protocol version {CURRENT}" in protocol.__doc__.splitlines()[0]
    assert f"protocol version {CURRENT}" in m.__doc__.splitlines()[0]
    assert f"``protocol_minor: {m.PROTOCOL_MINOR}``" in m.__doc__
    hello = m.Hello.model_fields["protocol_minor"].description or ""
    welcome = m.Welcome.model_fields["protocol_minor"].description or ""
    assert f"{m.PROTOCOL_MINOR} for {CURRENT}" in hello
    assert f"{m.PROTOCOL_MINOR}: {CURRENT}" in welcome


def _slug(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_every_link_inside_the_document_has_a_target() -> None:
    targets = {_slug(h) for h in re.findall(r"^#+ (.*)$", DOC, re.MULTILINE)}
    targets |= set(re.findall(r'<a id="([^"]+)"></a>', DOC))
    links = set(re.findall(r"\]\(#([^)]+)\)", DOC))
    assert len(links) > 30 and not links - targets, sorted(links - targets)


def test_the_rules_are_cited_by_their_real_path() -> None:
    assert "RULES.md" not in DOC
    assert "[`docs/rules.md`](rules.md)" in DOC
    assert (schema.DOC_PATH.parent / "rules.md").is_file()


def test_hand_started_is_not_the_shuffle() -> None:
    described = " ".join((m.HandStartedEvent.__doc__ or "").split())
    assert "was shuffled" not in described and "``shuffled`` event" in described
    reference = section("#### `hand_started`")
    assert "A hand was shuffled" not in reference and "`shuffled` event" in reference
    fair = " ".join(section("## The fair shuffle").split())
    assert "`hand_started` opens the hand, the shuffle is the later `shuffled` event" in fair
    # and in the transcript, hand_started comes first, shuffled after the entropy
    kinds = [e["kind"] for b in json_blocks("server") if b["type"] == "events" for e in b["events"]]
    assert kinds.index("hand_started") < kinds.index("shuffled")


def test_hand_result_entropy_always_has_two_entries() -> None:
    assert "usually none" not in DOC
    described = m.HandResult.model_fields["entropy"].description or ""
    assert "always two entries" in described
    assert "**always two entries**" in section("## The fair shuffle")
    results = [b for b in json_blocks("server") if b["type"] == "hand_result"]
    assert len(results) >= 2  # the field reference's and the transcript's
    for body in results:
        assert len(body["entropy"]) == 2
        decode_server(msgpack.packb(body))


def test_an_empty_entropy_value_still_goes_into_the_key() -> None:
    """The worked example: its bytes are the key's, and leaving "" out is another deck."""
    assert "**An empty value still goes in**" in section("## The fair shuffle")
    region = section("## The fair shuffle")
    rows = re.findall(r"^\| `([0-9a-f]+)` \| (\d+) \|", region, re.MULTILINE)
    assert [int(length) for _, length in rows] == [9, 32, 2, 2, 8]
    data = bytes.fromhex("".join(hex_text for hex_text, _ in rows))
    assert all(len(bytes.fromhex(h)) == int(n) for h, n in rows)
    (listed,) = re.findall(r"- the 53 bytes: `([0-9a-f]+)`", region)
    assert bytes.fromhex(listed) == data
    assert data[9:41] == SHUFFLE_SEED and data[41:43] == b"\x00\x00"
    (key,) = re.findall(r"- `key` = SHA-256 of them: `([0-9a-f]{64})`", region)
    assert hashlib.sha256(data).hexdigest() == key
    assert RandomStream(SHUFFLE_SEED, WORKED_ENTROPY)._key.hex() == key
    stocks = re.findall(r"stock, top card first: `([^`]+)`", region)
    (wrong,) = re.findall(r"and another stock: `([^`]+)`", region)
    right = " ".join(str(CARDS[i]) for i in shuffled_deck(SHUFFLE_SEED, WORKED_ENTROPY))
    assert stocks[2] == right
    assert wrong == " ".join(str(CARDS[i]) for i in shuffled_deck(SHUFFLE_SEED, (b"seat one",)))
    assert wrong != right


class DocumentedStream:
    """The stream exactly as "The algorithm" describes it (steps 1 to 3)."""

    def __init__(self, seed: bytes, entropy: tuple[bytes, ...]) -> None:
        data = b"spades/v1" + seed + b"".join(len(e).to_bytes(2, "big") + e for e in entropy)
        self.key, self.block, self.words = hashlib.sha256(data).digest(), 0, list[int]()

    def below(self, n: int) -> int:
        limit = 2**32 - 2**32 % n
        while True:
            if not self.words:
                digest = hashlib.sha256(self.key + self.block.to_bytes(8, "big")).digest()
                self.block += 1
                self.words = [int.from_bytes(digest[k : k + 4], "big") for k in range(0, 32, 4)]
            word = self.words.pop(0)
            if word < limit:
                return word % n


def exchange_draws(seed: bytes, entropy: tuple[bytes, bytes], rng: random.Random) -> int:
    """Play a five-hundred hand where both seats bid blind nil and give 3 cards each (in
    a random order); check every received card against the documented procedure. Returns
    how many received cards the given cards in the action's order would get wrong."""
    state = GameState(RuleSet.preset("five-hundred"))
    state.apply(None, Commit(seed))
    state.apply(None, Shuffle(entropy))
    stream = DocumentedStream(seed, entropy)
    stock = list(range(52))
    for i in range(51, 0, -1):  # step 4: the shuffle uses the stream first
        j = stream.below(i + 1)
        stock[i], stock[j] = stock[j], stock[i]
    assert stock == state.stocks[-1]
    pile: list[int] = []
    turn = 0
    while state.phase is not Phase.EXCHANGE:
        seat = state.current_player
        assert seat is not None
        if state.phase is Phase.BLIND_NIL:
            state.apply(seat, BlindNil(True))
            continue
        keep = rng.random() < 0.5
        pile.append(stock[2 * turn + 1] if keep else stock[2 * turn])  # step 6
        state.apply(seat, Keep() if keep else Discard())
        turn += 1
    unsorted = list(pile)  # the pile if given cards went in in the action's order
    wrong = 0
    first_drafter = state.first_drafter
    for seat in (first_drafter, 1 - first_drafter):
        assert state.current_player == seat and len(pile) == 26
        given = rng.sample(list(state.view_for(seat).hand), 3)
        draws = [stream.below(len(pile) - k) for k in range(3)]
        received = [pile.pop(k) for k in draws]
        pile.extend(sorted(int(card) for card in given))  # appended, in card order
        state.apply(seat, Exchange(tuple(given)))
        assert sorted(int(c) for c in state.view_for(seat).exchange_received) == sorted(received)
        got = [unsorted.pop(k) for k in draws]
        unsorted.extend(int(card) for card in given)
        wrong += len(set(got) - set(received))
    return wrong


def test_a_blind_nil_exchange_appends_the_given_cards_to_the_pile_in_card_order() -> None:
    fair = section("## The fair shuffle")
    assert "**appended to the end of the pile, in card order**" in fair
    assert "first **draws** `n` cards" in fair and "the first drafter's first" in fair
    rng = random.Random(26)
    wrong = 0
    for n in range(40):
        seed = hashlib.sha256(b"exchange %d" % n).digest()
        wrong += exchange_draws(seed, (bytes([n]) * 32, b""), rng)
    assert wrong > 0  # another placement of the given cards would have been caught


def test_the_document_is_honest_about_the_host_who_plays() -> None:
    """1.2 protected against a server alone, not against a host who plays; 1.3 does, to at
    most two decks by visibly stalling; the first drafter is still the host's choice."""
    flat = " ".join(DOC.split())
    assert "not even the server could choose" not in flat
    assert "not even the server can choose" not in flat
    fair = " ".join(section("## The fair shuffle").split())
    assert "**A host who also plays a seat**" in fair
    assert "**1.2 does not protect against this.**" in fair
    assert "**the first drafter of a game's first hand**" in fair
    heading = "### Version 1.3: commit, then reveal, for seat entropy"
    served = " ".join(section(heading).split())
    assert "planned" not in served.lower()
    for claim in (
        "at most a choice between two decks",
        "**visibly stalling**",
        "**only after** it holds `entropy_commitments`",
        "**The hand goes on without the withheld value**",
        "**Who knows what, when**",
        "**What a 1.3 client must check**",
        "**The colluding host, played.**",
        "2 decks reachable whatever it sends",
    ):
        assert claim in served, claim
    assert "### What a client checks after each hand" in DOC
    assert "**one card per pair**" in section("### What a client checks after each hand")
    # the messages are in the protocol's models now, each with its field reference
    tags = {model.model_fields["type"].default for model in schema.members(m.ClientMessage)}
    assert "entropy_commit" in tags and "`entropy_commit`" in served
    assert "#### `entropy_commit`" in DOC and "#### `entropy_commitments`" in DOC
