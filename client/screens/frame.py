"""The table around a phase's panel: both seats, your hand, the pile you saw.

Every table screen (:mod:`client.screens`) draws its centre panel; :func:`table_lines`
puts it between the opponent's row and your hand. :func:`idle_keys` are the keys of the
table while it is not your turn (the cursor still moves over your hand).
"""

from __future__ import annotations

from prompt_toolkit.utils import get_cwidth

from client.cardwords import suit_letters
from client.draw import (
    MAIN_WIDTH,
    SUIT_CLASS,
    Dims,
    Line,
    bid_text,
    card,
    card_style,
    cards,
    clip,
    count,
)
from client.i18n import _, language
from client.model.core import Model
from client.model.selection import SUIT_ORDER, hand_order
from engine import Card, Phase, PlayerView

__all__ = ["idle_keys", "pile_cards", "table_lines"]


def idle_keys(model: Model, key: str) -> bool:
    """Keys at the table while no turn is pending: Enter ends the trick pause, arrows
    move the cursor over the hand."""
    if key == "enter" and model.pausing:
        model.end_pause()  # seen the trick: go on without waiting out the pause
    elif key == "enter":
        model.notify(_("Not your turn yet."))
    elif key in ("left", "right", "up", "down"):
        model.selection.move(key, model.hand_cards())
    else:
        return False
    return True


def _seat_header(model: Model, seat: int, view: PlayerView) -> Line:
    """One seat's line: name, what kind of seat, whose move; short enough that it and
    the seat's bid fit the table's width (53) whatever the name."""
    table = model.table
    assert table is not None
    info = table.seats[seat]
    name = clip(model.seat_name(seat, you=False), 11)
    me = seat == view.seat
    line: Line = [("class:head", f" {'▼' if me else '▲'} {name}")]
    if me:
        line.append(("class:dim", " " + _("(you)")))
    if info.kind == "bot" and not me:
        level = _(info.bot_level) if info.bot_level else ""
        line.append(("class:dim", (" · " + _("bot") + f" {level}").rstrip()))
    elif info.kind == "human" and not me:
        if info.connected:
            line.append(("class:good", " ● " + _("online")))
        elif info.bot_standing_in:
            line.append(("class:bad", " ○ " + _("dropped, bot plays")))
        else:
            left = model.hold_left(seat)
            if left is not None:
                held = _("dropped, held {seconds}s").format(seconds=f"{left:.0f}")
            else:
                held = _("dropped")
            line.append(("class:bad", f" ○ {held}"))
    elif info.kind == "empty":
        line.append(("class:dim", " · " + _("empty seat")))
    if view.current_player == seat:
        line.append(("class:turn", " ◆ " + _("to move")))
    return line


def _stats(view: PlayerView, seat: int) -> Line:
    if view.phase in (Phase.PLAY, Phase.HAND_OVER) or any(b is not None for b in view.bids):
        bid = bid_text(view, seat)
        text = _("bid {bid}, won {won}").format(bid=bid, won=view.tricks_won[seat])
        return [("class:dim", f"  {text}")]
    return [("class:dim", "  " + _("drafted {turns}/13").format(turns=view.draft_turns[seat]))]


def table_lines(model: Model, view: PlayerView, size: Dims, centre: list[Line]) -> list[Line]:
    """The table around ``centre`` (the phase's panel): the opponent, the panel, your
    seat and hand, what you know of the pile; cut to ``size``."""
    me = view.seat if view.seat is not None else 0
    opp = 1 - me
    lines: list[Line] = []
    opp_line = _seat_header(model, opp, view)
    lines.append(opp_line)
    held = view.hand_sizes[opp]
    back = "#" if model.settings.ascii_cards else "▒"
    if model.table is not None and model.table.status == "waiting":
        lines.append([])
    else:
        lines.append(
            [
                ("", "   "),
                ("class:dim", back * held),
                ("", f" {count(held)} "),
                *_stats(view, opp),
            ]
        )
    lines.append([])
    centre = (centre + [[] for _ in range(size.centre)])[: size.centre]
    lines.extend(centre)
    lines.append([])
    lines.append([*_seat_header(model, me, view), *_stats(view, me)])
    if view.seat is None:
        lines.append(
            [
                ("", "   "),
                ("class:dim", back * view.hand_sizes[me]),
                ("", f" {count(view.hand_sizes[me])}"),
            ]
        )
        lines.extend([[] for _ in range(3)])
    else:
        lines.extend(_hand_lines(model, view))
    lines.extend(_info_lines(model, view))
    return lines[: size.body]


def _hand_lines(model: Model, view: PlayerView) -> list[Line]:
    legal = model.legal_cards()
    playing = model.turn is not None and model.turn.phase == "play"
    exchanging = model.turn is not None and model.turn.phase == "exchange"
    symbols = suit_letters(language()).upper() if model.settings.ascii_cards else "♣♦♥♠"
    lines: list[Line] = []
    for suit in SUIT_ORDER:
        suited = sorted((c for c in view.hand if c.suit == suit), key=lambda c: -c.rank)
        line: Line = [
            ("", "   "),
            (f"class:card.{SUIT_CLASS[suit]} bold", symbols[suit]),
            ("", " "),
        ]
        if not suited:
            line.append(("class:dim", " —"))
        for one in suited:
            style = card_style(one)
            if playing:
                style += " class:card.legal" if one in legal else " class:card.illegal"
            if exchanging and one in model.picks:
                style += " class:card.picked"
            if one == model.cursor and (playing or exchanging):
                style += " class:card.cursor"
            line.append(("", " "))
            line.append((style, model.card_text(one)))
        lines.append(line)
    return lines


def pile_cards(view: PlayerView) -> list[Card]:
    """The cards this seat saw go to the pile, grouped by suit (spades first), high first."""
    return hand_order([*view.draft_discarded, *view.draft_seen_after_keep])


def _info_lines(model: Model, view: PlayerView) -> list[Line]:
    """Below the hand: what this seat knows of the pile, or the exchange picks."""
    lines: list[Line] = []
    if view.phase in (Phase.DRAFT, Phase.EXCHANGE, Phase.BIDDING) and view.seat is not None:
        known = pile_cards(view)
        label = "   " + _("pile (p):") + " "
        room = MAIN_WIDTH - get_cwidth(label) - 2
        shown: list[Card] = []
        for seen in known:
            if sum(get_cwidth(model.card_text(c)) + 1 for c in [*shown, seen]) > room:
                break
            shown.append(seen)
        more = [("class:dim", " …")] if len(shown) < len(known) else []
        lines.append([("class:dim", label), *cards(model, shown), *more])
        if view.exchange_given or view.exchange_received:
            lines.append(
                [
                    ("class:dim", "   " + _("gave") + " "),
                    *cards(model, view.exchange_given),
                    ("class:dim", " · " + _("got") + " "),
                    *cards(model, view.exchange_received),
                ]
            )
    if model.turn is not None and model.turn.phase == "exchange":
        picks = sorted(model.picks, key=lambda c: (SUIT_ORDER.index(c.suit), -c.rank))
        lines.append([("class:head", "   " + _("to give:") + " "), *cards(model, picks, _("none"))])
    if view.phase is Phase.PLAY and view.tricks:
        last = view.tricks[-1]
        lines.append(
            [
                ("class:dim", "   " + _("last trick:") + f" {model.seat_name(last.leader)} "),
                card(model, last.cards[0]),
                ("class:dim", f", {model.seat_name(1 - last.leader)} "),
                card(model, last.cards[1]),
                ("class:dim", f" → {model.seat_name(last.winner)}"),
            ]
        )
    return lines
