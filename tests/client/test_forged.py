"""Nothing on a screen is forged: another player's name and chat, the server's words and
a crafted record are drawn without anything a terminal would act on; --ascii draws
nothing outside ASCII."""

from __future__ import annotations

import asyncio
import json
import random
import re
import unicodedata
from io import StringIO
from pathlib import Path

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.utils import get_cwidth

from client.model import ClientModel, Overlay, Settings
from client.render import (
    finish,
    fragments_text,
    render_main,
    render_overlay,
    render_prompt,
    render_screen_text,
    render_side,
    render_status,
    render_title,
)
from client.replay import run_replay
from client.text import safe_text, to_ascii
from client.ui import build_application
from engine import Deal, Exchange, GameState, Phase, RuleSet, game_record
from protocol import messages as m
from tests.client.helpers import CODE, advance_to, dealt, model_at, seed_of, snapshot

HOSTILE = [
    "\x1b]0;owned\x07",  # OSC: the terminal's title
    "\x1b[2J\x1b[H",  # CSI: clear the screen, home the cursor
    "\x9b31m",  # C1 CSI
    "ok\rSERVER",  # carriage return
    "abc\b\b\bXYZ",  # backspaces
    "\u202eevil",  # right-to-left override
    "zero\u200bwidth\u2060join\ufeff",  # zero-width characters and BOM
    "line one\nSERVER: opponent left; you win",  # a forged line
    "para\u2029graph\u2028sep",
    "z\u0301\u0302\u0303\u0304\u0305\u0306alg",  # stacked combining marks
]


def terminal_unsafe(text: str) -> list[str]:
    """Characters in ``text`` a terminal would act on or that reorder or hide text."""
    return [
        c
        for c in text
        if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn")
    ]


@pytest.mark.parametrize("text", HOSTILE)
def test_safe_text_keeps_nothing_a_terminal_acts_on(text: str) -> None:
    clean = safe_text(text)
    assert terminal_unsafe(clean) == []
    assert "\n" not in clean
    assert sum(1 for c in clean if unicodedata.combining(c)) <= 2


def test_hostile_chat_and_names_are_drawn_harmless() -> None:
    state = advance_to(dealt(), Phase.DRAFT, 0)
    opponent = m.SeatInfo(kind="human", name="mal\x1b[31mlory\u202e", connected=True)
    model = ClientModel("alice")
    model.handle(
        m.Welcome(
            protocol_version=1,
            server_versions=(1,),
            player_id="p",
            name="alice",
            token="t",
            resumed=True,
            tables=(CODE,),
        )
    )
    model.handle(snapshot(state, 0, opponent=opponent))
    for text in HOSTILE:
        model.handle(m.ChatMessage(table=CODE, seat=1, name="mal\x1b[31mlory", text=text))
    model.handle(m.ErrorMessage(code="bad_message", message="bad \x1b]0;x\x07 thing"))
    for overlay in (None, Overlay.CHAT):
        model.overlay = overlay
        text = render_screen_text(model)
        assert terminal_unsafe(text) == [], text
        rows = text.split("\n")
        assert not any(row.lstrip(" │").startswith("SERVER") for row in rows)
        assert all(get_cwidth(row) <= 80 for row in rows[:23])


def test_a_crafted_record_is_never_printed_raw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = dealt()
    record = game_record(state)
    record["actions"].append([0, "play \x1b]0;owned\x07\u202e"])
    path = tmp_path / "crafted\x1b[2J.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert run_replay(str(path), print_only=True) == 1
    out = capsys.readouterr().out
    assert "cannot replay" in out
    assert terminal_unsafe(out) == []


def test_the_record_file_name_is_ours(tmp_path: Path) -> None:
    model = model_at(advance_to(dealt(), Phase.DRAFT, 0))
    model.record_dir = tmp_path
    model.handle(m.RecordMessage(record_id="../../etc/x\x1b", record_json="{}"))
    assert model.saved_record == tmp_path / "spades-etcx.json"
    assert model.saved_record.read_text(encoding="utf-8") == "{}"


# ---- --ascii ---------------------------------------------------------------------------

REGIONS = (render_title, render_main, render_side, render_prompt, render_status, render_overlay)


def drawn_regions(model: ClientModel) -> str:
    return "\n".join(fragments_text(finish(model, region(model))) for region in REGIONS)


def test_ascii_draws_only_ascii_on_every_screen_of_random_games() -> None:
    overlays = [None, Overlay.SCORES, Overlay.HELP, Overlay.SETTINGS, Overlay.CHAT, Overlay.RESULT]
    for preset, seed in (("classic", 11), ("five-hundred", 12)):
        rng = random.Random(seed)
        state = GameState(RuleSet.preset(preset, target_score=150))
        steps = 0
        while not state.is_over and steps < 500:
            seat = state.current_player
            if seat is None:
                state.apply(None, Deal(seed_of(rng.randrange(10**6))))
                continue
            if steps % 4 == 0:
                for viewer in (0, 1, None):
                    model = model_at(state, viewer, settings=Settings(ascii_cards=True))
                    model.handle(m.ChatMessage(table=CODE, seat=1, name="bob", text="héllo ♠ ✓"))
                    model.overlay = overlays[steps // 4 % len(overlays)]
                    text = drawn_regions(model)
                    assert text.isascii(), [c for c in text if not c.isascii()]
            if state.phase is Phase.EXCHANGE:
                state.apply(seat, Exchange(tuple(state.hand_of(seat)[:1])))
            else:
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            steps += 1


def test_ascii_through_the_real_terminal_output() -> None:
    """The whole application drawn into a vt100 stream: frames, separators and all."""
    model = model_at(advance_to(dealt(), Phase.DRAFT, 0), settings=Settings(ascii_cards=True))
    stream = StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=24, columns=80), term="xterm")

    async def run() -> None:
        with create_pipe_input() as pipe:
            app = build_application(model, input=pipe, output=output, refresh_interval=None)
            task = asyncio.create_task(app.run_async())
            await asyncio.sleep(0.1)
            for key in ("\t", "\x1b", "?"):
                pipe.send_text(key)
                await asyncio.sleep(0.1)
            app.exit()
            await asyncio.wait_for(task, 5)

    asyncio.run(run())
    drawn = stream.getvalue()
    assert "Score sheet" in drawn and "At the table" in drawn
    assert drawn.isascii(), sorted({c for c in drawn if not c.isascii()})


def test_to_ascii_maps_the_clients_symbols() -> None:
    assert to_ascii("♠♥♦♣ · — … ✓ ✗ │ ─ ┌ ← → ▒") == "SHDC - - ... ok !! | - + <- -> #"
    assert re.fullmatch(r"[ -~]*", to_ascii("Ünïcödé ☃ 中"))


# ---- secrets at rest --------------------------------------------------------------------


def test_the_token_file_is_created_0600_without_a_later_chmod(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import stat

    from client.tokens import load_token, save_token

    # a chmod after writing would leave a window: forbid it, and open everything up
    monkeypatch.setattr(Path, "chmod", lambda self, mode: None)
    monkeypatch.setattr(os, "chmod", lambda *args, **kwargs: None)
    old_umask = os.umask(0)
    try:
        path = tmp_path / "state" / "tokens.json"
        save_token("ws://127.0.0.1:1/", "alice", "secret-token", path)
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_token("ws://127.0.0.1:1/", "alice", path) == "secret-token"
    assert sorted(p.name for p in path.parent.iterdir()) == ["tokens.json"]  # no tmp left
