"""The seats' part in one hand's shuffle: values (protocol 1.1), or a commitment first and
the value after every commitment is out (1.3).

    hand = HandEntropy(commitment_hex, expected=[0, 1], committing=True)
    hand.commit(seat, digest_hex)       # 1.3 entropy_commit; raises RequestError
    hand.value(seat, value, minor)      # entropy: a 1.1/1.2 value or a 1.3 reveal
    hand.waiting()                      # a seat the current stage still waits for?
    commitments = hand.relay()          # the commit stage ends: what every seat sees
    values, withheld = hand.outcome()   # what goes into the shuffle, who withheld

A hand is *committing* when a seat the server waits for speaks 1.3. Then the stages are
``commit`` (each waited-for seat commits; a 1.1/1.2 seat's value counts as revealed at
once and its hash as its commitment), then ``reveal`` (each seat that committed sends its
value, checked against the commitment). A value that does not match is refused and the
seat counts as having withheld it. Otherwise the one stage is ``values``, as in 1.1.
"""

from __future__ import annotations

from typing import Literal

from protocol import messages as m
from protocol.verify import seat_commitment
from server.errors import RequestError

__all__ = ["HandEntropy", "Stage", "with_withheld"]

Stage = Literal["values", "commit", "reveal"]


class HandEntropy:
    """One hand's entropy step (see the module)."""

    def __init__(
        self, commitment: str, expected: list[int], committing: bool, hand_number: int = 0
    ) -> None:
        self.commitment = commitment  # hand_started's, hex: inside every seat commitment
        self.hand_number = hand_number
        self.expected = expected
        self.stage: Stage = "commit" if committing else "values"
        self.values: list[bytes | None] = [None, None]
        self.commits: list[str | None] = [None, None]
        self.mismatched = [False, False]

    @property
    def committing(self) -> bool:
        return self.stage != "values"

    def commit(self, seat: int, digest: str) -> None:
        """A 1.3 seat's commitment. Raises ``RequestError`` (``illegal_action``) outside
        the commit stage or on a second one."""
        if self.stage != "commit":
            raise RequestError(
                "illegal_action",
                "entropy_commit is taken between hand_started and entropy_commitments",
            )
        if self.commits[seat] is not None:
            raise RequestError("illegal_action", "your commitment for this hand is already in")
        self.commits[seat] = digest

    def value(self, seat: int, value: bytes, minor: int) -> str | None:
        """A seat's value; returns the refusal to send *after* the step moved on (a reveal
        that does not match its commitment: the seat withheld it), None when accepted.
        Raises ``RequestError`` when the value is refused and nothing changed."""
        if self.values[seat] is not None or self.mismatched[seat]:
            raise RequestError("illegal_action", "your entropy for this hand is already in")
        if self.stage == "reveal":
            committed = self.commits[seat]
            if committed is None:
                raise RequestError(
                    "illegal_action",
                    "the commitments are out: only a seat that committed may reveal now",
                )
            if seat_commitment(self.commitment, seat, value) != committed:
                self.mismatched[seat] = True
                return "this value does not match your commitment: it counts as withheld"
            self.values[seat] = value
            return None
        if self.stage == "commit":
            if self.commits[seat] is not None:
                raise RequestError(
                    "illegal_action", "reveal your value only after entropy_commitments"
                )
            # a 1.1/1.2 seat (or a 1.3 seat that skips the commitment): its value is
            # fixed now, and its hash is relayed as its commitment
            self.commits[seat] = seat_commitment(self.commitment, seat, value)
        self.values[seat] = value
        return None

    def waiting(self) -> bool:
        """Whether a seat the current stage waits for has not answered yet."""
        if self.stage == "commit":
            return any(self.commits[seat] is None for seat in self.expected)
        if self.stage == "reveal":
            return any(
                self.commits[seat] is not None
                and self.values[seat] is None
                and not self.mismatched[seat]
                for seat in (0, 1)
            )
        return any(self.values[seat] is None for seat in self.expected)

    def relay(self) -> None:
        """End the commit stage: the commitments go out (:meth:`message`)."""
        self.stage = "reveal"

    def message(self, code: str, reveal_seconds: float) -> m.EntropyCommitments:
        """The relayed commitments, as every seat and spectator gets them."""
        return m.EntropyCommitments(
            table=code,
            hand_number=self.hand_number,
            commitments=(self.commits[0], self.commits[1]),
            reveal_seconds=reveal_seconds,
        )

    def outcome(self) -> tuple[tuple[bytes, bytes], tuple[bool, bool]]:
        """The two values for the shuffle (b"" for none) and which seats withheld theirs
        (committed, then no matching value in time)."""
        values = (self.values[0] or b"", self.values[1] or b"")
        withheld = (
            self.committing and self.commits[0] is not None and self.values[0] is None,
            self.committing and self.commits[1] is not None and self.values[1] is None,
        )
        return values, withheld

    def recorded_commitments(self) -> tuple[str, ...]:
        """``hand_result.entropy_commitments``: two entries, or none without a commit step
        (or when no seat committed: then the hand is as a 1.2 one)."""
        if not self.committing or not any(self.commits):
            return ()
        return tuple(c or "" for c in self.commits)


def with_withheld(
    events: tuple[m.EventMessage, ...], withheld: tuple[bool, bool]
) -> tuple[m.EventMessage, ...]:
    """The events, with ``withheld`` in a ``shuffled`` event (the engine does not know who
    committed: that is the server's part of the step)."""
    if not any(withheld):
        return events
    return tuple(
        e.model_copy(update={"withheld": withheld}) if isinstance(e, m.ShuffledEvent) else e
        for e in events
    )
