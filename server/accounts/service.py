"""Accounts: register, sign in, change password, sign out everywhere, delete; their limits.

    accounts = Accounts(store, names, attempts)    # names: server.lobby.names (module)
    name = accounts.check_register(name, password)         # RequestError, or the clean name
    await accounts.limit_register(address)                 # RequestError rate_limited
    hashed = await passwords.hash(password)                # off the loop (the gateway awaits)
    token = accounts.store_register(player_id, name, hashed, now)

Each request is checked before the slow hash (so a refused one costs nothing) and written
after it, in the turn that answers it. A name is an account's if its skeleton is taken
(:func:`server.lobby.names.skeleton`, given as ``names``: look-alikes, case and accents
folded). Attempts are bounded by ``attempts`` (:mod:`server.accounts.limits`: in memory on
a node of its own, in Redis for a cluster): sign-ins per account and per address,
registrations per address (``rate_limited`` beyond them). Raises
:class:`~server.errors.RequestError` for a refusal and ``StoreError`` for the store.
"""

from __future__ import annotations

import secrets
from typing import Protocol

from protocol.text import TextError, clean_name
from server.accounts.limits import (
    REGISTER_ADDRESS,
    SIGN_IN_ACCOUNT,
    SIGN_IN_ADDRESS,
    Attempts,
    MemoryAttempts,
)
from server.accounts.passwords import MIN_PASSWORD
from server.errors import RequestError
from server.store import Storage, token_hash
from server.store.accounts_rows import AccountRow

__all__ = ["Accounts", "Names", "check_new_password"]


class Names(Protocol):
    """How names compare (server.lobby.names, given by whoever builds :class:`Accounts`:
    the lobby sits above accounts in the server's layers)."""

    def skeleton(self, name: str) -> str: ...

    def reserved(self, name: str) -> bool: ...


class Accounts:
    """The accounts' rules over the store's rows (see the module)."""

    def __init__(self, store: Storage, names: Names, attempts: Attempts | None = None) -> None:
        self.store = store
        self.names = names
        self.attempts: Attempts = attempts or MemoryAttempts()
        self.last_address: dict[str, str] = {}  # account id -> address it last came from

    def _clean(self, name: str) -> str:
        try:
            clean = clean_name(name)
        except TextError as error:
            raise RequestError("bad_name", str(error)) from None
        if self.names.reserved(clean):
            raise RequestError("bad_name", f"the name {clean!r} is one the game uses itself")
        return clean

    # ---- register ----------------------------------------------------------------------

    def check_register(self, name: str, password: str) -> str:
        """The clean name, or a refusal: bad_name, bad_password, name_taken."""
        clean = self._clean(name)
        _check_new_password(password)
        if self.store.accounts.account_by_skeleton(self.names.skeleton(clean)) is not None:
            raise RequestError("name_taken", f"an account's name looks like {clean!r}")
        return clean

    async def limit_register(self, address: str) -> None:
        """Spend a registration of ``address``; ``rate_limited`` when none is left."""
        if not await self.attempts.take(REGISTER_ADDRESS, address):
            raise RequestError(
                "rate_limited", "too many registrations from your address; try in an hour"
            )

    def store_register(self, player_id: str, name: str, hashed: str, now: float) -> str:
        """Store the account (checked again: another may have taken the name during the
        hash) and its first session; returns the session's token."""
        rows = self.store.accounts
        if rows.account_by_skeleton(self.names.skeleton(name)) is not None:
            raise RequestError("name_taken", f"an account's name looks like {name!r}")
        if rows.account(player_id) is not None:
            raise RequestError("bad_message", "this player already has an account")
        rows.add_account(player_id, name, self.names.skeleton(name), hashed, now)
        rows.end_sessions(player_id, _nobodys_hash())  # the guest token is no session now
        return self.new_session(player_id, now)

    def new_session(self, player_id: str, now: float) -> str:
        token = secrets.token_urlsafe(32)
        self.store.accounts.add_session(token_hash(token), player_id, now)
        return token

    # ---- sign in -----------------------------------------------------------------------

    def sign_in_key(self, name: str) -> str:
        """The skeleton a sign-in with ``name`` is counted and looked up by
        (``bad_credentials`` for a name no account can have)."""
        try:
            return self.names.skeleton(clean_name(name))
        except TextError:
            raise RequestError("bad_credentials", "no such account, or a wrong password") from None

    async def limit_sign_in(self, key: str, address: str) -> None:
        """Spend an attempt of the address, then of the account ``key`` (``rate_limited``
        when either is spent: the account's is not spent when the address's was)."""
        if not await self.attempts.take(SIGN_IN_ADDRESS, address):
            raise RequestError(
                "rate_limited", "too many sign-in attempts from your address; try later"
            )
        if not await self.attempts.take(SIGN_IN_ACCOUNT, key):
            raise RequestError(
                "rate_limited", "too many sign-in attempts for this account; try later"
            )

    def account_of_key(self, key: str) -> AccountRow | None:
        return self.store.accounts.account_by_skeleton(key)

    async def give_back_sign_in(self, key: str) -> None:
        """A right password gives the account's attempt back."""
        await self.attempts.give_back(SIGN_IN_ACCOUNT, key)

    def signed_in(self, player_id: str, address: str, now: float) -> str:
        """A right password: returns a new session's token (the attempt is given back by
        :meth:`give_back_sign_in`)."""
        self.last_address[player_id] = address
        return self.new_session(player_id, now)

    # ---- the signed-in account ---------------------------------------------------------

    def account_of_token(self, token: str) -> AccountRow | None:
        return self.store.accounts.account_by_session(token_hash(token))

    def change_password(self, player_id: str, hashed: str) -> None:
        self.store.accounts.set_password(player_id, hashed)

    def sign_out_everywhere(self, player_id: str, now: float) -> str:
        """Every session ends; returns a new one's token for the connection that asked."""
        self.store.accounts.end_sessions(player_id, _nobodys_hash())
        return self.new_session(player_id, now)

    def delete(self, player_id: str) -> None:
        self.store.accounts.delete_account(player_id, _nobodys_hash())
        self.last_address.pop(player_id, None)


def check_new_password(password: str) -> None:
    """``bad_password`` unless it has at least :data:`MIN_PASSWORD` characters."""
    _check_new_password(password)


def _check_new_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise RequestError("bad_password", f"a password has at least {MIN_PASSWORD} characters")


def _nobodys_hash() -> str:
    return token_hash(secrets.token_urlsafe(32))
