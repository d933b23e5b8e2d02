"""The server as a process: kill -9 and resume from the store, SIGTERM, the bot client,
and bot decisions in real worker processes."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from client.bot_client import add_bot_arguments, play, run_bot
from engine import GameState, RuleSet, parse_action, replay
from protocol import convert
from protocol import messages as m
from server import RunningServer
from tests.server.helpers import Client, drive, play_to_end, run

ROOT = Path(__file__).resolve().parents[2]


class ServerProcess:
    """``python3 -m server --port 0 --db PATH`` with test-friendly limits (and ``extra``
    flags, such as ``--store postgresql://...``)."""

    def __init__(self, db: Path, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", "server", "--port", "0", "--db", str(db),
                "--bot-delay", "0", "--bot-workers", "0", "--rate", "10000",
                "--rate-burst", "10000", "--log-level", "WARNING", *extra,
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        self.url = ""

    async def start(self) -> ServerProcess:
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(self.proc.stdout.readline), 30)
        assert line.startswith("spades server listening on ws://127.0.0.1:"), line
        self.url = line.split()[-1]
        return self

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def test_kill_9_mid_game_and_the_game_resumes_exactly(tmp_path: Path) -> None:
    async def test() -> None:
        db = tmp_path / "spades.db"
        server = await ServerProcess(db).start()
        try:
            first = await Client.hello(server.url, "alice")
            second = await Client.hello(server.url, "bob")
            rules: dict[str, int | bool | str | None] = {"target_score": 300, "lose_score": -300}
            snap = await first.request(m.CreateTable(overrides=rules), m.Snapshot)
            code = snap.table.code
            await second.request(m.JoinTable(code=code), m.Snapshot)

            async def in_hand_two(index: int, turn: m.YourTurn) -> bool:
                if index != 0 or turn.phase != "play":
                    return False
                return (await first.snapshot(code)).view.hand_number >= 2

            _, turn = await drive([first, second], random.Random(31), in_hand_two)
            before = [await first.snapshot(code), await second.snapshot(code)]
            assert before[0].view.hand_results  # hand 1 is over: its seed was revealed
        finally:
            server.kill()  # SIGKILL

        server = await ServerProcess(db).start()
        try:
            again = [
                await Client.hello(server.url, "alice", token=first.token),
                await Client.hello(server.url, "bob", token=second.token),
            ]
            for client, old in zip(again, before, strict=True):
                assert client.welcome is not None and client.welcome.resumed
                assert client.welcome.tables == (code,)
                snap = await client.expect(m.Snapshot)
                assert snap.view == old.view
            turn = await again[0].expect(m.YourTurn)
            assert turn.version == before[0].view.version
            again[0].seq, again[1].seq = first.seq, second.seq
            over = await asyncio.gather(
                play_to_end(again[0], random.Random(32), first=turn),
                play_to_end(again[1], random.Random(33)),
            )
            assert isinstance(over[0], m.GameOver)
            reply = await again[0].request(
                m.GetRecord(record_id=over[0].record_id), m.RecordMessage
            )
        finally:
            server.kill()

        record = json.loads(reply.record_json)
        final = replay(record)  # the whole game, across the crash, replays identically
        assert final.is_over and final.winner == over[0].winner
        # the state before the crash is a prefix of the finished game
        state = GameState(RuleSet.from_dict(record["rules"]))
        for seat, text in record["actions"][: before[0].view.version]:
            state.apply(seat, parse_action(text))
        for seat in (0, 1):
            assert convert.view_message(state.view_for(seat), code) == before[seat].view
        assert final.hand_results[: len(before[0].view.hand_results)] == [
            convert.hand_result_from_message(r) for r in before[0].view.hand_results
        ]

    asyncio.run(asyncio.wait_for(test(), 120))


def test_sigterm_closes_connections_with_1001_and_keeps_the_store(tmp_path: Path) -> None:
    async def test() -> None:
        db = tmp_path / "spades.db"
        server = await ServerProcess(db).start()
        try:
            client = await Client.hello(server.url, "alice")
            snap = await client.request(m.CreateTable(), m.Snapshot)
            server.proc.send_signal(signal.SIGTERM)
            code = await asyncio.to_thread(server.proc.wait, 20)
            assert code == 0
            try:
                while True:
                    await client.recv(5)
            except ConnectionError:
                pass
            assert client.ws.close_code == 1001
        finally:
            server.kill()
        server = await ServerProcess(db).start()
        try:
            again = await Client.hello(server.url, "alice", token=client.token)
            assert again.welcome is not None and again.welcome.tables == (snap.table.code,)
        finally:
            server.kill()

    asyncio.run(asyncio.wait_for(test(), 60))


def test_the_bot_client_plays_a_whole_game_over_the_protocol() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "dave")
        snap = await client.request(
            m.CreateTable(overrides={"target_score": 100, "lose_score": -100}, private=True),
            m.Snapshot,
        )
        listed = await client.request(m.ListTables(), m.TableList)
        assert snap.table.code not in [t.code for t in listed.tables]  # private
        bot = asyncio.create_task(play(server.url, snap.table.code.lower(), level="easy", seed=4))
        over = await play_to_end(client, random.Random(4))
        assert isinstance(over, m.GameOver)
        assert await bot == 1

    run(test)


def test_bots_think_in_worker_processes() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "erin")
        await client.request(
            m.CreateTable(overrides={"target_score": 60, "lose_score": -60}, bot="easy"),
            m.Snapshot,
        )
        over = await play_to_end(client, random.Random(6))
        assert isinstance(over, m.GameOver)
        assert server.hub.bots.uses_processes
        workers = server.hub.bots.worker_pids
        assert workers
        assert all(pid != os.getpid() for pid in workers)

    run(test, bot_workers=1)


def test_the_bot_command_fails_cleanly_on_an_unknown_table() -> None:
    async def test(server: RunningServer) -> None:
        parser = argparse.ArgumentParser()
        add_bot_arguments(parser)
        args = parser.parse_args([server.url, "--table", "NOSUCH22", "--level", "easy"])
        assert await asyncio.to_thread(run_bot, args) == 1

    run(test)
