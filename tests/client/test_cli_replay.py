"""The ``spades`` command line: help, version, demo, and the replay of a record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from client.cli import build_parser, main, normalise_url
from client.render import fragments_text
from client.replay import load_pages, render_page, run_replay
from engine import Deal, GameState, RuleSet, game_record
from engine.bot import Bot
from tests.client.helpers import seed_of


def finished_record(preset: str = "five-hundred", target: int = 120) -> dict[str, object]:
    state = GameState(RuleSet.preset(preset, target_score=target))
    bots = (Bot("easy", seed=1), Bot("easy", seed=2))
    while not state.is_over:
        seat = state.current_player
        if seat is None:
            state.apply(None, Deal(seed_of(len(state.hand_results) + 11)))
        else:
            state.apply(seat, bots[seat].choose(state.view_for(seat)))
    return game_record(state)


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert "spades 0.1.0" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    for command in ("play", "replay", "serve", "bot", "demo"):
        assert command in text
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    text = capsys.readouterr().out
    assert "--create" in text and "--join" in text and "--watch" in text


def test_play_arguments() -> None:
    args = build_parser().parse_args(
        ["play", "ws://example:1/", "--create", "--rules", "five-hundred", "--bot", "hard"]
    )
    assert args.url == "ws://example:1/" and args.create and args.bot == "hard"
    args = build_parser().parse_args(["--rules", "five-hundred", "--level", "easy"])
    assert args.command is None and args.rules == "five-hundred" and args.level == "easy"


def test_server_addresses() -> None:
    assert normalise_url("example.org") == "ws://example.org:8765/"
    assert normalise_url("example.org:9000") == "ws://example.org:9000/"
    assert normalise_url("wss://example.org/spades") == "wss://example.org/spades"
    assert normalise_url("ws://127.0.0.1:8765/") == "ws://127.0.0.1:8765/"


def test_demo_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "3"]) == 0
    assert "wins" in capsys.readouterr().out


def test_replay_pages_show_every_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = finished_record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    state, pages = load_pages(record)
    assert len(pages) == len(record["hands"])  # type: ignore[arg-type]
    for index, page in enumerate(pages):
        assert page.verified
        assert len(page.tricks) == 13
        text = fragments_text(render_page(state, pages, index))
        assert f"hand {page.number} of {len(pages)}" in text
        assert "replayed from the seed and both entropy values: ✓" in text
    assert "Game over" in fragments_text(render_page(state, pages, len(pages) - 1))
    assert main(["replay", str(path), "--print"]) == 0
    out = capsys.readouterr().out
    assert out.count("Tricks (leader's card first)") == len(pages)


def test_replay_refuses_a_bad_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = finished_record("classic", 60)
    record["scores"] = [1, 2]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert run_replay(str(path), print_only=True) == 1
    assert "cannot replay" in capsys.readouterr().out
    assert run_replay(str(tmp_path / "missing.json"), print_only=True) == 1


def test_replay_pages_with_the_keys(tmp_path: Path) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_record()))
    with create_pipe_input() as pipe:
        pipe.send_text("nnp\x1b[C\x1b[Dq")
        assert run_replay(str(path), input=pipe, output=DummyOutput()) == 0


def test_replay_print_has_no_key_hints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--print`` is for a pipe or a file: the paging keys do nothing there."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_record()))
    assert main(["replay", str(path), "--print"]) == 0
    out = capsys.readouterr().out
    assert "Game over" in out
    assert "q quit" not in out and "previous/next hand" not in out


def test_replay_print_into_a_closed_pipe_ends_without_a_traceback(tmp_path: Path) -> None:
    """``spades replay game.json --print | head`` : the reader leaves early, and the
    command ends quietly instead of printing a BrokenPipeError traceback."""
    import subprocess
    import sys

    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_record()))
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from client.cli import main; sys.exit(main())",
         "replay", str(path), "--print"],
        cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()  # like `head -1`: the reader is gone
    error = proc.stderr.read().decode()
    proc.wait(60)
    assert b"Replay" in first
    assert "Traceback" not in error and "BrokenPipe" not in error
