"""The table part of the model: the table we sit at or watch, its view kept by the fold,
the pending turn, the hands' results and their shuffle checks, the game's record.

The view changes in two ways only: a ``snapshot`` replaces it (:meth:`Table.take_view`)
and every other table message is folded into it (:meth:`Table.fold`, which is
:func:`client.state.fold`; it raises :class:`~client.state.OutOfStep` when the stream
has a gap, and the model then asks for a snapshot).
"""

from __future__ import annotations

import secrets
import time
from pathlib import Path

from client.i18n import _
from client.state import OutOfStep, fold, fold_events
from engine import Bid, Card, Exchange, Phase, Play, PlayerAction, PlayerView, verify
from engine import HandResult as EngineHandResult
from protocol import messages as m
from protocol.convert import action_from_message, action_message, hand_result_from_message
from protocol.verify import HandCollector, seat_commitment, withheld_seats

__all__ = ["OutOfStep", "Table"]


class Table:
    """One table's state as this client knows it (``info`` is None away from a table)."""

    def __init__(self) -> None:
        self.info: m.TableInfo | None = None
        self.info_time = 0.0
        self.view: PlayerView | None = None
        self.turn: m.YourTurn | None = None
        self.turn_time = 0.0
        self.last_turn: m.YourTurn | None = None
        self.legal: tuple[PlayerAction, ...] = ()
        self.seq: dict[str, int] = {}
        # the server remembers applied seq numbers per seat: a new process that resumes
        # the seat must not reuse them, so numbering starts at the wall clock (ms)
        self.seq_base = int(time.time() * 1000)
        self.pending: m.Act | None = None
        self.results: list[EngineHandResult] = []
        self.verified: dict[int, bool] = {}
        self.commitments: dict[int, str] = {}
        # our seat's entropy per hand (protocol 1.1), and whether each shuffle used it
        self.my_entropy: dict[int, bytes] = {}
        self.entropy_included: dict[int, bool] = {}
        self.minor = m.PROTOCOL_MINOR  # the connection's, from welcome
        # every check of each hand this seat saw whole (protocol/verify.py): the evidence
        # as it came, and what failed (kept: the record of a failed check)
        self.collectors: dict[int, HandCollector] = {}
        self.problems: dict[int, list[str]] = {}
        self.withheld: dict[int, list[int]] = {}  # 1.3: seats that withheld a reveal
        self.relayed: dict[int, m.EntropyCommitments] = {}  # 1.3, by hand
        self.collecting: int | None = None  # the hand whose events are being kept
        self.game_over: m.GameOver | None = None
        self.record_json: str | None = None
        self.saved_record: Path | None = None
        self.seen: set[str] = set()  # tables with a snapshot in this process

    # ---- reading -------------------------------------------------------------------

    @property
    def code(self) -> str | None:
        return self.info.code if self.info else None

    @property
    def my_seat(self) -> int | None:
        return self.view.seat if self.view is not None else None

    @property
    def phase(self) -> Phase | None:
        return self.view.phase if self.view is not None else None

    def is_over(self) -> bool:
        return self.game_over is not None or self.phase is Phase.GAME_OVER

    def legal_cards(self) -> set[Card]:
        return {a.card for a in self.legal if isinstance(a, Play)}

    def bids(self) -> list[int]:
        return sorted(a.tricks for a in self.legal if isinstance(a, Bid))

    def hold_left(self, seat: int, now: float) -> float | None:
        """Seconds left in the hold of a dropped seat, counting down since the update."""
        if self.info is None:
            return None
        left = self.info.seats[seat].hold_seconds_left
        return None if left is None else max(0.0, left - (now - self.info_time))

    def turn_seconds_left(self, now: float) -> float | None:
        """Seconds left on the table's turn timer for the pending turn (None: no timer)."""
        if self.turn is None or self.turn.seconds_left is None:
            return None
        return max(0.0, self.turn.seconds_left - (now - self.turn_time))

    # ---- the server's messages ---------------------------------------------------------

    def set_info(self, info: m.TableInfo, now: float) -> bool:
        """The table's info; True when it is another table than the one held."""
        other = self.info is None or self.info.code != info.code
        self.info = info
        self.info_time = now
        return other

    def take_view(self, view: PlayerView, code: str) -> bool:
        """A snapshot's view; True when this process sees ``code`` for the first time."""
        first = code not in self.seen
        self.seen.add(code)
        self.view = view
        if view.commitment is not None:
            self.commitments.setdefault(view.hand_number, view.commitment)
        self.results = list(view.hand_results)
        for result in self.results:
            self.verify(result)
        if self.turn is not None and (
            self.turn.version < view.version or view.current_player != view.seat
        ):
            self.clear_turn()
        if view.phase is not Phase.GAME_OVER:
            self.game_over = None
        return first

    def fold(self, message: m.Events | m.HandResult | m.YourTurn) -> None:
        """Fold ``message`` into the view. Raises :class:`OutOfStep` (the view is kept
        as it was) when it does not follow."""
        if self.view is not None:
            self.view = fold(self.view, message)
        if isinstance(message, m.Events):
            self.collect(message.events)

    def collect(self, events: tuple[m.EventMessage, ...]) -> None:
        """Keep the evidence of the hand under way for its checks at ``hand_result``
        (``fold`` and ``fold_part`` call it with every event they fold)."""
        for event in events:
            if isinstance(event, m.HandStartedEvent):
                self.collecting = None
                if self.my_seat is not None:
                    fresh = HandCollector(seat=self.my_seat, value="")
                    if event.hand_number in self.relayed:  # came during a trick pause
                        fresh.relayed(self.relayed[event.hand_number])
                    self.collectors[event.hand_number] = fresh
                    self.collecting = event.hand_number
            collector = self.collectors.get(self.collecting or 0)
            if collector is not None:
                collector.add(event)

    def fold_part(self, events: tuple[m.EventMessage, ...]) -> None:
        """Fold the first ``events`` of a frame (its version comes with the rest).
        Raises :class:`OutOfStep` when one cannot apply."""
        if self.view is not None:
            self.view = fold_events(self.view, events)
        self.collect(events)

    def set_turn(self, message: m.YourTurn, now: float) -> None:
        self.turn = message
        self.turn_time = now
        self.legal = tuple(action_from_message(a) for a in message.legal)

    def clear_turn(self) -> None:
        self.turn = None
        self.legal = ()

    def new_game(self) -> None:
        """Hand 1 of a game at this table (a rematch): the last game's results go."""
        self.game_over = None
        self.results = []
        self.verified = {}
        self.my_entropy = {}
        self.collectors = {}
        self.relayed = {}
        self.problems = {}
        self.withheld = {}

    def committed(self, hand_number: int, commitment: str) -> None:
        self.commitments[hand_number] = commitment

    def entropy_for(self, hand_number: int) -> bytes | None:
        """Our entropy for the hand's shuffle, made once; None for a spectator or a hand
        already given one."""
        if self.my_seat is None or hand_number in self.my_entropy:
            return None
        value = self.my_entropy[hand_number] = secrets.token_bytes(32)
        return value

    def entropy_request(self, code: str, hand_number: int) -> m.Entropy | m.EntropyCommit | None:
        """What to send for a new hand's shuffle: on 1.3 our commitment (the value waits
        for ``entropy_commitments``), before 1.3 the value; None when not ours to send."""
        commitment = self.commitments.get(hand_number)
        value = self.entropy_for(hand_number)
        if value is None or self.my_seat is None:
            return None
        if self.minor >= 3 and commitment is not None:
            digest = seat_commitment(commitment, self.my_seat, value)
            return m.EntropyCommit(code=code, hand_number=hand_number, commitment=digest)
        return m.Entropy(code=code, hand_number=hand_number, value=value.hex())

    def reveal(self, message: m.EntropyCommitments) -> m.Entropy | None:
        """1.3: our value, once every commitment is out and ours is among them (None:
        we did not commit, or the server lost our commitment: then this hand is not
        protected by our value, and the check at its end says so)."""
        seat, value = self.my_seat, self.my_entropy.get(message.hand_number)
        self.relayed[message.hand_number] = message
        collector = self.collectors.get(message.hand_number)
        if collector is not None and collector.commitment is not None:
            collector.relayed(message)
        commitment = self.commitments.get(message.hand_number)
        if seat is None or value is None or commitment is None:
            return None
        if message.commitments[seat] != seat_commitment(commitment, seat, value):
            return None
        return m.Entropy(code=message.table, hand_number=message.hand_number, value=value.hex())

    def add_result(self, message: m.HandResult) -> tuple[EngineHandResult, bool]:
        """A hand's result, folded into the view: the result and whether its shuffle
        checks out (every check of protocol/verify.py when this seat saw the hand whole).
        Raises :class:`~protocol.errors.ProtocolError` for a result that cannot be read."""
        result = hand_result_from_message(message)
        self.results = [r for r in self.results if r.hand_number != result.hand_number]
        self.results.append(result)
        ok = self.verify(result)
        collector = self.collectors.pop(result.hand_number, None)
        if collector is not None and self.my_seat is not None:
            mine = self.my_entropy.get(result.hand_number)
            collector.value = "" if mine is None else mine.hex()
            problems = collector.check(message)
            if problems:
                self.problems[result.hand_number] = problems
                ok = self.verified[result.hand_number] = False
                self.entropy_included[result.hand_number] = False
        if message.entropy_commitments:
            self.withheld[result.hand_number] = withheld_seats(
                message.entropy_commitments, message.entropy
            )
        if self.view is not None:
            self.view = fold(self.view, message)
        return result, ok

    def verify(self, result: EngineHandResult) -> bool:
        """The seed against the commitment heard before the hand and our own value: the
        part a hand seen only in a snapshot allows (add_result checks the cards too)."""
        seen = self.commitments.get(result.hand_number, result.commitment)
        ok = seen == result.commitment and verify(result.commitment, result.seed, result.entropy)
        self.verified[result.hand_number] = ok
        seat, mine = self.my_seat, self.my_entropy.get(result.hand_number)
        self.entropy_included[result.hand_number] = (
            ok
            and seat is not None
            and mine is not None
            and len(result.entropy) == 2
            and result.entropy[seat] == mine
        )
        return ok

    def over(self, message: m.GameOver) -> None:
        self.game_over = message
        self.clear_turn()

    def recorded(self, record_json: str, path: Path | None) -> None:
        self.record_json = record_json
        if path is not None:
            self.saved_record = path

    def left(self) -> None:
        self.info = None
        self.view = None
        self.game_over = None
        self.clear_turn()
        self.results = []

    def forget_view(self) -> None:
        """A new session on a reconnection: the table is not ours any more."""
        self.info = None
        self.view = None

    # ---- acting --------------------------------------------------------------------

    def act(self, action: PlayerAction) -> m.Act | str:
        """The ``action`` message for the pending turn, or why it may not be sent."""
        turn, info = self.turn, self.info
        if turn is None or info is None:
            return _("It is not your turn.")
        if isinstance(action, Exchange):
            limit = turn.exchange_max or 0
            held = set(self.view.hand) if self.view is not None else set()
            if len(action.cards) > limit or not set(action.cards) <= held:
                return _("Pick at most {limit} of your cards.").format(limit=limit)
        elif action not in self.legal:
            return _("That is not a legal move now.")
        seq = self.seq.get(info.code, self.seq_base) + 1
        self.seq[info.code] = seq
        act = m.Act(code=info.code, action=action_message(action), version=turn.version, seq=seq)
        self.pending = act
        self.last_turn = turn
        self.clear_turn()
        return act

    def acked(self, seq: int) -> None:
        if self.pending is not None and self.pending.seq == seq:
            self.pending = None

    def refused(self) -> None:
        self.pending = None
