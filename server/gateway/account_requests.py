"""The accounts' requests: register, sign in, change password, sign out everywhere,
delete, profile and leaderboard; and the accounts' seams into hello, the lobby and rooms.

    requests = AccountRequests(store, players, rooms, work, spawn, time.time, attempts)
    router.handlers.update(requests.handlers())     # server.app wires these
    hello_parts.signed_in = requests.hello_token    # a token of an account's session
    rooms.game_ended = requests.rater.ended         # rated in the game's end's turn

A request that hashes a password (register, sign in, change password, delete) is checked
first (its attempt counted by ``attempts``: :mod:`server.accounts.limits`, in memory or in
Redis for a cluster), then hashed in a thread (:mod:`server.accounts.passwords`), then
finished in a later turn of the loop: its writes join that turn's commit and its answer
goes out after it (a refused commit refuses it, as any request). Signing in moves the
connection from its guest to the account's player (the account's seats come back to it,
an older connection of the account is closed with 4000). Raises
:class:`~server.errors.RequestError` to refuse.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from protocol import messages as m
from protocol.text import TextError, clean_name
from server.accounts.limits import Attempts
from server.accounts.passwords import Passwords
from server.accounts.profile import leaderboard_message, profile_message, rating_lines
from server.accounts.rating import Rater, StoredRatings
from server.accounts.service import Accounts, check_new_password
from server.errors import RequestError
from server.gateway.session import Session
from server.lobby import names
from server.lobby.players import Player, Players
from server.lobby.registry import Rooms
from server.lobby.turn import UnitOfWork
from server.logs import event
from server.store import PlayerRow, Storage
from server.store.accounts_rows import AccountRow

__all__ = ["AccountRequests"]

log = logging.getLogger("server")


class AccountRequests:
    """The accounts' handlers and seams (see the module)."""

    def __init__(
        self,
        store: Storage,
        players: Players,
        rooms: Rooms,
        work: UnitOfWork,
        spawn: Callable[[Awaitable[None]], object],
        wall_clock: Callable[[], float],
        attempts: Attempts | None = None,
    ) -> None:
        self.store = store
        self.players = players
        self.rooms = rooms
        self.work = work
        # the router's way to run a request and answer its failures (server.app sets it)
        self.answered: Callable[[Session, Any, Callable[[Session, Any], None]], None]
        self.spawn = spawn
        self.wall_clock = wall_clock
        self.passwords = Passwords()
        self.accounts = Accounts(store, names, attempts)
        self.rater = Rater(store, self.accounts.last_address)
        self.ratings = StoredRatings(store, wall_clock)

    def handlers(self) -> dict[type, Callable[[Session, Player, Any], None]]:
        return {
            m.Register: self.register,
            m.SignIn: self.sign_in,
            m.ChangePassword: self.change_password,
            m.SignOutEverywhere: self.sign_out_everywhere,
            m.DeleteAccount: self.delete_account,
            m.GetProfile: self.get_profile,
            m.GetLeaderboard: self.get_leaderboard,
        }

    # ---- seams -------------------------------------------------------------------------

    def hello_token(self, token: str, address: str) -> PlayerRow | None:
        """The account whose session ``token`` is, for ``hello`` (None: not one)."""
        row = self.accounts.account_of_token(token)
        if row is None:
            return None
        self.accounts.last_address[row.player_id] = address
        return PlayerRow(row.player_id, row.name)

    def is_account(self, player_id: str) -> bool:
        return self.store.accounts.account(player_id) is not None

    # ---- requests ----------------------------------------------------------------------

    def register(self, session: Session, player: Player, message: m.Register) -> None:
        if self.is_account(player.id):
            raise RequestError("bad_message", "you are signed in to an account already")
        name = self.accounts.check_register(message.name, message.password)

        async def work() -> None:
            try:
                await self.accounts.limit_register(session.address)
            except RequestError as refusal:
                self._resume(session, player, message, _raising(refusal))
                return
            hashed = await self.passwords.hash(message.password)
            self._resume(
                session,
                player,
                message,
                lambda: self._registered(session, player, name, hashed, message.id),
            )

        self.spawn(work())

    def _registered(
        self, session: Session, player: Player, name: str, hashed: str, req_id: int | None
    ) -> None:
        self.players.keep(player)  # the guest's row, if only memory had them
        token = self.accounts.store_register(player.id, name, hashed, self.wall_clock())
        self.accounts.last_address[player.id] = session.address
        self.players.names.release(player)
        player.name = name
        self.players.names.claim(player)
        log.info(
            "connection %d: player %s registered",
            session.id,
            player.id,
            extra=event("account.register", conn=session.id, player=player.id),
        )
        session.send(self._signed_in(player.id, name, token, req_id))

    def sign_in(self, session: Session, player: Player, message: m.SignIn) -> None:
        if self.is_account(player.id):
            raise RequestError("bad_message", "you are signed in to an account already")
        if any(room.status == "playing" for room in self.rooms.tables_of(player.id)):
            raise RequestError("not_signed_in", "finish or leave your game as a guest first")
        key = self.accounts.sign_in_key(message.name)
        account = self.accounts.account_of_key(key)
        # an unknown name costs a hash too: the answer's time does not say which it was
        hashed = self.passwords.dummy_hash if account is None else account.password_hash

        async def work() -> None:
            try:
                await self.accounts.limit_sign_in(key, session.address)
            except RequestError as refusal:
                self._resume(session, player, message, _raising(refusal))
                return
            right = await self.passwords.verify(hashed, message.password)

            def finish() -> None:
                if account is None or not right:
                    raise RequestError("bad_credentials", "no such account, or a wrong password")
                if self.store.accounts.account(account.player_id) is None:  # deleted meanwhile
                    raise RequestError("bad_credentials", "no such account, or a wrong password")
                now = self.wall_clock()
                token = self.accounts.signed_in(account.player_id, session.address, now)
                self.spawn(self.accounts.give_back_sign_in(key))
                self._switch(session, player, account.player_id, account.name)
                session.send(self._signed_in(account.player_id, account.name, token, message.id))

            self._resume(session, player, message, finish)

        self.spawn(work())

    def _switch(self, session: Session, guest: Player, player_id: str, name: str) -> None:
        """The connection leaves its guest for the account's player."""
        players = self.players
        players.names.release(guest)
        guest.conn = None
        if guest.unstored_token_hash is not None and not self.rooms.tables_of(guest.id):
            players.forget(guest)
        player = players.known(player_id, name)
        old = player.conn
        if old is not None and old is not session:
            old.player = None
            old.close_soon(4000, "signed in on another connection")
        player.conn = session
        session.player = player
        holder = players.names.holder(player.name)
        if holder is None:
            players.names.claim(player)
        for room in self.rooms.tables_of(player_id):
            index = room.seat_of(player_id)
            if index is not None:
                room.reconnect(index, session)

    def change_password(self, session: Session, player: Player, message: m.ChangePassword) -> None:
        account = self._account(player)
        check_new_password(message.new_password)

        async def work() -> None:
            right = await self.passwords.verify(account.password_hash, message.old_password)
            hashed = await self.passwords.hash(message.new_password) if right else ""

            def finish() -> None:
                if not right:
                    raise RequestError("bad_credentials", "the password is wrong")
                self.accounts.change_password(player.id, hashed)
                session.send(m.AccountDone(done="password_changed", id=message.id))

            self._resume(session, player, message, finish)

        self.spawn(work())

    def sign_out_everywhere(
        self, session: Session, player: Player, message: m.SignOutEverywhere
    ) -> None:
        self._account(player)
        token = self.accounts.sign_out_everywhere(player.id, self.wall_clock())
        session.send(m.AccountDone(done="signed_out", token=token, id=message.id))

    def delete_account(self, session: Session, player: Player, message: m.DeleteAccount) -> None:
        account = self._account(player)

        async def work() -> None:
            right = await self.passwords.verify(account.password_hash, message.password)

            def finish() -> None:
                if not right:
                    raise RequestError("bad_credentials", "the password is wrong")
                self.accounts.delete(player.id)
                log.info(
                    "connection %d: account %s deleted",
                    session.id,
                    player.id,
                    extra=event("account.delete", conn=session.id, player=player.id),
                )
                session.send(m.AccountDone(done="deleted", id=message.id))
                session.close_soon(1000, "account deleted")

            self._resume(session, player, message, finish)

        self.spawn(work())

    def get_profile(self, session: Session, player: Player, message: m.GetProfile) -> None:
        try:
            key = names.skeleton(clean_name(message.name))
        except TextError:
            key = ""
        account = self.store.accounts.account_by_skeleton(key) if key else None
        if account is None:
            raise RequestError("unknown_account", f"no account is named {message.name!r}")
        session.send(profile_message(self.store, account, message.id, self.wall_clock()))

    def get_leaderboard(self, session: Session, player: Player, message: m.GetLeaderboard) -> None:
        session.send(leaderboard_message(self.store, message.preset, message.id, self.wall_clock()))

    # ---- helpers -----------------------------------------------------------------------

    def _account(self, player: Player) -> AccountRow:
        account = self.store.accounts.account(player.id)
        if account is None:
            raise RequestError("not_signed_in", "sign in to an account first")
        return account

    def _signed_in(self, player_id: str, name: str, token: str, req_id: int | None) -> m.SignedIn:
        return m.SignedIn(
            player_id=player_id,
            name=name,
            token=token,
            ratings=rating_lines(self.store, player_id, now=self.wall_clock()),
            id=req_id,
        )

    def _resume(
        self, session: Session, player: Player, message: Any, finish: Callable[[], None]
    ) -> None:
        """Finish a request after its hash, answered as the router answers every request
        (``answered``: a refusal sent, a failed read answered, writes noted for this turn's
        commit), then the commit asked for: this runs in a task of its own."""
        if session.closed or session.player is not player:
            return  # the connection went or became someone else meanwhile
        writes = self.store.write_attempts
        self.answered(session, message, lambda _session, _message: finish())
        if self.store.write_attempts != writes:
            self.work.schedule()


def _raising(refusal: RequestError) -> Callable[[], None]:
    """A request's finish that refuses it with ``refusal`` (answered as any refusal)."""

    def refuse() -> None:
        raise refusal

    return refuse
