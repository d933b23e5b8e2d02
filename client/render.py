"""Drawing the model as formatted text: one function per region of the screen.

Every function here takes the :class:`~client.model.ClientModel` and returns prompt_toolkit
``StyleAndTextTuples``; none of them changes the model. The layout (:mod:`client.ui`)
calls them through ``FormattedTextControl``; tests call them directly and join the text.
The screen is a title line, the main area (opponent, centre panel, your hand) beside a
side bar (scores, bids, tricks, whose turn, the log), a prompt line and a key-hint line.
:class:`Dims` lays it out for the terminal's size (``model.size``): 80x24 at least, and
larger cards, a longer log and the score sheet beside the table on larger terminals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from prompt_toolkit.data_structures import Size
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

from client.model import SUIT_ORDER, ClientModel, Overlay, Screen, Settings, hand_order
from client.rules import FIELD_LABELS, describe_rules
from client.text import safe_text, to_ascii
from engine import Card, Phase, PlayerView
from engine import HandResult as EngineHandResult
from protocol.convert import rules_from_message

__all__ = [
    "MAIN_WIDTH",
    "MIN_COLUMNS",
    "MIN_ROWS",
    "SIDE_WIDTH",
    "STYLE",
    "Dims",
    "finish",
    "fragments_text",
    "render_main",
    "render_overlay",
    "render_prompt",
    "render_screen_text",
    "render_sheet",
    "render_side",
    "render_status",
    "render_title",
    "render_too_small",
]

MAIN_WIDTH = 53
SIDE_WIDTH = 26
# the smallest terminal that shows everything: the title, 20 rows of table (the
# opponent, the trick or panel, your four suit rows, the pile) and side bar, the prompt
# and the key line; below it the client draws only a notice and no game key acts
MIN_COLUMNS = 80
MIN_ROWS = 24
SHEET_WIDTH = 74  # the score sheet's width (in its window, or in a column of its own)


@dataclass(frozen=True)
class Dims:
    """How the screen is cut up at a terminal size: the table's width, the side bar's,
    the score sheet's column (0: none, it is a window on Tab), the rows below the title,
    and whether the table is drawn large (big trick cards, a taller centre panel)."""

    columns: int
    rows: int
    main: int
    side: int
    sheet: int
    body: int
    large: bool

    @classmethod
    def of(cls, columns: int, rows: int) -> Dims:
        """The layout for ``columns`` x ``rows`` (at least the minimum size)."""
        columns, rows = max(columns, MIN_COLUMNS), max(rows, MIN_ROWS)
        left = columns - MAIN_WIDTH - 1
        sheet = SHEET_WIDTH if left >= SIDE_WIDTH + 1 + SHEET_WIDTH else 0
        side = min(left - (sheet + 1 if sheet else 0), 60)
        return cls(columns, rows, MAIN_WIDTH, side, sheet, rows - 3, rows >= 30)

    @property
    def centre(self) -> int:
        """Rows of the centre panel (the draft card, bidding, the trick)."""
        return 13 if self.large else 9


def dims(model: ClientModel) -> Dims:
    return Dims.of(*model.size)


STYLE = Style.from_dict(
    {
        "title": "bg:#1c3a5e #ffffff bold",
        "title.warn": "bg:#1c3a5e #ffaf00 bold",
        "side": "",
        "dim": "#8a8a8a",
        "head": "bold",
        "good": "#5fd75f bold",
        "bad": "#ff5f5f bold",
        "turn": "#ffd75f bold",
        "prompt": "bold #ffd75f",
        "status": "bg:#303030 #d0d0d0",
        "flash": "bg:#5f0000 #ffffff bold",
        "card.s": "#e4e4e4",
        "card.h": "#ff5f5f",
        "card.c": "#87d787",
        "card.d": "#5fafff",
        "card.legal": "bold",
        "card.illegal": "#4e4e4e",
        "card.cursor": "reverse bold",
        "card.picked": "underline bold bg:#5f5f00",
        "bigcard": "bg:#ffffff #000000 bold",
        "bigcard.h": "bg:#ffffff #d70000 bold",
        "bigcard.d": "bg:#ffffff #0060d0 bold",
        "bigcard.c": "bg:#ffffff #008700 bold",
        "overlay": "bg:#202020 #e4e4e4",
        "overlay.title": "bg:#202020 #ffd75f bold",
        "overlay.sel": "reverse",
        "log": "#bcbcbc",
    }
)

SUIT_CLASS = "cdhs"

Line = list[tuple[str, str]]


def finish(model: ClientModel, fragments: StyleAndTextTuples) -> StyleAndTextTuples:
    """The last step of drawing: with the ASCII setting every fragment goes through
    :func:`~client.text.to_ascii`, so nothing outside ASCII reaches the terminal."""
    if not model.settings.ascii_cards:
        return fragments
    return [(item[0], to_ascii(item[1]), *item[2:]) for item in fragments]


def fragments_text(fragments: StyleAndTextTuples) -> str:
    """The plain text of formatted fragments (what the terminal shows, without styles)."""
    return "".join(fragment[1] for fragment in fragments)


def _join(lines: Sequence[Line]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for index, line in enumerate(lines):
        if index:
            out.append(("", "\n"))
        out.extend(line)
    return out


def _width(line: Line) -> int:
    return sum(get_cwidth(text) for _, text in line)


def _pad(text: str, width: int, right: bool = False) -> str:
    text = _clip(text, width)
    gap = " " * max(0, width - get_cwidth(text))
    return gap + text if right else text + gap


def _clip(text: str, width: int) -> str:
    if get_cwidth(text) <= width:
        return text
    out = ""
    for char in text:
        if get_cwidth(out + char) > width - 1:
            return out + "…"
        out += char
    return out


def _wrap(text: str, width: int) -> list[str]:
    words = text.split(" ")
    lines: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if get_cwidth(candidate) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        while get_cwidth(word) > width:
            lines.append(word[:width])
            word = word[width:]
        current = word
    if current or not lines:
        lines.append(current)
    return lines


def _card_style(card: Card) -> str:
    return f"class:card.{SUIT_CLASS[card.suit]}"


def _card(model: ClientModel, card: Card, extra: str = "") -> tuple[str, str]:
    return (f"{_card_style(card)} {extra}".strip(), model.card_text(card))


def _cards(model: ClientModel, cards: Sequence[Card], empty: str = "—") -> Line:
    if not cards:
        return [("class:dim", empty)]
    line: Line = []
    for index, card in enumerate(cards):
        if index:
            line.append(("", " "))
        line.append(_card(model, card))
    return line


def _bid_text(view: PlayerView, seat: int) -> str:
    if view.blind_nil[seat]:
        return "blind nil"
    bid = view.bids[seat]
    if bid is None:
        return "—"
    return "nil" if bid == 0 else str(bid)


def _big_card(model: ClientModel, card: Card | None) -> list[Line]:
    ascii_only = model.settings.ascii_cards
    h, v, tl, tr, bl, br = ("-", "|", "+", "+", "+", "+") if ascii_only else "─│┌┐└┘"
    if card is None:
        rank, suit, style = "?", "?", "class:bigcard"
    else:
        text = model.card_text(card)
        rank, suit = text[:-1], text[-1]
        style = "class:bigcard" if card.suit == 3 else f"class:bigcard.{SUIT_CLASS[card.suit]}"
    inner = 7
    return [
        [("", tl + h * inner + tr)],
        [("", v), (style, _pad(rank, inner)), ("", v)],
        [("", v), (style, " " * inner), ("", v)],
        [("", v), (style, _pad(f"   {suit}", inner)), ("", v)],
        [("", v), (style, " " * inner), ("", v)],
        [("", v), (style, _pad(rank, inner, right=True)), ("", v)],
        [("", bl + h * inner + br)],
    ]


def _small_card(model: ClientModel, card: Card | None, dim: bool = False) -> list[Line]:
    ascii_only = model.settings.ascii_cards
    h, v, tl, tr, bl, br = ("-", "|", "+", "+", "+", "+") if ascii_only else "─│┌┐└┘"
    if card is None:
        return [
            [("class:dim", tl + h * 5 + tr)],
            [("class:dim", v + " " * 5 + v)],
            [("class:dim", bl + h * 5 + br)],
        ]
    text = model.card_text(card)
    frame = "class:dim" if dim else ""
    face = _card_style(card) + (" class:dim" if dim else " bold")
    return [
        [(frame, tl + h * 5 + tr)],
        [(frame, v), (face, _pad(" " + text, 5)), (frame, v)],
        [(frame, bl + h * 5 + br)],
    ]


def _large_card(model: ClientModel, card: Card | None, dim: bool = False) -> list[Line]:
    """A trick card drawn large (7 rows), for a terminal of 30 rows or more."""
    if card is not None and not dim:
        return _big_card(model, card)
    ascii_only = model.settings.ascii_cards
    h, v, tl, tr, bl, br = ("-", "|", "+", "+", "+", "+") if ascii_only else "─│┌┐└┘"
    face = ""
    if card is not None:
        face = model.card_text(card)
    inner = [_pad(face, 7), " " * 7, _pad(face, 7, right=True)] if face else [" " * 7] * 3
    middle = [inner[0], " " * 7, inner[1], " " * 7, inner[2]]
    return [
        [("class:dim", tl + h * 7 + tr)],
        *[[("class:dim", v + text + v)] for text in middle],
        [("class:dim", bl + h * 7 + br)],
    ]


def _beside(left: list[Line], right: list[Line], gap: int = 3) -> list[Line]:
    width = max((_width(line) for line in left), default=0)
    out: list[Line] = []
    for index in range(max(len(left), len(right))):
        a = left[index] if index < len(left) else []
        b = right[index] if index < len(right) else []
        out.append([*a, ("", " " * (width - _width(a) + gap)), *b])
    return out


def render_too_small(model: ClientModel, size: Size) -> StyleAndTextTuples:
    """The notice drawn instead of the table while the terminal is below the minimum."""
    lines = [
        "Window too small",
        f"needs {MIN_COLUMNS}x{MIN_ROWS}, has {size.columns}x{size.rows}",
        "Enlarge the terminal:",
        "no key acts until then",
        "Ctrl-C again quits" if model.overlay is Overlay.QUIT else "(Ctrl-C quits)",
    ]
    return _join(
        [[("class:flash" if i == 0 else "", _clip(t, size.columns))] for i, t in enumerate(lines)]
    )


# ---- title, prompt, status ---------------------------------------------------------


def render_title(model: ClientModel) -> StyleAndTextTuples:
    spade = "S" if model.settings.ascii_cards else "♠"
    parts = [f" {spade} Spades"]
    table = model.table
    if model.screen is Screen.TABLE and table is not None:
        parts.append(f"table {table.code}")
        parts.append(safe_text(table.preset or "") or "custom rules")
        if model.view is not None and model.view.hand_number:
            parts.append(f"hand {model.view.hand_number}")
        if table.your_seat is None:
            parts.append("watching")
    elif model.screen is Screen.LOBBY:
        parts.append("lobby")
    left = " · ".join(parts)
    state = {
        "connecting": "connecting…",
        "connected": f"● {model.name}",
        "reconnecting": "reconnecting…",
        "closed": "disconnected",
    }[model.connection]
    style = "class:title" if model.connection == "connected" else "class:title.warn"
    width = dims(model).columns
    right = f"{state}  ?:help "
    space = max(1, width - get_cwidth(left) - get_cwidth(right))
    return [(style, _clip(left, width - get_cwidth(right) - 1) + " " * space), (style, right)]


def render_prompt(model: ClientModel) -> StyleAndTextTuples:
    """One line: what the player can do now."""
    text = _prompt_text(model)
    return [("class:prompt", " " + _clip(text, dims(model).columns - 1))]


def _prompt_text(model: ClientModel) -> str:
    if model.given_up:
        return f"Could not connect: {model.connect_error} · q quits"
    if model.connection == "reconnecting":
        held = " (your seat is held)" if model.seat_is_held() else ""
        return f"Connection lost: reconnecting…{held}"
    if model.connection == "connecting" and model.connect_error:
        attempt, of = model.connect_attempt
        return f"Trying again ({attempt + 1} of {of})… {model.connect_error}"
    if model.screen is Screen.LOBBY:
        return "↑/↓ choose · Enter join · w watch · c create · j join by code · r refresh"
    if model.screen is Screen.CONNECTING:
        return "Connecting…"
    view, table = model.view, model.table
    if table is None or view is None:
        return ""
    if model.game_over is not None or view.phase is Phase.GAME_OVER:
        if table.your_seat is None:
            return "Game over: l leave · s save the record · a analysis · Tab score sheet"
        return "Game over: r rematch · l leave · s save the record · a analysis · Tab scores"
    if table.status == "waiting":
        return f"Waiting for an opponent · b add the bot ({model.bot_level}) · x leave"
    turn = model.turn
    if turn is None and model.pausing:
        return "Trick over · Enter goes on"
    if turn is None:
        current = view.current_player
        if model.pending is not None:
            return "Sent; waiting for the server…"
        if current is None and view.phase is Phase.DEAL and view.commitment is not None:
            return "Shuffling (your entropy goes into it)…"
        if current is None:
            return "Waiting for the next hand…"
        return f"Waiting for {model.seat_name(current)}…"
    typed = f"  [{model.typed}]" if model.typed else ""
    left = model.turn_seconds_left()
    if left is not None:
        typed += f"  ⏱ {left:.0f}s"
    if turn.phase == "blind_nil":
        return "Your turn: y declare BLIND NIL · n no blind nil"
    if turn.phase == "draft":
        return "Your turn: k keep the card · d discard it and take the next"
    if turn.phase == "exchange":
        return f"Pick up to {turn.exchange_max} cards: Space/type a card · Enter gives them{typed}"
    if turn.phase == "bidding":
        return "Your bid: type 0-13 (n = nil), ↑/↓ change, Enter bids"
    if turn.phase == "play":
        hint = "Enter plays" if model.settings.confirm_before_play else "typing a card plays it"
        return f"Your turn: ←/→ or type a card (qs, 10h) · {hint}{typed}"
    return ""


def render_status(model: ClientModel) -> StyleAndTextTuples:
    width = dims(model).columns
    if model.flash:
        return [("class:flash", _pad(" " + model.flash, width))]
    if model.screen is Screen.TABLE:
        keys = " ?:help  Tab:score sheet  o:settings  m:chat  x:leave  Ctrl-C:quit"
    else:
        keys = " ?:help  c:create  j:join  v:watch by code  q:quit"
    return [("class:status", _pad(keys, width))]


# ---- the main area -------------------------------------------------------------------


def render_main(model: ClientModel) -> StyleAndTextTuples:
    if model.screen is Screen.LOBBY:
        return _join(_lobby_lines(model))
    if model.screen is Screen.CONNECTING or model.view is None or model.table is None:
        url = f" to {model.url}" if model.url else ""
        if model.given_up:
            lines = [
                [("", "")],
                [("class:bad", f"  Could not connect{url}")],
                [("", "")],
                *[[("", "  " + part)] for part in _wrap(model.connect_error, MAIN_WIDTH - 3)],
                [("", "")],
                [("class:dim", "  q or Ctrl-C quits")],
            ]
            return _join(lines)
        lines = [[("", "")], [("class:head", f"  Connecting{url}…")]]
        if model.connect_error:
            attempt, of = model.connect_attempt
            lines.append([("", "")])
            for part in _wrap(model.connect_error, MAIN_WIDTH - 3):
                lines.append([("class:bad", "  " + part)])
            lines.append([("class:dim", f"  attempt {attempt} of {of} failed; trying again…")])
        return _join(lines)
    return _join(_table_lines(model, model.view))


def _seat_header(model: ClientModel, seat: int, view: PlayerView) -> Line:
    """One seat's line: name, what kind of seat, whose move; short enough that it and
    the seat's bid fit the table's width (53) whatever the name."""
    table = model.table
    assert table is not None
    info = table.seats[seat]
    name = _clip(model.seat_name(seat, you=False), 11)
    me = seat == view.seat
    line: Line = [("class:head", f" {'▼' if me else '▲'} {name}")]
    if me:
        line.append(("class:dim", " (you)"))
    if info.kind == "bot" and not me:
        line.append(("class:dim", f" · bot {info.bot_level or ''}".rstrip()))
    elif info.kind == "human" and not me:
        if info.connected:
            line.append(("class:good", " ● online"))
        elif info.bot_standing_in:
            line.append(("class:bad", " ○ dropped, bot plays"))
        else:
            left = model.hold_left(seat)
            held = f", held {left:.0f}s" if left is not None else ""
            line.append(("class:bad", f" ○ dropped{held}"))
    elif info.kind == "empty":
        line.append(("class:dim", " · empty seat"))
    if view.current_player == seat:
        line.append(("class:turn", " ◆ to move"))
    return line


def _stats(view: PlayerView, seat: int) -> Line:
    if view.phase in (Phase.PLAY, Phase.HAND_OVER) or any(b is not None for b in view.bids):
        bid = _bid_text(view, seat)
        return [("class:dim", f"  bid {bid}, won {view.tricks_won[seat]}")]
    return [("class:dim", f"  drafted {view.draft_turns[seat]}/13")]


def _table_lines(model: ClientModel, view: PlayerView) -> list[Line]:
    me = view.seat if view.seat is not None else 0
    opp = 1 - me
    lines: list[Line] = []
    opp_line = _seat_header(model, opp, view)
    lines.append(opp_line)
    count = view.hand_sizes[opp]
    back = "#" if model.settings.ascii_cards else "▒"
    if model.table is not None and model.table.status == "waiting":
        lines.append([])
    else:
        lines.append(
            [
                ("", "   "),
                ("class:dim", back * count),
                ("", f" {_count(count)} "),
                *_stats(view, opp),
            ]
        )
    lines.append([])
    size = dims(model)
    centre = _centre_lines(model, view)
    centre = (centre + [[] for _ in range(size.centre)])[: size.centre]
    lines.extend(centre)
    lines.append([])
    lines.append([*_seat_header(model, me, view), *_stats(view, me)])
    if view.seat is None:
        lines.append(
            [
                ("", "   "),
                ("class:dim", back * view.hand_sizes[me]),
                ("", f" {_count(view.hand_sizes[me])}"),
            ]
        )
        lines.extend([[] for _ in range(3)])
    else:
        lines.extend(_hand_lines(model, view))
    lines.extend(_info_lines(model, view))
    return lines[: size.body]


def _hand_lines(model: ClientModel, view: PlayerView) -> list[Line]:
    legal = model.legal_cards()
    playing = model.turn is not None and model.turn.phase == "play"
    exchanging = model.turn is not None and model.turn.phase == "exchange"
    symbols = "CDHS" if model.settings.ascii_cards else "♣♦♥♠"
    lines: list[Line] = []
    for suit in SUIT_ORDER:
        cards = sorted((c for c in view.hand if c.suit == suit), key=lambda c: -c.rank)
        line: Line = [
            ("", "   "),
            (f"class:card.{SUIT_CLASS[suit]} bold", symbols[suit]),
            ("", " "),
        ]
        if not cards:
            line.append(("class:dim", " —"))
        for card in cards:
            style = _card_style(card)
            if playing:
                style += " class:card.legal" if card in legal else " class:card.illegal"
            if exchanging and card in model.picks:
                style += " class:card.picked"
            if card == model.cursor and (playing or exchanging):
                style += " class:card.cursor"
            line.append(("", " "))
            line.append((style, model.card_text(card)))
        lines.append(line)
    return lines


def _count(count: int, noun: str = "card", nouns: str | None = None) -> str:
    """``1 card``, ``2 cards``; ``nouns`` for a plural that is not ``noun + "s"``."""
    return f"{count} {noun}" if count == 1 else f"{count} {nouns or noun + 's'}"


def pile_cards(view: PlayerView) -> list[Card]:
    """The cards this seat saw go to the pile, grouped by suit (spades first), high first."""
    return hand_order([*view.draft_discarded, *view.draft_seen_after_keep])


def _info_lines(model: ClientModel, view: PlayerView) -> list[Line]:
    """Below the hand: what this seat knows of the pile, or the exchange picks."""
    lines: list[Line] = []
    if view.phase in (Phase.DRAFT, Phase.EXCHANGE, Phase.BIDDING) and view.seat is not None:
        known = pile_cards(view)
        label = "   pile (p): "
        room = MAIN_WIDTH - len(label) - 2
        shown: list[Card] = []
        for card in known:
            if sum(len(model.card_text(c)) + 1 for c in [*shown, card]) > room:
                break
            shown.append(card)
        more = [("class:dim", " …")] if len(shown) < len(known) else []
        lines.append([("class:dim", label), *_cards(model, shown), *more])
        if view.exchange_given or view.exchange_received:
            lines.append(
                [
                    ("class:dim", "   gave "),
                    *_cards(model, view.exchange_given),
                    ("class:dim", " · got "),
                    *_cards(model, view.exchange_received),
                ]
            )
    if model.turn is not None and model.turn.phase == "exchange":
        picks = sorted(model.picks, key=lambda c: (SUIT_ORDER.index(c.suit), -c.rank))
        lines.append([("class:head", "   to give: "), *_cards(model, picks, "none")])
    if view.phase is Phase.PLAY and view.tricks:
        last = view.tricks[-1]
        lines.append(
            [
                ("class:dim", f"   last trick: {model.seat_name(last.leader)} "),
                _card(model, last.cards[0]),
                ("class:dim", f", {model.seat_name(1 - last.leader)} "),
                _card(model, last.cards[1]),
                ("class:dim", f" → {model.seat_name(last.winner)}"),
            ]
        )
    return lines


def _centre_lines(model: ClientModel, view: PlayerView) -> list[Line]:
    table = model.table
    assert table is not None
    me = view.seat if view.seat is not None else 0
    opp = 1 - me
    opp_name = model.seat_name(opp)
    turn = model.turn
    if model.game_over is not None or view.phase is Phase.GAME_OVER:
        return _game_over_lines(model, view)
    if table.status == "waiting":
        return [
            [("class:head", "   Waiting for an opponent.")],
            [("", "   Table code: "), ("class:turn", table.code)],
            [],
            [("", "   A friend joins with:")],
            [("class:head", f"     spades play {_clip(model.url or 'URL', 40)}")],
            [("class:head", f"       --join {table.code}")],
            [],
            [("", f"   or press b to play the bot ({model.bot_level}).")],
        ]
    phase = view.phase
    if phase is Phase.BLIND_NIL:
        bonus = view.rules.blind_nil_bonus
        if turn is not None:
            may = any(getattr(a, "declare", False) for a in model.legal)
            lines: list[Line] = [
                [("class:head", "   BLIND NIL?")],
                [("", "   Declare before you see a single card:")],
                [("", f"   +{bonus} if you take no trick, -{bonus} if you take any;")],
                [("", f"   then exchange up to {view.rules.blind_nil_exchange} cards.")],
                [],
            ]
            if may:
                lines.append([("class:turn", "   y = declare blind nil    n = no")])
            else:
                lines.append([("class:dim", "   You may not declare it now (score rule): n")])
            return lines
        return [[("", f"   {model.seat_name(view.current_player or 0)} is deciding on blind nil…")]]
    if phase is Phase.DRAFT:
        turns_left = (13 - view.draft_turns[me], 13 - view.draft_turns[opp])
        facts: list[Line] = [
            [
                (
                    "class:dim",
                    f"Turns left: {model.seat_name(me).replace('You', 'you')}"
                    f" {turns_left[0]}, {opp_name} {turns_left[1]}",
                )
            ],
            [("class:dim", f"Stock {view.stock_left} · pile {view.pile_size}")],
        ]
        if turn is not None and turn.phase == "draft":
            see = "see" if view.rules.see_card_after_keep else "don't see"
            info: list[Line] = [
                [("class:head", "Card on offer")],
                [],
                [("class:turn", "k"), ("", " keep it  (next card goes to")],
                [("", f"   the pile; you {see} it)")],
                [("class:turn", "d"), ("", " discard it, take the next")],
                [],
                *facts,
            ]
            return _beside([[("", " "), *line] for line in _big_card(model, view.offered)], info)
        drafter = view.current_player
        who = model.seat_name(drafter) if drafter is not None else "?"
        return [
            [("", f"   Draft: {who} {'are' if who == 'You' else 'is'} choosing…")],
            [],
            *[[("", "   "), *f] for f in facts],
        ]
    if phase is Phase.EXCHANGE:
        if turn is not None:
            return [
                [("class:head", "   Blind nil exchange")],
                [("", f"   Give up to {turn.exchange_max} cards face down; you get as many")],
                [("", "   drawn at random from the discard pile.")],
                [],
                [("", "   Space or type a card (qs, 10h) to pick or drop it,")],
                [("", "   Enter to give the picked cards (none is fine).")],
            ]
        return [[("", f"   {model.seat_name(view.current_player or 0)} exchanging…")]]
    if phase is Phase.BIDDING:
        lines = [[("class:head", "   Bidding")], []]
        first = view.first_bidder if view.first_bidder is not None else 0
        for seat in (first, 1 - first):
            if view.blind_nil[seat]:
                text = "blind nil"
            elif view.bids[seat] is not None:
                text = _bid_text(view, seat)
            elif view.current_player == seat:
                text = "…thinking" if seat != me else "?"
            else:
                text = "bids next"
            lines.append([("", f"   {_pad(model.seat_name(seat), 12)} "), ("class:head", text)])
        lines.append([])
        if turn is not None and turn.phase == "bidding":
            entry = model.bid_entry
            shown = "nil" if entry == "0" else (entry or "_")
            lines.append(
                [
                    ("", "   Your bid: "),
                    ("class:card.cursor", f" {shown} "),
                    ("class:dim", "   0-13 · n nil · Enter"),
                ]
            )
            spades = sum(1 for c in view.hand if c.suit == 3)
            high = sum(1 for c in view.hand if c.rank >= 11)
            held = f"{_count(spades, 'spade')}, {_count(high, 'ace or king', 'aces or kings')}"
            lines.append([("class:dim", f"   (you hold {held})")])
        return lines
    if phase is Phase.PLAY:
        return _trick_lines(model, view)
    if phase is Phase.HAND_OVER and model.results:
        return _result_lines(model, model.results[-1])[: dims(model).centre]
    if phase is Phase.DEAL and view.commitment is not None:
        # the shuffle is committed and waits a moment for the seats' entropy
        return [[("", f"   Hand {view.hand_number}: shuffling…")]]
    return [[("", "   Waiting for the next hand…")]]


def _trick_lines(model: ClientModel, view: PlayerView) -> list[Line]:
    me = view.seat if view.seat is not None else 0
    leader = view.leader if view.leader is not None else me
    cards: dict[int, Card] = {}
    for index, card in enumerate(view.current_trick):
        cards[leader if index == 0 else 1 - leader] = card
    last = None
    if not view.current_trick and view.tricks:
        # between tricks, the one just won stays in view (dimmed) until the next lead
        last = view.tricks[-1]
        cards = {last.leader: last.cards[0], 1 - last.leader: last.cards[1]}
    opp = 1 - me
    # during the trick pause the finished trick is shown bright; after it, dimmed
    dim = last is not None and not model.pausing
    draw = _large_card if dims(model).large else _small_card
    left = [
        [("", "  " + _pad(model.seat_name(opp), 9))],
        *_prefix(draw(model, cards.get(opp), dim)),
    ]
    right = [[("", _pad(model.seat_name(me), 9))], *draw(model, cards.get(me), dim)]
    number = min(13, len(view.tricks) + 1)
    broken = "spades broken" if view.spades_broken else "spades not broken"
    info: list[Line] = [
        [("class:head", f"Trick {number} of 13")],
        [("", f"{model.seat_name(leader)} lead{'' if leader == view.seat else 's'}")],
        [("class:good" if view.spades_broken else "class:dim", broken)],
        # tricks won against the bid, one line a seat ("blind nil" needs the room)
        *(
            [
                (
                    "class:dim",
                    f"{_clip(model.seat_name(seat), 8)} won "
                    f"{view.tricks_won[seat]}/{_bid_text(view, seat)}",
                )
            ]
            for seat in (me, opp)
        ),
    ]
    if last is not None and model.pausing:
        takes = "take" if last.winner == view.seat else "takes"
        info.append(
            [("class:turn", f"{model.seat_name(last.winner)} {takes} trick {len(view.tricks)}")]
        )
    elif last is not None:
        info.append(
            [("class:dim", f"({model.seat_name(last.winner)} took trick {len(view.tricks)})")]
        )
    return [[], *_beside(_beside(left, right, 2), info, 4)]


def _prefix(lines: list[Line]) -> list[Line]:
    return [[("", "  "), *line] for line in lines]


def _result_lines(model: ClientModel, result: EngineHandResult) -> list[Line]:
    me = model.my_seat if model.my_seat is not None else 0
    order = (me, 1 - me)  # you first, then the opponent (as in the side bar)

    def row(label: str, a: str, b: str, style: str = "") -> Line:
        return [(style, f"   {_pad(label, 16)}{_pad(a, 10, True)}{_pad(b, 10, True)}")]

    def pair(label: str, text: Callable[[int], str], style: str = "") -> Line:
        return row(label, text(order[0]), text(order[1]), style)

    def bid(seat: int) -> str:
        if result.blind_nil[seat]:
            return "blind nil"
        value = result.bids[seat]
        return "nil" if value == 0 else str(value)

    ok = model.verified.get(result.hand_number, False)
    check = (
        ("class:good", " shuffle verified ✓") if ok else ("class:bad", " shuffle NOT verified ✗")
    )
    if ok and model.entropy_included.get(result.hand_number, False):
        check = ("class:good", " shuffle verified, your entropy included ✓")
    if model.settings.ascii_cards:
        check = (check[0], check[1].replace("✓", "OK").replace("✗", "!!"))
    penalty = model.view.rules.bag_penalty if model.view else 100
    return [
        [("class:head", f"   Hand {result.hand_number} result ·"), check],
        pair("", lambda s: _clip(model.seat_name(s), 9), "class:head"),
        pair("bid", bid),
        pair("tricks", lambda s: str(result.tricks[s])),
        pair("bags added", lambda s: f"+{result.bags_added[s]}"),
        pair("bag penalty", lambda s: str(-result.bag_penalties[s] * penalty)),
        pair("points", lambda s: f"{result.points[s]:+d}"),
        pair("total (bags)", lambda s: f"{result.scores[s]} ({result.bags[s]})", "class:head"),
    ]


def _game_over_lines(model: ClientModel, view: PlayerView) -> list[Line]:
    over = model.game_over
    winner = over.winner if over is not None else view.winner
    scores = (over.scores[0].score, over.scores[1].score) if over else view.scores
    me = view.seat if view.seat is not None else 0
    if winner is None:
        head = "The game is over."
    else:  # the winner's name and score first
        verb = "win" if winner == view.seat else "wins"
        head = f"{model.seat_name(winner)} {verb} {scores[winner]} to {scores[1 - winner]}"
        head += "!" if winner == view.seat else "."
    if over is not None and over.reason == "forfeit":
        head += " (by forfeit)"
    table = model.table
    asked = ""
    if table is not None and any(table.rematch):
        asked = "Rematch asked by: " + ", ".join(
            model.seat_name(s) for s in (0, 1) if table.rematch[s]
        )
    lines: list[Line] = [
        [("class:turn", f"   GAME OVER · {_clip(head, MAIN_WIDTH - 16)}")],
        [],
        [
            (
                "",
                f"   {_clip(model.seat_name(me), 16)} {scores[me]}  ·  "
                f"{_clip(model.seat_name(1 - me), 16)} {scores[1 - me]}",
            )
        ],
        [("class:dim", f"   {_clip(asked, MAIN_WIDTH - 4)}")] if asked else [],
        [],
    ]
    if table is not None and table.your_seat is not None:
        lines.append([("", "   r rematch · l leave the table · Tab score sheet")])
    else:  # a spectator has no rematch to ask for
        lines.append([("", "   l leave · Tab score sheet")])
    saved = model.saved_record
    if saved is None:
        lines.append([("", "   s saves the game's record to a file")])
    else:  # the file name whole, on a line of its own, to copy
        lines.append([("", "   record saved, to replay it:")])
        command = f"   spades replay {saved.name}"
        if get_cwidth(command) <= MAIN_WIDTH:
            lines.append([("class:head", command)])
        else:
            lines.append([("class:head", "   spades replay \\")])
            lines.append([("class:head", f" {saved.name}")])
    return lines


# ---- side bar ------------------------------------------------------------------------


def render_side(model: ClientModel) -> StyleAndTextTuples:
    lines: list[Line] = []
    view, table = model.view, model.table
    size = dims(model)
    width = size.side - 1
    if model.screen is Screen.TABLE and view is not None and table is not None:
        me = view.seat if view.seat is not None else 0
        opp = 1 - me

        def row(label: str, a: str, b: str, style: str = "") -> Line:
            return [(style, f" {_pad(label, 5)}{_pad(a, 9, True)}{_pad(b, 10, True)}")]

        hand = f" · hand {view.hand_number}" if view.hand_number else ""
        lines.append([("class:dim", f" target {table.rules.target_score}{hand}")])
        lines.append(
            row("", _clip(model.seat_name(me), 8), _clip(model.seat_name(opp), 9), "class:head")
        )
        lines.append(row("score", str(view.scores[me]), str(view.scores[opp]), "class:head"))
        lines.append(row("bags", str(view.bags[me]), str(view.bags[opp])))
        lines.append(row("bid", _bid_text(view, me), _bid_text(view, opp)))
        lines.append(row("won", str(view.tricks_won[me]), str(view.tricks_won[opp])))
        spade = "S" if model.settings.ascii_cards else "♠"
        lines.append([("class:dim", f" {spade} broken: {'yes' if view.spades_broken else 'no'}")])
        if view.current_player is None:
            whose = "—"
        else:
            whose = (
                "YOU" if view.current_player == view.seat else model.seat_name(view.current_player)
            )
        lines.append([("", " turn: "), ("class:turn", _clip(whose, width - 7))])
    else:
        lines.append([("class:head", " Welcome to Spades")])
        lines.append([("class:dim", " two-handed, over the net")])
    lines.append([("class:dim", " " + "─" * 8 + " log " + "─" * (width - 14))])
    room = size.body - len(lines)
    wrapped: list[str] = []
    for entry in list(model.log)[-room:]:
        for index, part in enumerate(_wrap(entry, width - 2)):
            wrapped.append((" " if index == 0 else "  ") + part)
    for part in wrapped[-room:]:
        lines.append([("class:log", _clip(part, width))])
    return _join(lines)


# ---- lobby ---------------------------------------------------------------------------


def _lobby_lines(model: ClientModel) -> list[Line]:
    lines: list[Line] = [[("class:head", "  Open tables")], []]
    if not model.tables:
        lines.append([("class:dim", "  No open tables yet. Press c to create one")])
        lines.append([("class:dim", "  (with the bot, or wait for a friend).")])
    for index, summary in enumerate(model.tables[:14]):
        seats = " vs ".join(
            (safe_text(s.name or "") or (f"bot {s.bot_level}" if s.kind == "bot" else "?"))
            if s.kind != "empty"
            else "(free)"
            for s in summary.seats
        )
        text = (
            f"  {_pad(summary.code, 9)} {_pad(safe_text(summary.preset or '') or 'custom', 13)}"
            f"{_pad(seats, 20)} {summary.status}"
        )
        style = "class:overlay.sel" if index == model.lobby_row else ""
        lines.append([(style, _pad(text, MAIN_WIDTH))])
    return lines


# ---- overlays ------------------------------------------------------------------------

HELP = """\
At the table
  ←/→  ↑/↓    choose a card (↑/↓ jump between suits)
  qs, 10h     type a card: a legal one becomes the chosen card
  Enter       play the chosen card / make the bid
  k / d       draft: keep / discard the card on offer
  0-13, n     bidding: your bid, n = nil
  y / n       blind nil: declare / decline
  Space       exchange: pick or drop a card
  Tab  o  m   score sheet · settings · chat
  /mute       in chat: hide the others' chat (/unmute) · /report TEXT
  p  r        the pile (by suit) · the rules of this table
  x           leave the table (during a game: asks y/n)
  b           waiting: bring in the bot
  r l s a     game over: rematch · leave · save the record · analysis
  Esc         close a window; Ctrl-C quits (asks during a game)
Bright cards may be played, dark ones may not. Press r now for the rules.
Lobby: ↑/↓ Enter join · w watch · c create · j/v code · r refresh"""


def render_overlay(model: ClientModel) -> StyleAndTextTuples:
    overlay = model.overlay
    if overlay is None:
        return []
    title, lines = _overlay_body(model, overlay)
    out: list[Line] = [[("class:overlay.title", f" {title} "), ("class:dim", " (Esc closes)")]]
    if overlay is not Overlay.CREATE:
        out.append([])
    out.extend(lines)
    return _join(out)


def _overlay_body(model: ClientModel, overlay: Overlay) -> tuple[str, list[Line]]:
    if overlay is Overlay.HELP:
        return "Help", [[("", " " + line)] for line in HELP.splitlines()]
    if overlay is Overlay.PILE:
        return "The pile: cards you saw go to it", _pile_lines(model)
    if overlay is Overlay.RULES:
        return "Rules at this table", _rules_lines(model)
    if overlay is Overlay.LEAVE:
        return "Leave the table?", [
            [("", " The game is not over: leaving gives up your seat and")],
            [("", " FORFEITS the game.")],
            [],
            [("class:head", " y = yes, leave and forfeit     n or Esc = no, stay")],
        ]
    if overlay is Overlay.QUIT and model.local:
        return "Quit spades?", [
            [("", " This game runs inside this program: quitting ends it.")],
            [],
            [("class:head", " y or Ctrl-C = yes, quit     n or Esc = no, stay")],
        ]
    if overlay is Overlay.QUIT:
        return "Quit spades?", [
            [("", " The game goes on without you:")],
            [("", " " + _hold_text(model))],
            [("", " Run the same command again to take your seat back.")],
            [],
            [("class:head", " y or Ctrl-C = yes, quit     n or Esc = no, stay")],
        ]
    if overlay is Overlay.RESULT:
        if not model.results:
            return "Hand result", []
        lines = _result_lines(model, model.results[-1])
        lines.append([])
        lines.append([("class:turn", "   Enter to continue")])
        return "Hand over", lines
    if overlay is Overlay.SCORES:
        return "Score sheet", _score_sheet(model)
    if overlay is Overlay.SETTINGS:
        lines = []
        for index, (name, label) in enumerate(Settings.ITEMS):
            style = "class:overlay.sel" if index == model.settings_row else ""
            if name == "trick_pause":
                lines.append([(style, f" [{model.settings.trick_pause:.1f} s] {label}")])
                continue
            on = bool(getattr(model.settings, name))
            lines.append([(style, f" [{'x' if on else ' '}] {label}")])
        lines.append([])
        lines.append([("class:dim", " ↑/↓ choose · Enter or Space toggles")])
        return "Settings", lines
    if overlay is Overlay.CHAT:
        lines = [[("class:log", " " + _clip(line, 60))] for line in list(model.chat)[-8:]]
        lines.append([])
        lines.append([("", " say: "), ("class:head", model.chat_entry + "▏")])
        lines.append([("class:dim", " Enter sends · /mute, /unmute · /report TEXT: to the host")])
        return ("Chat (others muted)" if model.chat_muted else "Chat"), lines
    if overlay is Overlay.CREATE:
        form = model.form
        lines = []
        for index, name in enumerate(form.rows()):
            style = "class:overlay.sel" if index == form.row else ""
            label = FIELD_LABELS.get(name, name)
            lines.append([(style, f" {_pad(label, 33)} {_pad(form.value_text(name), 26)}")])
        hint = " ↑/↓ field · ←/→ change · digits type a number · Enter creates"
        lines.append([("class:bad", " " + form.error)] if form.error else [("class:dim", hint)])
        return "Create a table", lines
    verb = "Join" if overlay is Overlay.JOIN else "Watch"
    return f"{verb} a table", [
        [("", " table code: "), ("class:head", model.code_entry + "▏")],
        [("class:dim", " Enter to " + verb.lower())],
    ]


def render_sheet(model: ClientModel) -> StyleAndTextTuples:
    """The score sheet as a column of its own, beside the table when the terminal is
    wide enough (see :class:`Dims`)."""
    if model.screen is not Screen.TABLE or model.view is None:
        return []
    return _join([[("class:overlay.title", " Score sheet ")], [], *_score_sheet(model)])


def _rules_lines(model: ClientModel) -> list[Line]:
    table = model.table
    rules = table.rules if table is not None else None
    if rules is None:
        return [[("class:dim", " No table: the rules are those of the table you sit at.")]]
    lines: list[Line] = []
    for paragraph in describe_rules(rules_from_message(rules)):
        for part in _wrap(paragraph, 70):
            lines.append([("", " " + part)])
    lines.append([("class:dim", " (docs/rules.md has them in full)")])
    return lines


def _pile_lines(model: ClientModel) -> list[Line]:
    view = model.view
    if view is None or view.seat is None:
        return [[("class:dim", " A spectator sees no draft cards.")]]
    cards = pile_cards(view)
    symbols = "SHCD" if model.settings.ascii_cards else "♠♥♣♦"
    lines: list[Line] = []
    for symbol, suit in zip(symbols, SUIT_ORDER, strict=True):
        row = [c for c in cards if c.suit == suit]
        lines.append([("", f"  {symbol}  "), *_cards(model, row)])
    lines.append([])
    seen = f" {_count(len(cards))} seen in the draft"
    if view.rules.blind_nil:  # only then can a pile card come back into a hand
        lines.append([("class:dim", seen + "; the other seat may")])
        lines.append([("class:dim", " have drawn some of them in a blind nil exchange.")])
    else:
        lines.append([("class:dim", seen + ".")])
    return lines


def _hold_text(model: ClientModel) -> str:
    table = model.table
    if table is None:
        return "your seat is held."
    then = {
        "bot": "then the bot plays for you",
        "wait": "then the game waits for you",
        "forfeit": "then you forfeit",
    }.get(table.on_hold_expiry, "")
    return f"your seat is held {table.hold_seconds} s, {then}."


def _score_sheet(model: ClientModel) -> list[Line]:
    """Every hand, you first: bid, tricks taken, bags added, bag penalty, the hand's
    points (penalty included) and the running total, so each line explains itself."""
    me = model.my_seat if model.my_seat is not None else 0
    order = (me, 1 - me)
    penalty = model.view.rules.bag_penalty if model.view else 100
    cell = " {:>3} {:>2} {:>4} {:>5} {:>5} {:>6}"
    first, second = (_clip(model.seat_name(s), 30) for s in order)
    lines: list[Line] = [
        [("class:head", f" {'':>4} {_pad(first, 30)} │ {second}")],
        [
            (
                "class:head",
                f" {'hand':>4}"
                + " │".join([cell.format("bid", "tk", "bags", "pen", "pts", "total")] * 2),
            )
        ],
    ]
    for result in model.results[-12:]:
        cells = []
        for seat in order:
            bid = result.bids[seat]
            bid_text = "bn" if result.blind_nil[seat] else ("nil" if bid == 0 else str(bid))
            pen = -result.bag_penalties[seat] * penalty
            cells.append(
                cell.format(
                    bid_text,
                    result.tricks[seat],
                    f"+{result.bags_added[seat]}",
                    pen if pen else "",
                    f"{result.points[seat]:+d}",
                    result.scores[seat],
                )
            )
        ok = "✓" if model.verified.get(result.hand_number) else "✗"
        if model.settings.ascii_cards:
            ok = "ok" if ok == "✓" else "!!"
        lines.append([("", f" {result.hand_number:>4}" + " │".join(cells) + f" {ok}")])
    if not model.results:
        lines.append([("class:dim", " no hand finished yet")])
    else:
        lines.append([])
        lines.append(
            [
                (
                    "class:dim",
                    " tk tricks · bags overtricks · pen bag penalty · pts the hand's points",
                )
            ]
        )
    return lines


def render_screen_text(model: ClientModel) -> str:
    """The whole screen as plain text (title, main beside side, prompt, status, overlay)."""
    size = dims(model)
    main = fragments_text(render_main(model)).split("\n")
    side = fragments_text(render_side(model)).split("\n")
    sheet = fragments_text(render_sheet(model)).split("\n") if size.sheet else []
    rows = [fragments_text(render_title(model))]
    for index in range(size.body):
        left = main[index] if index < len(main) else ""
        right = side[index] if index < len(side) else ""
        row = _pad(left, size.main) + "│" + right
        if size.sheet:
            extra = sheet[index] if index < len(sheet) else ""
            row = _pad(row, size.main + 1 + size.side) + "│" + extra
        rows.append(row)
    rows.append(fragments_text(render_prompt(model)))
    rows.append(fragments_text(render_status(model)))
    if model.overlay is not None:
        rows.append(fragments_text(render_overlay(model)))
    text = "\n".join(rows)
    return to_ascii(text) if model.settings.ascii_cards else text
