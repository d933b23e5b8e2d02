"""Whole games over the network: two protocol clients, and a client against the bot."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from engine import replay
from protocol import messages as m
from server import RunningServer
from tests.server.helpers import FAST, Client, play_to_end, run, two_players


@pytest.mark.parametrize("preset", ["classic", "five-hundred"])
def test_two_clients_play_a_whole_game(preset: str) -> None:
    async def test(server: RunningServer) -> None:
        first, second, _ = await two_players(server, preset)
        over = await asyncio.gather(
            play_to_end(first, random.Random(1)), play_to_end(second, random.Random(2))
        )
        assert isinstance(over[0], m.GameOver) and over[0] == over[1]
        assert over[0].reason == "score"
        record = await first.request(m.GetRecord(record_id=over[0].record_id), m.RecordMessage)
        state = replay(json.loads(record.record_json))
        assert state.is_over and state.winner == over[0].winner
        assert state.scores == [line.score for line in over[0].scores]

    run(test)


@pytest.mark.parametrize("preset", ["classic", "five-hundred"])
def test_a_client_plays_the_bot(preset: str) -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "carol")
        await client.request(
            m.CreateTable(preset=preset, overrides=FAST, bot="easy", seat=1), m.Snapshot
        )
        over = await play_to_end(client, random.Random(3))
        assert isinstance(over, m.GameOver) and over.winner in (0, 1)
        record = await client.request(m.GetRecord(record_id=over.record_id), m.RecordMessage)
        assert replay(json.loads(record.record_json)).is_over

    run(test)
