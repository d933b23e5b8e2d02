"""Small fixed-seed matches as regression guards (the full targets live in bench/strength.py).

Duplicate pairs: every seed is played twice with the seats swapped.
"""

from engine import RuleSet
from engine.bot import Bot
from tests.bot.helpers import CLASSIC, play_game

SHORT = CLASSIC.replace(target_score=150)


def match(a: str | None, b: str | None, pairs: int, rules: RuleSet, iterations: int) -> float:
    """A's share of the games (random play for ``None``)."""
    won = 0.0
    for pair in range(pairs):
        for a_seat in (0, 1):
            bot_a = Bot(a, seed=pair, iterations=iterations) if a else None
            bot_b = Bot(b, seed=pair + 500, iterations=iterations) if b else None
            players = [bot_a, bot_b] if a_seat == 0 else [bot_b, bot_a]
            state = play_game(rules, players, seed=1000 + pair, max_hands=25, check_legal=False)
            if state.winner is None:
                won += 0.5
            elif state.winner == a_seat:
                won += 1.0
    return won / (2 * pairs)


def test_easy_beats_random() -> None:
    assert match("easy", None, pairs=15, rules=SHORT, iterations=1) >= 0.9


def test_normal_beats_easy() -> None:
    assert match("normal", "easy", pairs=10, rules=SHORT, iterations=20) >= 0.6
