"""The terminal profile opens a game's record: ↑/↓ choose one of the last games, Enter its
replay (the terminal replay viewer), a its analysis, as the browser's profile opens a
game from its date. The record is fetched once with get_record; a refusal is said; a
record asked for elsewhere (game over's s) is left to its own handling. Keys are typed
into the model, and once through the real application (the one key factory)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.model import ClientModel, Overlay, Screen
from client.render import render_screen_text
from client.ui import build_application
from protocol import messages as m
from tests.client.test_cli_replay import finished_record

RECORD = json.dumps(finished_record())


def _game(index: int, seat: int, won: bool) -> m.ProfileGame:
    return m.ProfileGame(
        record_id=f"rec-{index}",
        preset="classic",
        rated=True,
        outcome="score",
        seat=seat,
        opponent=f"rival{index}",
        won=won,
        scores=(312, 247) if won == (seat == 0) else (247, 312),
        rating_after=1500 + index,
        ended=1_780_000_000.0 - index * 86_400,
    )


HISTORY = (1510, 1490, 1503)
CLASSIC = m.RatingLine(
    preset="classic", rating=1503, deviation=180, provisional=True, games=3, wins=2, losses=1,
    history=HISTORY,
)  # fmt: skip
PROFILE = m.Profile(
    name="zoe",
    ratings=(CLASSIC,),
    wins=2,
    losses=1,
    games=(_game(1, 0, True), _game(2, 1, False), _game(3, 0, True)),
)


def _profile_open(sent: list[m.ClientMessage], tmp_path: Path) -> ClientModel:
    model = ClientModel("zoe", send=sent.append)
    model.record_dir = tmp_path
    model.screen = Screen.LOBBY
    model.account.signed_in = "zoe"
    model.press("m")
    assert model.overlay is Overlay.PROFILE and sent[-1] == m.GetProfile(name="zoe")
    model.handle(PROFILE)
    return model


def _chosen_line(model: ClientModel) -> str:
    (line,) = [row for row in render_screen_text(model).splitlines() if "›" in row]
    return line


def test_enter_opens_the_chosen_games_replay_and_a_its_analysis_fetched_once(
    tmp_path: Path,
) -> None:
    sent: list[m.ClientMessage] = []
    model = _profile_open(sent, tmp_path)
    replays: list[str] = []
    analyses: list[tuple[str, int | None]] = []
    model.attach(on_replay=replays.append, on_analysis=lambda r, s: analyses.append((r, s)))
    assert "rival1" in _chosen_line(model)  # the newest first
    assert "Enter its replay" in render_screen_text(model)
    model.press("down")
    assert "rival2" in _chosen_line(model)
    model.press("enter")
    assert sent[-1] == m.GetRecord(record_id="rec-2")
    assert model.overlay is Overlay.PROFILE and replays == []  # not before the record
    model.handle(m.RecordMessage(record_id="rec-2", record_json=RECORD))
    assert replays == [RECORD]
    # the profile's record is shown, not saved as game over's s saves one
    assert list(tmp_path.iterdir()) == []
    # its analysis: the profile's seat in that game (1), from the record already here
    count = len(sent)
    model.press("a")
    assert analyses == [(RECORD, 1)] and len(sent) == count
    # the choice stays within the games
    for _ in range(5):
        model.press("down")
    assert "rival3" in _chosen_line(model)
    for _ in range(5):
        model.press("up")
    assert "rival1" in _chosen_line(model)
    model.press("escape")
    assert model.overlay is None


def test_a_refused_record_is_said_and_another_records_answer_is_left_alone(
    tmp_path: Path,
) -> None:
    sent: list[m.ClientMessage] = []
    model = _profile_open(sent, tmp_path)
    replays: list[str] = []
    model.attach(on_replay=replays.append)
    model.press("enter")
    assert sent[-1] == m.GetRecord(record_id="rec-1")
    model.handle(m.ErrorMessage(code="record_not_available", message="gone", request="get_record"))
    assert model.account.asked is None and replays == []
    assert model.flash != "" and "Fetching" not in model.flash
    # game over's s asks for its own record: saved there, not opened by the profile
    model.handle(m.RecordMessage(record_id="rec-other", record_json=RECORD))
    assert replays == [] and (tmp_path / "spades-rec-other.json").exists()
    # a profile with no games: Enter closes it as before
    model.handle(PROFILE.model_copy(update={"games": ()}))
    model.press("enter")
    assert model.overlay is None


def test_the_keys_through_the_app_open_the_replay_viewer_on_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real application: the arrow and Enter typed into its input, the record's answer
    handed to the terminal replay viewer (client.replay.run_replay) on a file of it."""
    import client.replay

    shown: list[str] = []

    def viewer(path: str, **options: object) -> int:
        shown.append(Path(path).read_text(encoding="utf-8"))
        return 0

    monkeypatch.setattr(client.replay, "run_replay", viewer)
    sent: list[m.ClientMessage] = []
    model = _profile_open(sent, tmp_path)

    async def run() -> None:
        with create_pipe_input() as pipe:
            app = build_application(model, input=pipe, output=DummyOutput(), refresh_interval=None)
            task = asyncio.create_task(app.run_async())
            await asyncio.sleep(0.05)
            for chunk in ("\x1b[B", "\x1b[B", "\r"):  # down, down, Enter
                pipe.send_text(chunk)
                await asyncio.sleep(0.08)
            assert sent[-1] == m.GetRecord(record_id="rec-3")
            model.handle(m.RecordMessage(record_id="rec-3", record_json=RECORD))
            for _ in range(100):  # the viewer runs in the terminal, off the loop
                if shown:
                    break
                await asyncio.sleep(0.02)
            model.request_quit()
            await asyncio.wait_for(task, 5)

    asyncio.run(run())
    assert shown == [RECORD]
