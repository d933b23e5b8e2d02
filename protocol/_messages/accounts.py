"""Accounts and ratings: the messages of registered players, profiles and the leaderboard.

A part of :mod:`protocol.messages`. Every connection starts as a guest (``hello``); any
welcomed connection may ``register`` a name with a password or ``sign_in`` to an account
(answer: ``signed_in``, with a new ``token`` that resumes the account in ``hello``). A
connection of any minor version may send them; a client that never does stays a guest.
Ratings are Glicko-2 per preset: ``rating`` and ``deviation`` rounded to whole points,
``provisional`` while the deviation is above 110 (shown with "?").
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from protocol._messages.common import Count, MessageBase, RequestId, Score, Seat

__all__ = [
    "ACCOUNT_CLIENT_MESSAGES",
    "ACCOUNT_SERVER_MESSAGES",
    "AccountDone",
    "BoardEntry",
    "ChangePassword",
    "DeleteAccount",
    "GetLeaderboard",
    "GetProfile",
    "Leaderboard",
    "Profile",
    "ProfileGame",
    "RatingLine",
    "Register",
    "SignIn",
    "SignOutEverywhere",
    "SignedIn",
]

Password = Annotated[str, Field(min_length=1, max_length=128)]
AccountName = Annotated[str, Field(min_length=1, max_length=24)]
RatedPreset = Literal["classic", "five-hundred"]
Points = Annotated[int, Field(ge=0, le=10_000)]


class Register(MessageBase):
    """Register ``name`` with ``password`` (8..128 characters) and sign in to it: this
    connection's player becomes the account (answer: ``signed_in``). A name that looks like
    an account's (the same skeleton) is refused with ``name_taken``; too many
    registrations from one address within the hour with ``rate_limited``."""

    type: Literal["register"] = "register"
    name: AccountName
    """The account's name: the text rules of a display name."""
    password: Password
    """8 to 128 characters."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class SignIn(MessageBase):
    """Sign in to the account ``name`` (answer: ``signed_in``; a wrong name or password:
    ``bad_credentials``; too many attempts for the account or from the address:
    ``rate_limited``). Not while seated at an unfinished game as a guest."""

    type: Literal["sign_in"] = "sign_in"
    name: AccountName
    """The account's name (look-alikes match)."""
    password: Password
    """The account's password."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class ChangePassword(MessageBase):
    """Change the signed-in account's password (answer: ``account_done``)."""

    type: Literal["change_password"] = "change_password"
    old_password: Password
    """The current password (``bad_credentials`` if wrong)."""
    new_password: Password
    """The new one, 8 to 128 characters."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class SignOutEverywhere(MessageBase):
    """End every session of the signed-in account, on every device; this connection gets
    a fresh token in ``account_done``, every other connection of the account is closed."""

    type: Literal["sign_out_everywhere"] = "sign_out_everywhere"
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class DeleteAccount(MessageBase):
    """Delete the signed-in account: its sessions and ratings go, its games stay with the
    name shown as "(deleted)". The connection is closed after ``account_done``."""

    type: Literal["delete_account"] = "delete_account"
    password: Password
    """The account's password."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class GetProfile(MessageBase):
    """Ask for an account's profile (answer: ``profile``; no such account:
    ``unknown_account``)."""

    type: Literal["get_profile"] = "get_profile"
    name: AccountName
    """The account's name (look-alikes match)."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class GetLeaderboard(MessageBase):
    """Ask for a preset's leaderboard (answer: ``leaderboard``)."""

    type: Literal["get_leaderboard"] = "get_leaderboard"
    preset: RatedPreset = "classic"
    """``classic`` or ``five-hundred``."""
    id: RequestId | None = None
    """Your request id, echoed in the answer."""


class RatingLine(MessageBase):
    """An account's rating in one preset."""

    preset: RatedPreset
    """The preset."""
    rating: Points
    """The rating, rounded."""
    deviation: Points
    """Its deviation, rounded."""
    provisional: bool
    """Deviation above 110: shown with "?", left off the leaderboard."""
    games: Count
    """Rated games played in this preset."""
    wins: Count
    """Rated games won."""
    losses: Count
    """Rated games lost."""
    history: tuple[Points, ...] = Field(default=(), max_length=50)
    """The rating after each of the last rated games, oldest first."""


class SignedIn(MessageBase):
    """Answer to ``register`` and ``sign_in``: this connection is the account's now."""

    type: Literal["signed_in"] = "signed_in"
    player_id: str = Field(max_length=64)
    """The account's player id (the same on every device)."""
    name: AccountName
    """The account's name."""
    token: str = Field(max_length=64)
    """A new token: say it in ``hello`` to come back signed in."""
    ratings: tuple[RatingLine, ...] = Field(max_length=8)
    """The account's ratings (a preset never played: 1500, deviation 350)."""
    id: RequestId | None = None
    """The ``id`` of the request."""


class AccountDone(MessageBase):
    """Answer to ``change_password``, ``sign_out_everywhere`` and ``delete_account``."""

    type: Literal["account_done"] = "account_done"
    done: Literal["password_changed", "signed_out", "deleted"]
    """What was done."""
    token: str | None = Field(default=None, max_length=64)
    """After ``sign_out_everywhere``: this connection's new token (the old ones are dead)."""
    id: RequestId | None = None
    """The ``id`` of the request."""


class ProfileGame(MessageBase):
    """One game of a profile, newest first."""

    record_id: str = Field(max_length=64)
    """Its record (``get_record``, ``get_analysis``)."""
    preset: str | None = Field(max_length=32)
    """Its preset (nil: custom rules)."""
    rated: bool
    """Rated, or casual/aborted."""
    outcome: Literal["score", "forfeit", "aborted"]
    """How it ended."""
    seat: Seat
    """The profile's seat."""
    opponent: str = Field(max_length=40)
    """The other seat's name ("Bot (hard)" for the bot)."""
    won: bool | None
    """Whether the profile's seat won (nil: aborted)."""
    scores: tuple[Score, Score]
    """Both seats' final scores."""
    rating_after: Points | None = None
    """The profile's rating after it (nil: unrated)."""
    ended: float = Field(ge=0)
    """When it ended (Unix seconds)."""


class Profile(MessageBase):
    """An account's profile: its ratings with their history, and its last 50 games."""

    type: Literal["profile"] = "profile"
    name: AccountName
    """The account's name."""
    ratings: tuple[RatingLine, ...] = Field(max_length=8)
    """Per preset."""
    wins: Count
    """Games won, rated or not."""
    losses: Count
    """Games lost, rated or not."""
    games: tuple[ProfileGame, ...] = Field(max_length=50)
    """The last 50 games, newest first."""
    id: RequestId | None = None
    """The ``id`` of the request."""


class BoardEntry(MessageBase):
    """One line of a leaderboard."""

    rank: Annotated[int, Field(ge=1, le=100)]
    """1 for the best."""
    name: AccountName
    """The account's name."""
    rating: Points
    """Its rating, rounded."""
    deviation: Points
    """Its deviation, rounded (at most 110)."""
    games: Count
    """Rated games in the preset."""


class Leaderboard(MessageBase):
    """The best 100 established ratings of a preset (provisional ones left out)."""

    type: Literal["leaderboard"] = "leaderboard"
    preset: RatedPreset
    """The preset."""
    entries: tuple[BoardEntry, ...] = Field(max_length=100)
    """Best first."""
    id: RequestId | None = None
    """The ``id`` of the request."""


ACCOUNT_CLIENT_MESSAGES = (
    Register,
    SignIn,
    ChangePassword,
    SignOutEverywhere,
    DeleteAccount,
    GetProfile,
    GetLeaderboard,
)
ACCOUNT_SERVER_MESSAGES = (SignedIn, AccountDone, Profile, Leaderboard)
