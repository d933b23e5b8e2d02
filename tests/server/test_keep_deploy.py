"""Deploying: the Dockerfile and the systemd units parse and use only flags that exist,
the container's command and health check work against a real server, the docs show the
files as they are, and a server stopped with SIGTERM mid-game resumes every game."""

from __future__ import annotations

import asyncio
import configparser
import json
import random
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

from client.cli import build_parser
from protocol import messages as m
from tests.server.helpers import FAST, Client, choose, drive

ROOT = Path(__file__).resolve().parents[2]

DOCKER_INSTRUCTIONS = {
    "FROM", "RUN", "CMD", "LABEL", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT", "VOLUME",
    "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL",
}  # fmt: skip


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) of each instruction of the Dockerfile: comments and blank
    lines dropped, continuation lines joined; fails on an unknown instruction."""
    logical: list[str] = []
    pending = ""
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.startswith("#"):
            continue  # a comment inside a continued instruction
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        logical.append(pending + stripped)
        pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    out = []
    for text in logical:
        keyword, _, rest = text.partition(" ")
        assert keyword.upper() in DOCKER_INSTRUCTIONS, f"unknown instruction {keyword!r}"
        assert keyword == keyword.upper(), f"{keyword}: instructions are written in capitals"
        out.append((keyword, rest.strip()))
    return out


def exec_form(arguments: str) -> list[str]:
    """A JSON array of strings (the exec form), or a failed assertion."""
    value = json.loads(arguments)
    assert isinstance(value, list) and value and all(isinstance(v, str) for v in value)
    return value


def instruction(name: str) -> list[str]:
    return [rest for keyword, rest in dockerfile() if keyword == name]


def test_the_dockerfile_parses_and_runs_spades_serve_with_flags_that_exist() -> None:
    (base,) = instruction("FROM")  # one stage, one base
    assert base == "python:3.11-slim"
    (command,) = instruction("CMD")
    argv = exec_form(command)
    assert argv[:2] == ["spades", "serve"]
    args = build_parser().parse_args(argv[1:])  # argparse exits on an unknown flag
    assert (args.host, args.db, args.port) == ("0.0.0.0", "/data/spades.db", 8765)
    assert not instruction("ENTRYPOINT")
    (volume,) = instruction("VOLUME")
    assert exec_form(volume) == [str(Path(args.db).parent)]  # the store is in the volume
    assert instruction("EXPOSE") == [str(args.port)]
    assert instruction("STOPSIGNAL") == ["SIGTERM"]
    (user,) = instruction("USER")
    assert user not in ("root", "0")
    assert any("pip install ." in run for run in instruction("RUN"))
    for copy in instruction("COPY"):
        *sources, _ = copy.split()
        for source in sources:
            assert (ROOT / source).exists(), source
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", "tests", "*.db"} <= set(ignored)
    assert not {"engine", "protocol", "server", "client", "pyproject.toml"} & set(ignored)


def healthcheck_command() -> list[str]:
    (check,) = instruction("HEALTHCHECK")
    options, _, command = check.partition("CMD ")
    assert re.fullmatch(r"(--[a-z-]+=\w+ ?)*", options.strip() + " " if options.strip() else "")
    return exec_form(command)


def test_the_container_command_serves_and_its_health_check_passes(tmp_path: Path) -> None:
    (command,) = instruction("CMD")
    # the image's command as it is, except: loopback only, any free port, a scratch store
    argv = [sys.executable, "-m", "client.cli", *exec_form(command)[1:]]
    argv += ["--host", "127.0.0.1", "--port", "0", "--db", str(tmp_path / "spades.db")]
    server = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("spades server listening on ws://127.0.0.1:"), line
        port = line.rsplit(":", 1)[1].strip("/\n")
        check = healthcheck_command()
        assert check[0] == "python3" and "http://127.0.0.1:8765/healthz" in check[-1]
        script = check[-1].replace(":8765/", f":{port}/")
        ok = subprocess.run([sys.executable, *check[1:-1], script], timeout=30)
        assert ok.returncode == 0
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
        failing = subprocess.run([sys.executable, *check[1:-1], script], capture_output=True)
        assert failing.returncode != 0  # the check does fail when nothing answers
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        if server.stdout is not None:
            server.stdout.close()


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read_string((ROOT / "deploy" / name).read_text())
    return parser


def test_the_systemd_unit_runs_spades_serve_as_its_own_user_hardened() -> None:
    service = unit("spades.service")
    assert set(service.sections()) == {"Unit", "Service", "Install"}
    section = service["Service"]
    argv = shlex.split(section["ExecStart"])
    assert argv[0].startswith("/") and argv[0].endswith("/bin/spades") and argv[1] == "serve"
    args = build_parser().parse_args(argv[1:])  # every flag exists
    assert args.host == "127.0.0.1" and args.trusted_proxy == ["127.0.0.1"]  # behind a proxy
    assert Path(args.db).parent == Path("/var/lib") / section["StateDirectory"]
    assert section["User"] not in ("root", "0") and section["Group"]
    assert section["KillSignal"] == "SIGTERM"
    assert section["Restart"] in ("on-failure", "always")
    for option in ("NoNewPrivileges", "ProtectHome", "PrivateTmp", "PrivateDevices"):
        assert section[option] == "yes", option
    assert section["ProtectSystem"] == "strict"
    assert section["CapabilityBoundingSet"] == ""
    assert service["Install"]["WantedBy"] == "multi-user.target"


def test_the_backup_timer_runs_spades_backup_of_the_services_store() -> None:
    serve = build_parser().parse_args(
        shlex.split(unit("spades.service")["Service"]["ExecStart"])[1:]
    )
    backup = unit("spades-backup.service")["Service"]
    assert backup["Type"] == "oneshot"
    argv = shlex.split(backup["ExecStart"])
    assert argv[0].endswith("/bin/spades") and argv[1] == "backup"
    args = build_parser().parse_args(argv[1:])
    assert args.db == serve.db
    assert args.path in backup["ReadWritePaths"].split()
    timer = unit("spades-backup.timer")
    assert timer["Timer"]["Unit"] == "spades-backup.service" and timer["Timer"]["OnCalendar"]
    assert timer["Install"]["WantedBy"] == "timers.target"


def test_the_docs_show_the_files_as_they_are() -> None:
    deploy = (ROOT / "docs" / "hosting.md").read_text()
    shown = re.search(r"```ini\n(.*?)```", deploy, re.S)
    assert shown is not None
    service = (ROOT / "deploy" / "spades.service").read_text().splitlines()
    for line in shown.group(1).splitlines():
        if not line.startswith("#"):
            assert line in service, f"docs/hosting.md shows {line!r}, not in the unit"
    (command,) = instruction("CMD")
    run = " ".join(exec_form(command))
    readme = (ROOT / "README.md").read_text()
    hosting = readme.split("\n## Hosting\n", 1)[1].split("\n## ", 1)[0]
    for text in (deploy, hosting):
        assert run in text  # the container's command as the docs give it
    commands = re.findall(r"spades (serve|backup|restore)((?: [^`\n|;]*)?)", hosting + deploy)
    assert {"serve", "backup", "restore"} <= {name for name, _ in commands}
    for name, rest in commands:
        known = options_of(name)
        for flag in re.findall(r"(?<![\w-])--[a-z][a-z-]+", rest):
            assert flag in known, f"spades {name} {flag} is documented but does not exist"


def options_of(command: str) -> set[str]:
    """Every option string of the subcommand ``command`` of ``spades``."""
    import argparse

    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            sub = action.choices[command]
            return {flag for each in sub._actions for flag in each.option_strings}
    raise AssertionError("spades has no subcommands")


class ServeProcess:
    """The real ``spades serve`` on a free loopback port and the store ``db``."""

    def __init__(self, db: Path) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "client.cli", "serve", "--port", "0", "--db", str(db),
                "--bot-delay", "0", "--bot-workers", "0", "--rate", "10000",
                "--rate-burst", "10000", "--entropy-seconds", "0", "--log-level", "WARNING",
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        self.url = ""

    async def start(self) -> ServeProcess:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(self.proc.stdout.readline), 30)
        assert line.startswith("spades server listening on ws://127.0.0.1:"), line
        self.url = line.split()[-1]
        return self

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def test_sigterm_mid_game_and_every_game_resumes_after_the_restart(tmp_path: Path) -> None:
    """The upgrade path: SIGTERM with two games in the middle of a hand, start again on the
    same store, every player resumes with its token at the same move and play goes on."""

    async def test() -> None:
        db = tmp_path / "spades.db"
        server = await ServeProcess(db).start()
        tables: list[tuple[str, list[Client], m.Snapshot]] = []
        try:
            for number in range(2):
                first = await Client.hello(server.url, f"a{number}")
                second = await Client.hello(server.url, f"b{number}")
                snap = await first.request(m.CreateTable(overrides=FAST), m.Snapshot)
                code = snap.table.code
                await second.request(m.JoinTable(code=code), m.Snapshot)
                moves = 0

                async def mid_hand(
                    index: int, turn: m.YourTurn, limit: int = 30 + 5 * number
                ) -> bool:
                    nonlocal moves
                    moves += 1
                    return moves > limit  # in the middle of hand 1

                await drive([first, second], random.Random(number), mid_hand)
                tables.append((code, [first, second], await first.snapshot(code)))
            server.proc.send_signal(signal.SIGTERM)
            assert await asyncio.to_thread(server.proc.wait, 30) == 0
            for _, clients, _ in tables:
                for client in clients:
                    try:
                        while True:
                            await client.recv(10)
                    except ConnectionError:
                        pass
                    assert client.ws.close_code == 1001  # "going away": come back
        finally:
            server.stop()

        server = await ServeProcess(db).start()
        try:
            for code, clients, before in tables:
                again = []
                for client in clients:
                    back = await Client.hello(server.url, "x", token=client.token)
                    assert back.welcome is not None and back.welcome.resumed
                    assert back.welcome.tables == (code,)
                    snap = await back.expect(m.Snapshot)
                    assert snap.view.version == before.view.version
                    if client is clients[0]:
                        assert snap.view == before.view  # the same seat, the same cards
                    back.seq = client.seq
                    again.append(back)
                moves = 0

                async def five_more(index: int, turn: m.YourTurn) -> bool:
                    nonlocal moves
                    moves += 1
                    return moves > 5

                index, turn = await drive(again, random.Random(9), five_more)
                mover = again[index]
                mover.seq += 1
                action = await choose(mover, turn, random.Random(10))
                move = m.Act(code=code, action=action, version=turn.version, seq=mover.seq)
                ack = await mover.request(move, m.Ack)
                assert ack.version == before.view.version + 6
                for client in again:
                    await client.close()
        finally:
            server.stop()

    asyncio.run(asyncio.wait_for(test(), 120))
