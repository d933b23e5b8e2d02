"""The prompt_toolkit application: a layout that reads the model, and one key factory.

    model = ClientModel(name)
    app = build_application(model)               # input/output default to the terminal
    await app.run_async()

The layout calls the render functions of :mod:`client.render` through
``FormattedTextControl``, with the terminal's size read at each redraw (the size is
passed into drawing, never kept in the model); :func:`make_key_bindings`, the one key
factory, turns every key into a :meth:`~client.model.ClientModel.press` call. Nothing
here keeps state of its own or writes into the model: it gives the model what the app
provides through :meth:`~client.model.Model.attach`.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path

from prompt_toolkit.application import Application, get_app, run_in_terminal
from prompt_toolkit.application.current import set_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    ConditionalContainer,
    DynamicContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output

from client.draw import Dims
from client.model import ClientModel
from client.render import (
    MAIN_WIDTH,
    MIN_COLUMNS,
    MIN_ROWS,
    STYLE,
    finish,
    render_main,
    render_overlay,
    render_prompt,
    render_sheet,
    render_side,
    render_status,
    render_title,
    render_too_small,
)

__all__ = [
    "KEY_NAMES",
    "big_enough",
    "build_application",
    "build_layout",
    "make_key_bindings",
]

# prompt_toolkit key -> the model's key name
KEY_NAMES: dict[str, str] = {
    Keys.Left: "left",
    Keys.Right: "right",
    Keys.Up: "up",
    Keys.Down: "down",
    Keys.Enter: "enter",
    Keys.ControlM: "enter",
    Keys.Escape: "escape",
    Keys.Tab: "tab",
    Keys.ControlI: "tab",
    Keys.Backspace: "backspace",
    Keys.ControlH: "backspace",
    " ": "space",
}


def big_enough(app: Application[None]) -> bool:
    """Whether ``app``'s terminal is at least the minimum size (everything visible)."""
    size = app.output.get_size()
    return size.columns >= MIN_COLUMNS and size.rows >= MIN_ROWS


def make_key_bindings(model: ClientModel) -> KeyBindings:
    """Every key binding of the client: each key becomes one ``model.press`` call.
    Below the minimum size only Ctrl-C (and its aliases) acts: a key must never act on a
    screen the player cannot see."""
    bindings = KeyBindings()
    visible = Condition(lambda: big_enough(get_app()))

    @bindings.add(Keys.ControlC)
    @bindings.add(Keys.ControlQ)
    @bindings.add(Keys.F10)
    def _quit(event: KeyPressEvent) -> None:
        model.interrupt()
        _after(event, model)

    for key, name in KEY_NAMES.items():

        def handler(event: KeyPressEvent, name: str = name) -> None:
            model.press(name)
            _after(event, model)

        bindings.add(key, eager=key == Keys.Escape, filter=visible)(handler)

    @bindings.add(Keys.Any, filter=visible)
    def _any(event: KeyPressEvent) -> None:
        for press in event.key_sequence:
            text = press.data
            if len(text) == 1 and text.isprintable():
                model.press(text)
        _after(event, model)

    return bindings


def _after(event: KeyPressEvent, model: ClientModel) -> None:
    if model.quit_requested and event.app.is_running:
        future = event.app.future
        if future is None or not future.done():
            event.app.exit()


Render = Callable[[ClientModel, Dims], StyleAndTextTuples]


def _dims() -> Dims:
    """The running app's terminal size, cut up for drawing."""
    size = get_app().output.get_size()
    return Dims.of(size.columns, size.rows)


def _control(model: ClientModel, render: Render) -> FormattedTextControl:
    return FormattedTextControl(lambda: finish(model, render(model, _dims())))


def _text(model: ClientModel, render: Render) -> Window:
    return Window(_control(model, render), height=1)


def _frame(model: ClientModel, body: Window, width: int) -> HSplit:
    """A box around ``body`` drawn with box characters, or ``+-|`` under ``--ascii``."""

    def char(fancy: str, plain: str) -> Callable[[], str]:
        return lambda: plain if model.settings.ascii_cards else fancy

    def edge(left: str, right: str) -> VSplit:
        return VSplit(
            [
                Window(width=1, height=1, char=char(left, "+")),
                Window(height=1, char=char("─", "-")),
                Window(width=1, height=1, char=char(right, "+")),
            ]
        )

    middle = VSplit(
        [Window(width=1, char=char("│", "|")), body, Window(width=1, char=char("│", "|"))]
    )
    return HSplit([edge("┌", "┐"), middle, edge("└", "┘")], width=width, style="class:overlay")


def build_layout(model: ClientModel) -> Layout:
    """The screen: title, main area beside the side bar, prompt and status lines, and a
    floating window for help, settings, chat, the score sheet and hand results. Below
    the minimum size only a notice (see :func:`~client.render.render_too_small`)."""
    body = HSplit(
        [
            _text(model, render_title),
            VSplit(
                [
                    Window(
                        _control(model, render_main),
                        width=MAIN_WIDTH,
                        wrap_lines=False,
                    ),
                    Window(
                        width=1,
                        char=lambda: "|" if model.settings.ascii_cards else "│",
                        style="class:dim",
                    ),
                    Window(
                        _control(model, render_side),
                        width=lambda: _dims().side,
                        wrap_lines=False,
                    ),
                    ConditionalContainer(
                        VSplit(
                            [
                                Window(
                                    width=1,
                                    char=lambda: "|" if model.settings.ascii_cards else "│",
                                    style="class:dim",
                                ),
                                Window(_control(model, render_sheet), wrap_lines=False),
                            ]
                        ),
                        filter=Condition(lambda: _dims().sheet > 0),
                    ),
                ]
            ),
            _text(model, render_prompt),
            _text(model, render_status),
        ]
    )
    overlay_body = Window(_control(model, render_overlay), dont_extend_height=True)
    overlay = ConditionalContainer(
        _frame(model, overlay_body, 76),
        filter=Condition(lambda: model.overlay is not None),
    )
    table = FloatContainer(content=body, floats=[Float(content=overlay, top=1)])
    too_small = Window(
        FormattedTextControl(
            lambda: finish(model, render_too_small(model, get_app().output.get_size()))
        ),
        wrap_lines=False,
    )

    def current() -> FloatContainer | Window:
        return table if big_enough(get_app()) else too_small

    return Layout(DynamicContainer(current))


def build_application(
    model: ClientModel,
    *,
    input: Input | None = None,
    output: Output | None = None,
    refresh_interval: float | None = 0.5,
) -> Application[None]:
    """The full-screen application over ``model`` (terminal I/O unless given)."""
    app: Application[None] = Application(
        layout=build_layout(model),
        key_bindings=make_key_bindings(model),
        style=STYLE,
        full_screen=True,
        mouse_support=False,
        input=input,
        output=output,
        refresh_interval=refresh_interval,
    )

    def quit_app() -> None:
        if app.is_running:
            future = app.future
            if future is None or not future.done():
                app.exit()

    def analyse(record_json: str, seat: int | None) -> None:
        """Game over, key a: ``spades analyze`` on the record, the screen suspended."""
        from client.analyze import show_analysis

        record = json.loads(record_json)
        ascii_only = model.settings.ascii_cards
        with set_app(app):  # called from the network task: make this app the current one
            run_in_terminal(
                lambda: show_analysis(record, seat, ascii_only=ascii_only), in_executor=True
            )

    def replay(record_json: str) -> None:
        """A profile's game, Enter: ``spades replay`` on its record, the screen suspended."""
        from client.replay import run_replay

        ascii_only = model.settings.ascii_cards

        def show() -> None:
            with tempfile.TemporaryDirectory(prefix="spades-replay-") as folder:
                path = Path(folder) / "record.json"
                path.write_text(record_json, encoding="utf-8")
                run_replay(str(path), ascii_only=ascii_only)

        with set_app(app):  # called from the network task: make this app the current one
            run_in_terminal(show, in_executor=True)

    model.attach(on_quit=quit_app, on_analysis=analyse, on_replay=replay)
    return app
