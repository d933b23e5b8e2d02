"""A journal of finished duplicate pairs, so that a long strength run resumes where it stopped.

A sequential test of whole games against a reference opponent takes several hours on two
cores, longer than one sitting. ``bench/strength.py --journal PATH`` keeps each finished
pair in ``PATH`` (JSON lines) and, when ``PATH`` already holds pairs of the same run, plays
on from the first pair it lacks. The test then reads the journal's pairs as if they had
just been played: pairs are taken in seed order and a pair cut off by the wall-clock cap
is not written, so every pair index is counted once and stopping at a wall biases nothing.

The first line names the run (:func:`run_identity`): the sides, their tweaks and
iterations, the rules, the seed base, the hand cap and a digest of the code that plays
(``engine/`` and ``bench/reference/``, docstrings and comments left out). A journal of
another run, or of the same run played by other code, is refused, since its pairs would
measure something else:

    journal = PairJournal(Path("hard-ismcts.jsonl"), run_identity(...))
    done = journal.load()          # the pairs already played, in pair order
    journal.append(games)          # one finished pair (its two GameResults)

Each hand's bids, tricks, points and bags are kept (the fields ``--log`` writes), so a
journal can be studied as a log can; decision times are not (they are a sitting's own
measurement and would make each line tens of kilobytes), so a resumed run reports the
times of the pairs it played itself.

Raises :class:`JournalError` (a :class:`ValueError`) for a journal of another run, a line
that is not a pair of this run, or a gap in the pair order.
"""

from __future__ import annotations

import ast
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["JournalError", "PairJournal", "code_digest", "run_identity"]

_ROOT = Path(__file__).resolve().parent.parent
_PLAYING_CODE = ("engine", "bench/reference")
"""The folders whose Python decides the games: a change in them ends a journal."""

_KEPT = ("pair", "a_seat", "winner", "capped", "hand_diffs", "scores", "bidding", "hands")
"""The fields of a game result a journal keeps: every figure but the times, and each hand's
bids, tricks, points and bags for study (the ``--log`` line's fields)."""


class JournalError(ValueError):
    """The journal does not belong to this run or is damaged."""


def code_digest(root: Path = _ROOT) -> str:
    """The first 16 hex digits of a SHA-256 over the Python files that decide the games,
    in path order: each file's name and its syntax tree without docstrings, so that a
    comment, a docstring or a reformat leaves the digest as it was. Raises ``OSError`` if
    a file cannot be read and ``SyntaxError`` if one does not parse."""
    digest = hashlib.sha256()
    for folder in _PLAYING_CODE:
        for path in sorted((root / folder).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(_code_only(path.read_text(encoding="utf-8")).encode() + b"\0")
    return digest.hexdigest()[:16]


def _code_only(source: str) -> str:
    """``source``'s syntax tree as text, with every bare string statement left out: the
    docstrings of modules, classes and functions and those under attributes, which do
    nothing when run (and so comments and layout, which the tree never holds)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and any(map(_is_bare_string, body)):
            node.body = [stmt for stmt in body if not _is_bare_string(stmt)] or [ast.Pass()]  # type: ignore[attr-defined]
    return ast.dump(tree, include_attributes=False)


def _is_bare_string(statement: object) -> bool:
    """Whether ``statement`` is a string standing alone as a statement (a docstring)."""
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def run_identity(
    side_a: str,
    side_b: str,
    tweaks: tuple[tuple[str, ...], tuple[str, ...]],
    iterations: tuple[int | None, int | None],
    rules: dict[str, object],
    seed: int,
    max_hands: int,
) -> dict[str, object]:
    """What makes two runs' pairs the same experiment, as a JSON-ready mapping."""
    return {
        "journal": "strength",
        "a": side_a,
        "b": side_b,
        "set_a": list(tweaks[0]),
        "set_b": list(tweaks[1]),
        "iterations": list(iterations),
        "rules": rules,
        "seed": seed,
        "max_hands": max_hands,
        "code": code_digest(),
    }


@dataclass
class PairJournal:
    """The pairs of one run in ``path``; see the module docstring for how to call it."""

    path: Path
    identity: dict[str, object]

    def load(self) -> list[list[dict[str, Any]]]:
        """The pairs already in the journal, each as its two games' kept fields, in pair
        order from pair 0. Writes the identity line when the file is new or empty.
        Raises :class:`JournalError` as the module docstring says."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
        if not text.endswith("\n"):  # new, or a run killed inside a write: drop the broken line
            text = text[: text.rfind("\n") + 1]
            self.path.write_text(text, encoding="utf-8")
        if not text:
            self.path.write_text(json.dumps(self.identity) + "\n", encoding="utf-8")
            return []
        lines = text.splitlines()
        try:
            head = json.loads(lines[0])
        except (json.JSONDecodeError, IndexError) as error:
            raise JournalError(f"{self.path}: the first line is not a run's identity") from error
        if head != json.loads(json.dumps(self.identity)):
            keys = {*head, *self.identity}
            changed = sorted(k for k in keys if head.get(k) != self.identity.get(k))
            raise JournalError(f"{self.path} is another run's journal (differs in {changed})")
        pairs: list[list[dict[str, Any]]] = []
        for number, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            try:
                games = json.loads(line)["games"]
                ok = isinstance(games, list) and len(games) == 2
                ok = ok and all(set(_KEPT) <= set(game) for game in games)
            except (json.JSONDecodeError, KeyError, TypeError):
                ok = False
            if not ok:
                raise JournalError(f"{self.path}:{number}: not a pair of this run")
            if any(game["pair"] != len(pairs) for game in games):
                raise JournalError(f"{self.path}:{number}: pair {len(pairs)} expected here")
            pairs.append(games)
        return pairs

    def append(self, games: list[Any]) -> None:
        """Add one finished pair (its two game results, objects with the kept fields as
        attributes). The line is written whole and flushed, so a run killed between pairs
        leaves a journal that loads."""
        kept = [{name: _plain(getattr(game, name)) for name in _KEPT} for game in games]
        with self.path.open("a", encoding="utf-8") as journal:
            journal.write(json.dumps({"games": kept}) + "\n")
            journal.flush()


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value
