"""Accounts: register, sign in, change password, sign out everywhere, delete; their limits.

    accounts = Accounts(store, names, limits)      # names: server.lobby.names (module)
    accounts.check_register(name, password, address)      # RequestError, or the clean name
    hashed = await passwords.hash(password)                # off the loop (the gateway awaits)
    token = accounts.store_register(player_id, name, hashed, now)

Each request is checked before the slow hash (so a refused one costs nothing) and written
after it, in the turn that answers it. A name is an account's if its skeleton is taken
(:func:`server.lobby.names.skeleton`, given as ``names``: look-alikes, case and accents
folded). Attempts are bounded in memory on each node: sign-ins per account and per address,
registrations per address (:class:`AccountLimits`; ``rate_limited`` beyond them). Raises
:class:`~server.errors.RequestError` for a refusal and ``StoreError`` for the store.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Protocol

from protocol.text import TextError, clean_name
from server.accounts.passwords import MIN_PASSWORD
from server.errors import RequestError
from server.limits import TokenBucket
from server.store import Storage, token_hash
from server.store.accounts_rows import AccountRow

__all__ = ["AccountLimits", "Accounts", "Names", "check_new_password"]


@dataclass(frozen=True)
class AccountLimits:
    """Attempts allowed: ``burst`` at once, then ``burst`` per ``window`` seconds."""

    sign_ins_per_account: int = 5
    sign_ins_per_address: int = 20
    registrations_per_address: int = 3
    window: float = 900.0
    registration_window: float = 3600.0
    max_tracked: int = 50_000  # buckets kept per kind before the oldest are let go


class Names(Protocol):
    """How names compare (server.lobby.names, given by whoever builds :class:`Accounts`:
    the lobby sits above accounts in the server's layers)."""

    def skeleton(self, name: str) -> str: ...

    def reserved(self, name: str) -> bool: ...


class _Buckets:
    def __init__(self, burst: int, window: float, max_tracked: int) -> None:
        self.burst = burst
        self.rate = burst / window
        self.max_tracked = max_tracked
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, key: str, now: float) -> bool:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.max_tracked:
                self.buckets.pop(next(iter(self.buckets)))
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, now)
        return bucket.take(now)

    def give_back(self, key: str) -> None:
        bucket = self.buckets.get(key)
        if bucket is not None:
            bucket.credit(1)


class Accounts:
    """The accounts' rules over the store's rows (see the module)."""

    def __init__(self, store: Storage, names: Names, limits: AccountLimits | None = None) -> None:
        self.store = store
        self.names = names
        self.limits = limits = limits or AccountLimits()
        self._sign_in_account = _Buckets(
            limits.sign_ins_per_account, limits.window, limits.max_tracked
        )
        self._sign_in_address = _Buckets(
            limits.sign_ins_per_address, limits.window, limits.max_tracked
        )
        self._register_address = _Buckets(
            limits.registrations_per_address, limits.registration_window, limits.max_tracked
        )
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

    def check_register(self, name: str, password: str, address: str) -> str:
        """The clean name, or a refusal: bad_name, bad_password, name_taken, rate_limited."""
        clean = self._clean(name)
        _check_new_password(password)
        if self.store.accounts.account_by_skeleton(self.names.skeleton(clean)) is not None:
            raise RequestError("name_taken", f"an account's name looks like {clean!r}")
        if not self._register_address.take(address, time.monotonic()):
            raise RequestError(
                "rate_limited", "too many registrations from your address; try in an hour"
            )
        return clean

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

    def check_sign_in(self, name: str, address: str) -> tuple[str, AccountRow | None]:
        """Spend an attempt of the account and of the address (``rate_limited`` when
        either is spent); returns the name's skeleton and its account, if any."""
        try:
            key = self.names.skeleton(clean_name(name))
        except TextError:
            raise RequestError("bad_credentials", "no such account, or a wrong password") from None
        now = time.monotonic()
        if not self._sign_in_address.take(address, now):
            raise RequestError(
                "rate_limited", "too many sign-in attempts from your address; try later"
            )
        if not self._sign_in_account.take(key, now):
            raise RequestError(
                "rate_limited", "too many sign-in attempts for this account; try later"
            )
        return key, self.store.accounts.account_by_skeleton(key)

    def signed_in(self, key: str, player_id: str, address: str, now: float) -> str:
        """A right password: the attempt is given back; returns a new session's token."""
        self._sign_in_account.give_back(key)
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
