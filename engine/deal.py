"""Chance's part: a hand opens on a seed and its stock is drawn by the shuffle.

A hand opens (:func:`open_hand`, event ``HandStarted`` with the seed's commitment) and its
stock is drawn by :func:`shuffle_stock` and laid out (:func:`lay_stock`, event
``Shuffled``); a one-step Deal does both at once, a Commit then a Shuffle lets the seats'
entropy come in between. The first hand's first drafter is drawn from the seed; after it
the seats take turns. :func:`shuffle_stock` and :func:`first_drafter_of` raise
:class:`~engine.errors.ShuffleError` for a seed or entropy the stream refuses; the others
do not raise.
"""

from __future__ import annotations

from engine.events import Event, HandStarted, Shuffled
from engine.hand import HandState, Phase
from engine.rules import RuleSet
from engine.shuffle import RandomStream, commitment_of

__all__ = ["first_drafter_of", "lay_stock", "open_hand", "shuffle_stock"]


def shuffle_stock(seed: bytes, entropy: tuple[bytes, ...]) -> tuple[list[int], RandomStream]:
    """The stock (card indices) drawn by ``seed`` and the seats' ``entropy``, and the
    stream that drew it (it goes on to draw the blind-nil exchanges)."""
    stream = RandomStream(seed, entropy)
    stock = list(range(52))
    stream.shuffle(stock)
    return stock, stream


def first_drafter_of(seed: bytes) -> int:
    """A game's first drafter when its first hand is committed before the shuffle: the
    first draw of the seed's own stream, known before any seat's entropy."""
    return RandomStream(seed).below(2)


def open_hand(
    rules: RuleSet,
    previous: HandState | None,
    seed: bytes,
    first_drafter: int | None,
    events: list[Event],
) -> HandState:
    """The hand after ``previous`` (``None``: the game's first, drafted first by
    ``first_drafter``), on ``seed``, its stock not yet drawn; appends ``HandStarted``."""
    if previous is None:
        assert first_drafter is not None
        number = 1
    else:
        first_drafter = 1 - previous.first_drafter
        number = previous.number + 1
    first_bidder = first_drafter if rules.first_bidder == "first_drafter" else 1 - first_drafter
    hand = HandState(
        number=number,
        seed=seed,
        entropy=(),
        commitment=commitment_of(seed),
        stock=[],
        stream=RandomStream(seed),  # replaced by the stream that draws the stock
        first_drafter=first_drafter,
        first_bidder=first_bidder,
        leader=first_bidder,
    )
    events.append(HandStarted(number, first_drafter, first_bidder, hand.commitment))
    return hand


def lay_stock(
    rules: RuleSet,
    hand: HandState,
    stock: list[int],
    stream: RandomStream,
    events: list[Event],
) -> Phase:
    """Give ``hand`` its drawn ``stock`` and ``stream``; appends ``Shuffled``.

    Returns the phase that starts (blind nil if the rules have it, else the draft); the
    hand's first drafter acts first.
    """
    hand.stock = stock
    hand.stream = stream
    entropy = hand.entropy
    events.append(
        Shuffled(
            hand.number,
            (len(entropy) > 0 and bool(entropy[0]), len(entropy) > 1 and bool(entropy[1])),
        )
    )
    return Phase.BLIND_NIL if rules.blind_nil else Phase.DRAFT
