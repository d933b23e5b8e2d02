"""``get_analysis`` over a real websocket server: worked out in the bot workers, cached."""

from __future__ import annotations

import json
import random

import msgpack

from protocol import messages as m
from server import RunningServer
from tests.server.helpers import Client, play_to_end, run


async def _finished_game(server: RunningServer) -> tuple[Client, str]:
    client = await Client.hello(server.url, "carol")
    await client.request(
        m.CreateTable(preset="classic", overrides={"target_score": 1}, bot="easy", seat=1),
        m.Snapshot,
    )
    over = await play_to_end(client, random.Random(5))
    assert isinstance(over, m.GameOver) and over.record_id is not None
    return client, over.record_id


def test_get_analysis_answers_once_worked_out_and_then_from_the_store() -> None:
    async def test(server: RunningServer) -> None:
        client, record_id = await _finished_game(server)
        record = await client.request(m.GetRecord(record_id=record_id), m.RecordMessage)
        seat_actions = [a for s, a in json.loads(record.record_json)["actions"] if s == 1]
        ask = m.GetAnalysis(record_id=record_id, seat=1, level="easy")
        # two requests at once share one analysis
        first_id, second_id = client.new_id(), client.new_id()
        await client.send(ask.model_copy(update={"id": first_id}))
        await client.send(ask.model_copy(update={"id": second_id}))
        answers = {}
        while len(answers) < 2:
            reply = await client.expect(m.AnalysisMessage, timeout=60.0)
            answers[reply.id] = reply
        first, second = answers[first_id], answers[second_id]
        assert first.analysis_json == second.analysis_json
        assert (first.record_id, first.seat, first.level) == (record_id, 1, "easy")
        analysis = json.loads(first.analysis_json)
        decisions = [d for hand in analysis["hands"] for d in hand["decisions"]]
        assert [d["action"] for d in decisions] == seat_actions
        assert analysis["seat"] == 1 and analysis["level"] == "easy"
        assert server.hub.store.analysis_json(record_id, 1, "easy") == first.analysis_json
        again = await client.request(ask, m.AnalysisMessage, timeout=2.0)
        assert again.analysis_json == first.analysis_json

    run(test)


def test_get_analysis_refusals() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "dave")
        await client.error(m.GetAnalysis(record_id="nothing-here", seat=0), "record_not_available")
        reply = await client.request(m.Ping(nonce=1), m.Pong)  # still fine after a refusal
        assert reply.nonce == 1
        bad_seat = {"type": "get_analysis", "record_id": "x", "seat": 2, "id": 5}
        await client.send_raw(msgpack.packb(bad_seat))
        error = await client.expect(m.ErrorMessage)
        assert error.code == "bad_message"
        old = await Client.hello(server.url, "erin", minor=0)
        await old.error(m.GetAnalysis(record_id="x", seat=0), "bad_message")

    run(test)


def test_a_cached_analysis_is_answered_without_reading_its_record() -> None:
    # a flood of requests for cached analyses costs one read each, not two
    async def test(server: RunningServer) -> None:
        client, record_id = await _finished_game(server)
        ask = m.GetAnalysis(record_id=record_id, seat=0, level="easy")
        first = await client.request(ask, m.AnalysisMessage, timeout=60.0)
        store = server.hub.store
        record_reads: list[str] = []
        read_record = store.record_json

        def counted(wanted: str) -> str | None:
            record_reads.append(wanted)
            return read_record(wanted)

        setattr(store, "record_json", counted)  # noqa: B010 (mypy: a method of the store)
        again = await client.request(ask, m.AnalysisMessage, timeout=2.0)
        assert again.analysis_json == first.analysis_json
        assert record_reads == []
        other = await client.request(ask.model_copy(update={"seat": 1}), m.AnalysisMessage, 60.0)
        assert record_reads == [record_id]  # not cached: the record is read to work it out
        assert json.loads(other.analysis_json)["seat"] == 1

    run(test)
