"""Drawing the whole screen: the frame around the screen on show, and its window.

Every function here takes the model and the terminal's size (:class:`~client.draw.Dims`,
the minimum 80x24 unless given) and returns prompt_toolkit ``StyleAndTextTuples``; none of
them changes the model. The screen is a title line, the main area (the screen on show,
:mod:`client.screens`) beside a side bar (scores, bids, tricks, whose turn, the log), a
prompt line (the screen's help line) and a key-hint line; a window
(:mod:`client.overlays`) floats on top. The layout (:mod:`client.ui`) calls them through
``FormattedTextControl``; tests call them directly and join the text.
"""

from __future__ import annotations

from prompt_toolkit.data_structures import Size
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from client.draw import (
    MAIN_WIDTH,
    MIN_COLUMNS,
    MIN_DIMS,
    MIN_ROWS,
    SIDE_WIDTH,
    STYLE,
    Dims,
    Line,
    bid_text,
    clip,
    finish,
    fragments_text,
    join,
    pad,
    wrap,
)
from client.i18n import _
from client.model.core import Model, Overlay, Screen
from client.overlays import help as help_window
from client.overlays import window
from client.overlays.scores import sheet_lines
from client.rules import preset_text
from client.screens import connecting, lobby, table_screen
from client.screens.frame import table_lines
from client.text import safe_text, to_ascii

__all__ = [
    "HELP",
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

HELP = help_window.HELP


def render_too_small(model: Model, size: Size) -> StyleAndTextTuples:
    """The notice drawn instead of the table while the terminal is below the minimum."""
    lines = [
        _("Window too small"),
        _("needs {needed}, has {size}").format(
            needed=f"{MIN_COLUMNS}x{MIN_ROWS}", size=f"{size.columns}x{size.rows}"
        ),
        _("Enlarge the terminal:"),
        _("no key acts until then"),
        _("Ctrl-C again quits") if model.overlay is Overlay.QUIT else _("(Ctrl-C quits)"),
    ]
    return join(
        [[("class:flash" if i == 0 else "", clip(t, size.columns))] for i, t in enumerate(lines)]
    )


def render_title(model: Model, size: Dims = MIN_DIMS) -> StyleAndTextTuples:
    spade = "S" if model.settings.ascii_cards else "♠"
    parts = [f" {spade} " + _("Spades")]
    table = model.table
    if model.screen is Screen.TABLE and table is not None:
        parts.append(_("table {code}").format(code=table.code))
        parts.append(preset_text(safe_text(table.preset or "")) or _("custom rules"))
        if model.view is not None and model.view.hand_number:
            parts.append(_("hand {number}").format(number=model.view.hand_number))
        if table.your_seat is None:
            parts.append(_("watching"))
    elif model.screen is Screen.LOBBY:
        parts.append(_("lobby"))
    left = " · ".join(parts)
    state = {
        "connecting": _("connecting…"),
        "connected": f"● {model.name}",
        "reconnecting": _("reconnecting…"),
        "closed": _("disconnected"),
    }[model.link.status]
    style = "class:title" if model.link.status == "connected" else "class:title.warn"
    width = size.columns
    right = f"{state}  " + _("?:help") + " "
    space = max(1, width - get_cwidth(left) - get_cwidth(right))
    return [(style, clip(left, width - get_cwidth(right) - 1) + " " * space), (style, right)]


def render_prompt(model: Model, size: Dims = MIN_DIMS) -> StyleAndTextTuples:
    """One line: what the player can do now (the screen's help line)."""
    return [("class:prompt", " " + clip(_prompt_text(model), size.columns - 1))]


def _prompt_text(model: Model) -> str:
    link = model.link
    if link.given_up:
        return _("Could not connect: {error} · q quits").format(error=link.error)
    if link.status == "reconnecting":
        if model.seat_is_held():
            return _("Connection lost: reconnecting… (your seat is held)")
        return _("Connection lost: reconnecting…")
    if link.status == "connecting" and link.error:
        attempt, of = link.attempt
        return _("Trying again ({attempt} of {of})… {error}").format(
            attempt=attempt + 1, of=of, error=link.error
        )
    if model.screen is Screen.LOBBY:
        return lobby.prompt(model)
    if model.screen is Screen.CONNECTING:
        return connecting.prompt(model)
    view, table = model.view, model.table
    if table is None or view is None:
        return ""
    screen = table_screen(model, view)
    if model.game.is_over() or table.status == "waiting" or model.turn is not None:
        return screen.prompt(model)
    if model.pausing:
        return _("Trick over · Enter goes on")
    if model.pending is not None:
        return _("Sent; waiting for the server…")
    if view.current_player is None:
        return screen.prompt(model)
    return _("Waiting for {name}…").format(name=model.seat_name(view.current_player))


def render_status(model: Model, size: Dims = MIN_DIMS) -> StyleAndTextTuples:
    width = size.columns
    if model.flash:
        return [("class:flash", pad(" " + model.flash, width))]
    if model.screen is Screen.TABLE:
        keys = " " + _("?:help  Tab:score sheet  o:settings  m:chat  x:leave  Ctrl-C:quit")
    else:
        keys = " " + _("?:help  c:create  j:join  v:watch by code  q:quit")
    return [("class:status", pad(keys, width))]


def render_main(model: Model, size: Dims = MIN_DIMS) -> StyleAndTextTuples:
    """The main area: the lobby, the connecting screen, or the table and its phase."""
    if model.screen is Screen.LOBBY:
        return join(lobby.main(model, size))
    view = model.view
    if model.screen is Screen.CONNECTING or view is None or model.table is None:
        return join(connecting.main(model, size))
    centre = table_screen(model, view).centre(model, view, size)
    return join(table_lines(model, view, size, centre))


def render_overlay(model: Model, size: Dims = MIN_DIMS) -> StyleAndTextTuples:
    """The window on show (nothing when none is)."""
    overlay = model.overlay
    if overlay is None:
        return []
    shown = window(overlay)
    out: list[Line] = [
        [("class:overlay.title", f" {shown.title(model)} "), ("class:dim", " " + _("(Esc closes)"))]
    ]
    if overlay is not Overlay.CREATE:
        out.append([])
    out.extend(shown.lines(model, size))
    return join(out)


def render_sheet(model: Model, size: Dims = MIN_DIMS) -> StyleAndTextTuples:
    """The score sheet as a column of its own, beside the table when the terminal is
    wide enough (see :class:`~client.draw.Dims`)."""
    if model.screen is not Screen.TABLE or model.view is None:
        return []
    return join([[("class:overlay.title", " " + _("Score sheet") + " ")], [], *sheet_lines(model)])


def render_side(model: Model, size: Dims = MIN_DIMS) -> StyleAndTextTuples:
    """The side bar: scores, bags, bids, tricks, whose turn, then the log."""
    lines: list[Line] = []
    view, table = model.view, model.table
    width = size.side - 1
    if model.screen is Screen.TABLE and view is not None and table is not None:
        me = view.seat if view.seat is not None else 0
        opp = 1 - me

        def row(label: str, a: str, b: str, style: str = "") -> Line:
            return [(style, f" {pad(label, 5)}{pad(a, 9, True)}{pad(b, 10, True)}")]

        hand = (
            " · " + _("hand {number}").format(number=view.hand_number) if view.hand_number else ""
        )
        target = _("target {score}").format(score=table.rules.target_score)
        lines.append([("class:dim", clip(f" {target}{hand}", width))])
        lines.append(
            row("", clip(model.seat_name(me), 8), clip(model.seat_name(opp), 9), "class:head")
        )
        lines.append(row(_("score"), str(view.scores[me]), str(view.scores[opp]), "class:head"))
        lines.append(row(_("bags"), str(view.bags[me]), str(view.bags[opp])))
        lines.append(row(_("bid"), bid_text(view, me), bid_text(view, opp)))
        lines.append(row(_("won"), str(view.tricks_won[me]), str(view.tricks_won[opp])))
        spade = "S" if model.settings.ascii_cards else "♠"
        broken = _("yes") if view.spades_broken else _("no")
        lines.append(
            [("class:dim", " " + _("{spade} broken: {answer}").format(spade=spade, answer=broken))]
        )
        if view.current_player is None:
            whose = "—"
        else:
            whose = (
                _("YOU")
                if view.current_player == view.seat
                else model.seat_name(view.current_player)
            )
        label = " " + _("turn:") + " "
        lines.append([("", label), ("class:turn", clip(whose, width - get_cwidth(label)))])
    else:
        lines.append([("class:head", " " + _("Welcome to Spades"))])
        lines.append([("class:dim", " " + _("two-handed, over the net"))])
    log = " " + _("log") + " "
    lines.append([("class:dim", " " + "─" * 8 + log + "─" * (width - 9 - get_cwidth(log)))])
    room = size.body - len(lines)
    wrapped: list[str] = []
    for entry in list(model.log)[-room:]:
        for index, part in enumerate(wrap(entry, width - 2)):
            wrapped.append((" " if index == 0 else "  ") + part)
    for part in wrapped[-room:]:
        lines.append([("class:log", clip(part, width))])
    return join(lines)


def render_screen_text(model: Model, size: Dims = MIN_DIMS) -> str:
    """The whole screen as plain text (title, main beside side, prompt, status, overlay)."""
    main = fragments_text(render_main(model, size)).split("\n")
    side = fragments_text(render_side(model, size)).split("\n")
    sheet = fragments_text(render_sheet(model, size)).split("\n") if size.sheet else []
    rows = [fragments_text(render_title(model, size))]
    for index in range(size.body):
        left = main[index] if index < len(main) else ""
        right = side[index] if index < len(side) else ""
        row = pad(left, size.main) + "│" + right
        if size.sheet:
            extra = sheet[index] if index < len(sheet) else ""
            row = pad(row, size.main + 1 + size.side) + "│" + extra
        rows.append(row)
    rows.append(fragments_text(render_prompt(model, size)))
    rows.append(fragments_text(render_status(model, size)))
    if model.overlay is not None:
        rows.append(fragments_text(render_overlay(model, size)))
    text = "\n".join(rows)
    return to_ascii(text) if model.settings.ascii_cards else text
