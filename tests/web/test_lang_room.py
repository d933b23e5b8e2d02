"""Issue 28 in the browser: a whole hand in Japanese and in Greek (a long Greek name, a
Japanese one), each phase looked at 1280x800 and 390x844: nothing cut, nothing past the
screen's edge, no sideways scroll; screenshots in tests/web/artifacts/lang-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser import ServerThread
from tests.web.lang_room import play_a_hand_in

NAMES = {"ja": "長谷川さくらこ", "el": "Παναγιωτόπουλος"}
PHASES = ["lobby", "draft", "bidding", "play", "paused", "window", "sheet"]


@pytest.fixture(scope="module")
def hands(server: ServerThread) -> dict[str, dict[str, Any]]:
    return {code: play_a_hand_in(server, code, name) for code, name in NAMES.items()}


@pytest.mark.parametrize("code", sorted(NAMES))
def test_every_phase_is_drawn_in_the_language(hands: dict[str, Any], code: str) -> None:
    facts = hands[code]
    assert facts["lang"] == code
    assert sorted(facts["seen"]) == sorted(PHASES), facts["seen"]
    assert facts["errors"] == []


@pytest.mark.parametrize("code", sorted(NAMES))
def test_nothing_is_cut_or_past_the_edge_at_desktop_and_phone_size(
    hands: dict[str, Any], code: str
) -> None:
    problems = {where: found for where, found in hands[code]["problems"].items() if found}
    assert len(hands[code]["problems"]) == 2 * len(PHASES)
    assert problems == {}, problems


def test_the_look_finds_a_line_cut_by_its_box(hands: dict[str, Any]) -> None:
    for facts in hands.values():
        assert facts["planted"] == ["cut: Παναγιωτόπουλος Παναγιωτόπουλος"], facts["planted"]
