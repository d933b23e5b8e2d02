"""Issue 25 (hardening 3), the hello flood: an address opening connections faster than
its rate has the extra ones closed as they are accepted, before any handshake.

Refused later (the hello answered ``rate_limited`` by the address's request budget),
each connection cost the server a whole handshake: the HTTP request parsed, a 101
answer, the connection's objects and a reader task, some 0.5 ms of the loop, and the
honest players' pings waited behind bursts of them.
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace

import pytest

from protocol import messages as m
from server import RunningServer
from server.config import ServerConfig
from server.limits import ConnectRates
from server.net import admission as admission_module
from tests.server.helpers import TEST_CONFIG, Client, handshakes_started, run, serve_config


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _answer(port: int, source: str) -> bytes:
    """A whole websocket upgrade request from ``source``; what the server sends back
    before it closes (``b""``: closed without a word)."""
    request = (
        b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port), timeout=20, source_address=(source, 0)) as s:
        try:
            s.sendall(request)
            answer = b""
            while not answer.endswith(b"\r\n\r\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                answer += chunk
        except (ConnectionResetError, BrokenPipeError):  # aborted: nothing to read
            return b""
        return answer


def test_connections_past_an_address_rate_are_closed_before_any_handshake(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    made: list[ConnectRates] = []

    def with_clock(config: ServerConfig) -> ConnectRates:
        made.append(ConnectRates(config, clock=clock))
        return made[-1]

    monkeypatch.setattr(admission_module, "ConnectRates", with_clock)
    started = handshakes_started(monkeypatch)

    async def test(server: RunningServer) -> None:
        (rates,) = made
        answers = [await asyncio.to_thread(_answer, server.port, "127.0.0.7") for _ in range(8)]
        # the burst of 3 is welcomed to a handshake; the 5 after it get nothing at all
        assert [a.startswith(b"HTTP/1.1 101 ") for a in answers] == [True] * 3 + [False] * 5
        assert answers[3:] == [b""] * 5
        assert len(started) == 3  # no handshake was built for the 5 shed
        assert rates.shed == 5
        # another address still gets in and plays
        honest = await Client.hello(server.url, "honest")
        assert (await honest.request(m.Ping(nonce=7), m.Pong)).nonce == 7
        assert len(started) == 4
        # half a second later the flooding address has one connection back (2 a second)
        clock.now += 0.5
        again = [await asyncio.to_thread(_answer, server.port, "127.0.0.7") for _ in range(2)]
        assert again[0].startswith(b"HTTP/1.1 101 ")
        assert again[1] == b""
        assert rates.shed == 6
        await honest.close()

    run(test, connects_per_second_per_address=2.0, connects_burst_per_address=3)


def test_the_connect_rate_counts_by_share_and_spares_trusted_proxies() -> None:
    clock = Clock()
    config = replace(
        TEST_CONFIG,
        connects_per_second_per_address=1.0,
        connects_burst_per_address=2,
        trusted_proxies=("10.0.0.2",),
    )
    rates = ConnectRates(config, clock=clock)
    # one IPv6 /64 is one share, whichever of its addresses connects
    assert rates.admit("2001:db8:1:2::1")
    assert rates.admit("2001:db8:1:2::ffff")
    assert not rates.admit("2001:db8:1:2:abcd::9")
    assert rates.admit("2001:db8:1:3::1")  # the next /64 is another share
    assert rates.admit("::ffff:192.0.2.1")  # IPv4-mapped: the IPv4 address's share
    assert rates.admit("192.0.2.1")
    assert not rates.admit("192.0.2.1")
    assert all(rates.admit("10.0.0.2") for _ in range(100))  # the proxy: everyone's
    assert rates.shed == 2
    clock.now += 1.0  # one second: one more each
    assert rates.admit("192.0.2.1")
    assert not rates.admit("192.0.2.1")
    assert rates.shed == 3


def test_a_connect_rate_of_zero_is_no_bound() -> None:
    rates = ConnectRates(replace(TEST_CONFIG, connects_per_second_per_address=0.0))
    assert all(rates.admit("192.0.2.1") for _ in range(1000))
    assert rates.shed == 0


def test_the_defaults_let_fifty_players_behind_one_nat_reconnect_at_once() -> None:
    clock = Clock()
    rates = ConnectRates(ServerConfig(), clock=clock)
    assert all(rates.admit("198.51.100.7") for _ in range(50))
    assert not rates.admit("198.51.100.7")
    clock.now += 5.0  # the burst is back within five seconds
    assert all(rates.admit("198.51.100.7") for _ in range(50))


def test_spades_serve_takes_the_connect_rate() -> None:
    config = serve_config(
        "--connects-per-second-per-address", "4.5", "--connects-burst-per-address", "12"
    )
    assert config.connects_per_second_per_address == 4.5
    assert config.connects_burst_per_address == 12
    defaults = serve_config()
    assert (
        defaults.connects_per_second_per_address == ServerConfig().connects_per_second_per_address
    )
    assert defaults.connects_burst_per_address == ServerConfig().connects_burst_per_address


def test_idle_shares_are_forgotten_and_busy_ones_kept() -> None:
    clock = Clock()
    config = replace(TEST_CONFIG, connects_per_second_per_address=1.0, connects_burst_per_address=1)
    rates = ConnectRates(config, clock=clock)
    rates.CHECK_EVERY = rates._check_at = 8
    for index in range(8):
        assert rates.admit(f"192.0.2.{index}")
    assert len(rates.buckets) == 8
    clock.now += 0.5  # none has refilled: all are kept, the next pass is further off
    assert rates.admit("192.0.2.100")
    assert len(rates.buckets) == 9
    assert not rates.admit("192.0.2.0")  # still remembered: still refused
    clock.now += 10.0  # all full again: forgotten at the next pass
    for index in range(8):
        assert rates.admit(f"198.51.100.{index}")
    assert rates.admit("203.0.113.1")
    assert len(rates.buckets) < 18
    assert "192.0.2.0" not in rates.buckets
