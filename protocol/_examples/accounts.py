"""One example of each accounts message (:mod:`protocol._messages.accounts`), in the
order they close the client and server unions.

A part of :mod:`protocol.examples`, which is the one to import.
"""

from __future__ import annotations

from protocol import messages as m
from protocol._examples.game import EXAMPLE_PLAYER_ID, EXAMPLE_RECORD_ID, EXAMPLE_TOKEN

__all__ = ["account_client_examples", "account_server_examples"]

_CLASSIC = m.RatingLine(
    preset="classic",
    rating=1588,
    deviation=96,
    provisional=False,
    games=14,
    wins=9,
    losses=5,
    history=(1500, 1562, 1531, 1588),
)
_FIVE_HUNDRED = m.RatingLine(
    preset="five-hundred",
    rating=1500,
    deviation=350,
    provisional=True,
    games=0,
    wins=0,
    losses=0,
)


def account_client_examples() -> tuple[m.ClientMessage, ...]:
    """register, sign_in, change_password, sign_out_everywhere, delete_account,
    get_profile, get_leaderboard."""
    return (
        m.Register(name="ada", password="correct horse battery", id=20),
        m.SignIn(name="ada", password="correct horse battery", id=21),
        m.ChangePassword(
            old_password="correct horse battery", new_password="staple in the barn", id=22
        ),
        m.SignOutEverywhere(id=23),
        m.DeleteAccount(password="staple in the barn", id=24),
        m.GetProfile(name="ada", id=25),
        m.GetLeaderboard(preset="classic", id=26),
    )


def account_server_examples() -> tuple[m.ServerMessage, ...]:
    """signed_in, account_done, profile, leaderboard."""
    return (
        m.SignedIn(
            player_id=EXAMPLE_PLAYER_ID,
            name="ada",
            token=EXAMPLE_TOKEN,
            ratings=(_CLASSIC, _FIVE_HUNDRED),
            id=21,
        ),
        m.AccountDone(done="signed_out", token=EXAMPLE_TOKEN, id=23),
        m.Profile(
            name="ada",
            ratings=(_CLASSIC, _FIVE_HUNDRED),
            wins=9,
            losses=5,
            games=(
                m.ProfileGame(
                    record_id=EXAMPLE_RECORD_ID,
                    preset="classic",
                    rated=True,
                    outcome="score",
                    seat=0,
                    opponent="bot (hard)",
                    won=True,
                    scores=(312, 247),
                    rating_after=1588,
                    ended=1_780_000_000.0,
                ),
            ),
            id=25,
        ),
        m.Leaderboard(
            preset="classic",
            entries=(
                m.BoardEntry(rank=1, name="grace", rating=1702, deviation=61, games=88),
                m.BoardEntry(rank=2, name="ada", rating=1588, deviation=96, games=14),
            ),
            id=26,
        ),
    )
