"""GET /metrics: scraped over HTTP from a real server after real actions."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from protocol import messages as m
from server import RunningServer, start_server
from tests.server.helpers import FAST, Client, choose, drive, run, two_players

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            body = response.read().decode()
            return response.status, response.headers.get("Content-Type", ""), body
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read().decode()


async def scrape(server: RunningServer) -> Samples:
    """Every sample of the server's metrics page, keyed by name and sorted labels."""
    assert server.metrics_url is not None
    status, kind, body = await asyncio.to_thread(_get, server.metrics_url)
    assert status == 200 and kind.startswith("text/plain"), (status, kind)
    out: Samples = {}
    for family in text_string_to_metric_families(body):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_move_with_real_actions() -> None:
    async def test(server: RunningServer) -> None:
        assert server.metrics_url is not None
        assert server.metrics_url.startswith("http://127.0.0.1:")
        before = await scrape(server)
        assert value(before, "spades_connections") == 0
        assert value(before, "spades_actions_total", actor="human") == 0
        assert value(before, "process_resident_memory_bytes") > 1_000_000
        assert value(before, "process_open_fds") > 3

        first, second, code = await two_players(server)
        played = 0

        async def stop(index: int, turn: m.YourTurn) -> bool:
            nonlocal played
            played += 1
            return played > 12

        index, turn = await drive([first, second], random.Random(5), stop)
        # an action out of turn, and one of a bad version: errors by code
        other = [first, second][1 - index]
        action = await choose([first, second][index], turn, random.Random(1))
        await other.error(
            m.Act(code=code, action=action, version=turn.version, seq=99), "not_your_turn"
        )
        await other.error(m.JoinTable(code="NOSUCHTABLE"), "unknown_table")

        after = await scrape(server)
        assert value(after, "spades_connections") == 2
        assert value(after, "spades_players") == 2
        assert value(after, "spades_connections_opened_total") == 2
        humans = value(after, "spades_actions_total", actor="human")
        assert humans == 12
        assert value(after, "spades_actions_total", actor="dealer") >= 1  # the deal
        assert value(after, "spades_action_latency_seconds_count", stage="commit") == humans
        assert value(after, "spades_action_latency_seconds_count", stage="send") == humans
        assert value(after, "spades_action_latency_seconds_sum", stage="send") > 0
        assert value(after, "spades_store_commit_seconds_count") > value(
            before, "spades_store_commit_seconds_count"
        )
        phases = {
            labels[0][1]: count
            for (name, labels), count in after.items()
            if name == "spades_tables" and labels
        }
        assert sum(phases.values()) == 1, phases
        assert phases.get(turn.phase, 0) == 1, (phases, turn.phase)
        assert value(after, "spades_errors_total", code="not_your_turn") == 1
        assert value(after, "spades_errors_total", code="unknown_table") == 1

    run(test, metrics_port=0)


def test_bot_decisions_are_timed_by_level() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "carol")
        await client.request(
            m.CreateTable(preset="classic", overrides=FAST, bot="easy", seat=1), m.Snapshot
        )
        moves = 0
        rng = random.Random(2)
        while moves < 6:  # the bot moves between our turns
            turn = await client.expect(m.YourTurn)
            client.seq += 1
            action = await choose(client, turn, rng)
            await client.send(
                m.Act(code=turn.table, action=action, version=turn.version, seq=client.seq)
            )
            moves += 1
        samples = await scrape(server)
        easy = value(samples, "spades_bot_decision_seconds_count", level="easy")
        assert easy >= 1
        assert easy == value(samples, "spades_actions_total", actor="bot")
        assert value(samples, "spades_bot_decision_seconds_count", level="hard") == 0

    run(test, metrics_port=0)


def test_rate_limit_refusals_are_counted() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "dave")
        for nonce in range(10):
            await client.send(m.Ping(nonce=nonce))
        refused = 0
        for _ in range(10):
            reply = await client.recv()
            refused += isinstance(reply, m.ErrorMessage) and reply.code == "rate_limited"
        samples = await scrape(server)
        assert refused >= 1
        assert value(samples, "spades_rate_limited_total", kind="request") == refused
        assert value(samples, "spades_errors_total", code="rate_limited") == refused

    # a burst of 4 (hello takes one) with almost no refill
    run(test, metrics_port=0, rate_messages_per_second=0.01, rate_burst=4)


def test_metrics_are_off_by_default_and_never_on_the_main_port() -> None:
    async def test(server: RunningServer) -> None:
        assert server.metrics_url is None
        status, _, _ = await asyncio.to_thread(_get, f"http://127.0.0.1:{server.port}/metrics")
        assert status == 404

    run(test)


def test_the_metrics_port_answers_only_metrics() -> None:
    async def test(server: RunningServer) -> None:
        assert server.metrics_url is not None
        status, _, _ = await asyncio.to_thread(_get, server.metrics_url.replace("/metrics", "/"))
        assert status == 404
        # two servers in one process: each its own registry, each its own figures
        other = await start_server(replace(server.hub.config, metrics_port=0))
        try:
            await Client.hello(server.url, "erin")
            mine, theirs = await scrape(server), await scrape(other)
            assert value(mine, "spades_connections_opened_total") == 1
            assert value(theirs, "spades_connections_opened_total") == 0
        finally:
            await other.close()

    run(test, metrics_port=0)


def test_spades_serve_flags_for_metrics_and_json_logs() -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    command = [sys.executable, "-m", "server", "--port", "0", "--db", ":memory:"]
    command += ["--metrics-port", "0", "--log-format", "json"]
    server = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        assert server.stdout is not None
        printed = [server.stdout.readline() for _ in range(3)]
        assert printed[2].startswith("metrics: http://127.0.0.1:"), printed
        status, _, body = _get(printed[2].split()[-1])
        assert status == 200 and "spades_connections 0.0" in body
    finally:
        server.terminate()
        _, errors = server.communicate(timeout=30)
    lines = [json.loads(line) for line in errors.splitlines()]
    assert lines and all({"time", "level", "event", "message"} <= set(line) for line in lines)
    assert any(line["message"].startswith("metrics on http://127.0.0.1:") for line in lines)


def test_chat_refusals_are_counted_apart() -> None:
    async def test(server: RunningServer) -> None:
        alice, _, code = await two_players(server)
        replies = []
        for number in range(8):  # the chat budget: bursts of 5, one line a second
            await alice.send(m.Chat(code=code, text=f"line {number}"))
        await alice.send(m.Ping(nonce=1, id=9999))  # every chat is answered before it
        while not isinstance(reply := await alice.recv(), m.Pong):
            replies.append(reply)
        refused = sum(isinstance(r, m.ErrorMessage) and r.code == "rate_limited" for r in replies)
        samples = await scrape(server)
        assert refused >= 1
        assert value(samples, "spades_rate_limited_total", kind="chat") == refused
        assert value(samples, "spades_rate_limited_total", kind="request") == 0

    run(test, metrics_port=0)


def test_the_metrics_page_names_no_library_or_version() -> None:
    def headers(url: str) -> str:
        with urllib.request.urlopen(url, timeout=10) as response:
            return str(response.headers.get("Server", ""))

    async def test(server: RunningServer) -> None:
        assert server.metrics_url is not None
        assert await asyncio.to_thread(headers, server.metrics_url) == "spades"

    run(test, metrics_port=0)
