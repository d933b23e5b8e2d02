"""The ``spades`` command in the player's language: --help (argparse's own words too),
its errors, the demo, replay and analyze; and the language the settings window saves for
the next run (--lang, then the saved language, then LANGUAGE/LC_ALL/LANG)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit.utils import get_cwidth

from client import cli
from client.i18n import LANGUAGES, _, install, language
from client.i18n_argparse import translate_error
from client.model import Settings
from client.saved_settings import load_language, save_language, settings_file
from engine import Deal, GameState, RuleSet, game_record
from engine.bot import Bot
from tests.client.helpers import seed_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A config folder of this test's own, an English environment, English afterwards."""
    config = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    yield config
    install("en")


def help_text(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stopped:
        cli.main([*argv, "--help"])
    assert stopped.value.code == 0
    return capsys.readouterr().out


def test_help_follows_lang_with_argparse_own_words(capsys: pytest.CaptureFixture[str]) -> None:
    english = help_text([], capsys)
    assert english.startswith("usage: spades")
    assert "\noptions:\n" in english and "show this help message and exit" in english
    german = help_text(["--lang", "de"], capsys)
    assert german.startswith("Aufruf: spades")
    assert "\nOptionen:\n" in german and "\npositionale Argumente:\n" in german
    assert "diese Hilfe anzeigen und beenden" in german
    assert "show this help message" not in german and "usage:" not in german
    japanese = help_text(["--lang", "ja", "replay"], capsys)
    assert japanese.startswith("使い方: spades replay")
    assert "オプション:" in japanese and "記録" in japanese


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_subcommand_help_is_written_in_every_language(
    code: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # argparse %-formats each help text: a translation with a stray % would raise here
    for command in ("play", "replay", "analyze", "demo"):
        text = help_text(["--lang", code, command], capsys)
        assert text.startswith(f"{_('usage: ')}spades {command}")
    assert language() == code


@pytest.mark.parametrize("command", ["", "play", "replay", "analyze", "demo"])
def test_japanese_help_fits_the_terminal_and_lines_up(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # argparse lays its help out for the terminal's width
    text = help_text(["--lang", "ja", *([command] if command else [])], capsys)
    lines = text.splitlines()
    assert all(get_cwidth(line) <= 80 for line in lines), [
        line for line in lines if get_cwidth(line) > 80
    ]
    # the usage's next lines start under the first argument, by columns ("使い方: " is 8)
    usage = lines[: lines.index("")]
    head = f"使い方: spades {command} ".replace("  ", " ")
    assert usage[0].startswith(head) and len(usage) > 1
    indents = {len(line) - len(line.lstrip()) for line in usage[1:]}
    assert indents == {get_cwidth(head)}
    wide = [line for line in lines if any(get_cwidth(char) == 2 for char in line)]
    assert wide  # the help is Japanese


def test_the_server_commands_keep_their_english_help(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_text(["--lang", "de", "bot"], capsys)
    assert text.startswith("usage: spades bot") and "\noptions:\n" in text


def test_a_parser_error_is_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["demo", "--lang", "de", "--rules", "bridge"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("Aufruf: spades demo")
    assert "spades demo: Fehler: Argument --rules: ungültige Auswahl: 'bridge'" in err
    install("nl")
    assert translate_error("unrecognized arguments: --x") == "onbekende argumenten: --x"
    assert translate_error("something argparse says one day") == "something argparse says one day"


def test_the_demo_prints_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--lang", "de", "demo", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Hand 1: Gebote ") and "Stiche" in lines[0]
    assert lines[-1].startswith("Platz ") and " gewinnt " in lines[-1]


def record_file(tmp_path: Path) -> Path:
    state = GameState(RuleSet.preset("classic"))
    bots = (Bot("easy", seed=1), Bot("easy", seed=2))
    hands = 0
    while not state.is_over and hands < 2:
        seat = state.current_player
        if seat is None:
            state.apply(None, Deal(seed_of(hands)))
            continue
        state.apply(seat, bots[seat].choose(state.view_for(seat)))
        hands = len(state.hand_results)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record(state)), encoding="utf-8")
    return path


def test_replay_and_analyze_print_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = record_file(tmp_path)
    assert cli.main(["replay", str(path), "--print", "--lang", "el"]) == 0
    out = capsys.readouterr().out
    assert "Αναπαραγωγή · χέρι 1 από 2" in out and "Replay" not in out
    assert cli.main(["--lang", "ja", "analyze", str(path), "--level", "easy"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("席 0 の分析") and "Analysis" not in out


def test_replay_and_analyze_write_cards_in_the_languages_letters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = record_file(tmp_path)
    assert cli.main(["replay", str(path), "--print", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    # German decks: Bube, Dame (B, D) where English has J, Q
    assert re.search(r"(?<!\w)[BD][♠♥♦♣]", out) and not re.search(r"(?<!\w)[JQ][♠♥♦♣]", out)
    assert cli.main(["analyze", str(path), "--lang", "nl", "--ascii", "--all"]) == 0
    out = capsys.readouterr().out
    # Dutch in ASCII: boer, vrouw, heer (B, V, H) and the suits' initials (k r h s)
    assert re.search(r"(?<!\w)(10|[2-9BVHA])[KRHS](?!\w)", out)
    assert not re.search(r"(?<!\w)[JQ][CDHS](?!\w)", out) and "♠" not in out


def test_ascii_turns_japanese_and_greek_output_to_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = record_file(tmp_path)
    assert cli.main(["--lang", "el", "replay", str(path), "--print", "--ascii"]) == 0
    assert " Replay · hand 1 of 2" in capsys.readouterr().out


def test_a_language_chosen_in_the_settings_window_is_the_next_runs(
    isolated: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a first run: the player picks Dutch in the settings window
    settings = cli._settings(cli.build_parser().parse_args([]))
    assert settings.language == "en"
    while settings.language != "nl":
        settings.change("language")
    assert json.loads((isolated / "spades" / "settings.json").read_text()) == {"language": "nl"}
    install("en")
    # the second run, with no --lang: Dutch, from its help on
    assert help_text([], capsys).startswith("Gebruik: spades")
    assert cli._settings(cli.build_parser().parse_args([])).language == "nl"
    # --lang beats the saved language, and is not saved itself
    assert help_text(["--lang", "el"], capsys).startswith("Χρήση: spades")
    assert load_language() == "nl"


def test_the_saved_language_beats_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert cli._chosen_language(cli.build_parser().parse_args([])) == "de"
    save_language("ja")
    assert cli._chosen_language(cli.build_parser().parse_args([])) == "ja"
    monkeypatch.setenv("LANGUAGE", "el")
    assert cli._chosen_language(cli.build_parser().parse_args([])) == "ja"


@pytest.mark.parametrize(
    "body", ["{not json", "[1, 2]", '{"language": "fr"}', '{"language": 7}', ""]
)
def test_a_broken_settings_file_falls_back_to_the_environment(
    body: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = settings_file()
    path.parent.mkdir(parents=True)
    path.write_text(body, encoding="utf-8")
    assert load_language() is None
    monkeypatch.setenv("LANG", "el_GR.UTF-8")
    assert cli._chosen_language(cli.build_parser().parse_args([])) == "el"
    save_language("de")  # a broken file is replaced by a good one
    assert load_language() == "de"


def test_a_settings_path_that_cannot_be_a_folder_is_left_be(isolated: Path) -> None:
    # a file where the folder should be (unwritable even for root)
    isolated.mkdir()
    (isolated / "spades").write_text("a file, not a folder")
    settings = Settings(on_language=save_language)
    settings.change("language")
    assert settings.language == "de" and language() == "de"
    assert load_language() is None
    assert cli._chosen_language(cli.build_parser().parse_args(["--lang", "ja"])) == "ja"


def test_the_settings_file_keeps_other_settings(isolated: Path) -> None:
    path = settings_file()
    assert path == isolated / "spades" / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"theme": "dark", "language": "de"}), encoding="utf-8")
    save_language("el")
    assert json.loads(path.read_text()) == {"theme": "dark", "language": "el"}
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]  # no temporary left


def test_without_xdg_config_home_the_file_is_under_dot_config(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert settings_file() == tmp_path / ".config" / "spades" / "settings.json"


def test_requested_language_is_found_anywhere_in_the_command_line() -> None:
    assert cli.requested_language(["replay", "x.json", "--lang", "ja"]) == "ja"
    assert cli.requested_language(["--lang=el", "demo"]) == "el"
    assert cli.requested_language(["demo", "--seed", "3"]) is None
    assert cli.requested_language(["demo", "--lang"]) is None
