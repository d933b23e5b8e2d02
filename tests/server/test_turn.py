"""The unit of work without sockets: stored before anyone hears, and a lost commit undone.

The registry, players, lobby handlers and unit of work of a real server, on an in-memory
SQLite store, with sessions that keep what is written to them and a manual room clock."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from protocol import convert
from protocol import messages as m
from protocol.codec import decode_server, encode
from server.bots import BotRunner
from server.cluster.directory import LocalDirectory
from server.errors import RequestError
from server.limits import AddressLimits
from server.lobby import handlers
from server.lobby.handlers import Lobby
from server.lobby.players import Player, Players
from server.lobby.registry import Rooms
from server.lobby.turn import UnitOfWork
from server.rooms.frames import Frame
from server.store import Store, StoreError
from tests.server.test_rooms import CONFIG, ManualClock


class Wire:
    """A session: frames queued (``pending``) until the unit of work flushes them into
    ``written``, as the gateway's session does."""

    def __init__(self, work: UnitOfWork) -> None:
        self.work = work
        self.id, self.address, self.minor, self.json = 1, "203.0.113.9", 1, False
        self.player: Player | None = None
        self.watching: set[str] = set()
        self.pending: list[bytes] = []
        self.written: list[BaseModel] = []
        self.closed: list[int] = []

    def send(self, message: BaseModel) -> None:
        self.send_frame(Frame(encode(message)))

    def send_frame(self, frame: Frame) -> None:
        if not self.pending:
            self.work.dirty(self)
        self.pending.append(frame.data)

    def credit(self, count: int, per_hand: bool = False) -> None: ...

    def flush(self) -> None:
        self.written.extend(decode_server(data) for data in self.pending)
        self.pending = []

    def close_soon(self, code: int, reason: str) -> None:
        self.closed.append(code)

    def of(self, kind: type[BaseModel]) -> list[Any]:
        return [message for message in self.written if isinstance(message, kind)]


class Counts:
    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None


class Server:
    def __init__(self, path: str = ":memory:") -> None:
        """``path``: a file makes the unit of work commit in its worker thread."""
        self.store = Store(path, autocommit=False)
        directory = LocalDirectory()
        self.work = UnitOfWork(
            self.store, Counts(), lambda: self.players, lambda: self.rooms, lambda: directory
        )
        self.players = Players(self.store, self.work.stored)
        self.clock = ManualClock()
        self.rooms = Rooms(
            CONFIG,
            self.store,
            BotRunner(0),
            Counts(),
            self.players,
            directory,
            self.work.touched,
            clock=lambda: self.clock,
        )
        self.lobby = Lobby(CONFIG, self.rooms, AddressLimits(CONFIG), BotRunner(0), self.clock.now)

    def welcome(self, name: str) -> tuple[Player, Wire]:
        player, _ = self.players.new(name)
        wire = Wire(self.work)
        player.conn, wire.player = wire, player
        return player, wire

    def request(self, handler: Callable[..., Any], wire: Wire, message: Any) -> None:
        """What the router does around a handler: a request that wrote is told."""
        writes = self.store.write_attempts
        try:
            assert wire.player is not None
            handler(self.lobby, wire, wire.player, message)
        except RequestError as error:
            wire.send(m.ErrorMessage(code=error.code, message=error.message, id=message.id))
        finally:
            if self.store.write_attempts != writes:
                self.work.wrote(wire, message.type, message.id)


def a_table(server: Server) -> tuple[str, Wire, Wire]:
    _, alice_wire = server.welcome("alice")
    _, bob_wire = server.welcome("bob")
    server.request(handlers.create_table, alice_wire, m.CreateTable(id=1))
    queued = [decode_server(data) for data in alice_wire.pending]
    (created,) = [reply for reply in queued if isinstance(reply, m.Snapshot)]
    code = created.table.code
    server.request(handlers.join_table, bob_wire, m.JoinTable(code=code, id=2))
    return code, alice_wire, bob_wire


def test_nothing_is_written_to_a_session_before_its_turn_is_committed() -> None:
    async def main() -> None:
        server = Server()
        code, alice, bob = a_table(server)
        assert alice.written == [] and bob.written == [] and alice.pending  # queued only
        # written (held for the commit), not committed: nobody heard yet
        assert server.store._open and server.store._held
        server.work.flush()
        assert not server.store._open and not server.store._db.in_transaction
        row = server.store.load_table(code)
        assert row is not None and row.status == "playing"
        assert alice.of(m.Snapshot) and bob.of(m.Snapshot) and alice.pending == []

    asyncio.run(main())


def test_a_lost_commit_restores_the_room_refuses_its_writers_and_tells_nobody() -> None:
    async def main() -> None:
        server = Server()
        code, alice, bob = a_table(server)
        server.work.flush()
        room = server.rooms.rooms[code]
        stored_version = room.state.version
        heard = (len(alice.written), len(bob.written))
        seat = room.state.current_player
        assert seat is not None
        mover = alice if seat == room.seat_of(alice.player.id if alice.player else "") else bob
        action = random.Random(1).choice(room.state.legal_actions(seat))
        act = m.Act(
            code=code, seq=1, version=stored_version, action=convert.action_message(action), id=7
        )
        server.request(handlers.act, mover, act)
        assert room.state.version > stored_version  # applied in memory, queued, not stored

        def full_disk() -> None:
            raise StoreError("disk full")

        commit, server.store.commit = server.store.commit, full_disk  # type: ignore[method-assign]
        server.work.flush()
        server.store.commit = commit  # type: ignore[method-assign]
        assert room.state.version == stored_version  # back to what the store has
        assert (len(alice.written), len(bob.written)) == heard  # nobody heard the move
        server.work.flush()  # the refusal goes out at the next turn
        (refusal,) = mover.of(m.ErrorMessage)
        assert (refusal.code, refusal.id) == ("internal_error", 7)
        assert len(server.store.load_actions(code, 1)) == stored_version

    asyncio.run(main())


def test_a_player_stored_in_a_lost_turn_is_memory_only_again() -> None:
    async def main() -> None:
        server = Server()
        alice, wire = server.welcome("alice")
        hashed = alice.unstored_token_hash
        server.request(handlers.create_table, wire, m.CreateTable(id=1))
        assert alice.unstored_token_hash is None  # stored with their first seat, this turn

        def full_disk() -> None:
            raise StoreError("disk full")

        server.store.commit = full_disk  # type: ignore[method-assign]
        server.work.flush()
        assert hashed is not None and alice.unstored_token_hash == hashed
        assert server.players.unstored[hashed] is alice
        assert server.rooms.rooms == {}  # the table was never stored: it left memory

    asyncio.run(main())
