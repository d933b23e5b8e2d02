"""Accounts through a real server: register, sign in, limits, sessions, delete, rated
games (forfeit, abort, same address, casual rules), profile and leaderboard."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from protocol import messages as m
from server import RunningServer
from server.accounts.passwords import Passwords
from tests.server.helpers import Client, run

PASSWORD = "correct horse"


def _cheap(server: RunningServer) -> Any:
    """The server's accounts, with argon2id at test cost (the parameters, not the code)."""
    accounts = server.hub.accounts
    accounts.passwords = Passwords(time_cost=1, memory_kib=1024, parallelism=1)
    return accounts


async def _register(server: RunningServer, name: str) -> tuple[Client, m.SignedIn]:
    client = await Client.hello(server.url, name)
    signed = await client.request(m.Register(name=name, password=PASSWORD), m.SignedIn)
    return client, signed


def test_register_signs_in_and_the_token_resumes_the_account() -> None:
    async def main(server: RunningServer) -> None:
        _cheap(server)
        client, signed = await _register(server, "alice")
        assert signed.name == "alice"
        assert signed.player_id == client.welcome.player_id  # type: ignore[union-attr]
        assert [line.preset for line in signed.ratings] == ["classic", "five-hundred"]
        assert all(line.rating == 1500 and line.provisional for line in signed.ratings)
        await client.close()
        again = await Client.hello(server.url, "whoever", token=signed.token)
        assert again.welcome is not None
        assert again.welcome.resumed and again.welcome.player_id == signed.player_id
        assert again.welcome.name == "alice"

    run(main)


def test_a_look_alike_name_is_refused() -> None:
    async def main(server: RunningServer) -> None:
        _cheap(server)
        await _register(server, "alice")
        other = await Client.hello(server.url, "x")
        await other.error(m.Register(name="ΑLICE", password=PASSWORD), "name_taken")
        await other.error(m.Register(name="a1ice", password=PASSWORD), "name_taken")
        await other.error(m.Register(name="bob", password="short"), "bad_password")
        await other.error(m.Register(name="Bot", password=PASSWORD), "bad_name")

    run(main)


def test_sign_in_brute_force_is_refused_per_account() -> None:
    async def main(server: RunningServer) -> None:
        _cheap(server)
        first, _ = await _register(server, "carol")
        await first.close()
        thief = await Client.hello(server.url, "thief")
        for guess in range(5):
            await thief.error(m.SignIn(name="carol", password=f"guess {guess}"), "bad_credentials")
        # the account's attempts are spent: even the right password waits
        await thief.error(m.SignIn(name="carol", password=PASSWORD), "rate_limited")
        await thief.error(m.SignIn(name="nobody", password=PASSWORD), "bad_credentials")

    run(main)


def test_sign_in_attempts_are_limited_per_address() -> None:
    async def main(server: RunningServer) -> None:
        _cheap(server)
        guesser = await Client.hello(server.url, "guesser")
        for guess in range(20):
            await guesser.error(m.SignIn(name=f"n{guess}", password=PASSWORD), "bad_credentials")
        await guesser.error(m.SignIn(name="another", password=PASSWORD), "rate_limited")

    run(main)


def test_registration_is_limited_per_address() -> None:
    async def main(server: RunningServer) -> None:
        _cheap(server)
        for index in range(3):
            await _register(server, f"reg{index}")
        late = await Client.hello(server.url, "late")
        await late.error(m.Register(name="reg9", password=PASSWORD), "rate_limited")

    run(main)


def test_sign_in_elsewhere_change_password_and_sign_out_everywhere() -> None:
    async def main(server: RunningServer) -> None:
        _cheap(server)
        _, signed = await _register(server, "dave")
        second = await Client.hello(server.url, "guest")
        again = await second.request(m.SignIn(name="DAVE", password=PASSWORD), m.SignedIn)
        assert again.player_id == signed.player_id and again.token != signed.token
        await second.error(
            m.ChangePassword(old_password="wrong one", new_password="new password"),
            "bad_credentials",
        )
        done = await second.request(
            m.ChangePassword(old_password=PASSWORD, new_password="new password"), m.AccountDone
        )
        assert done.done == "password_changed"
        out = await second.request(m.SignOutEverywhere(), m.AccountDone)
        assert out.done == "signed_out" and out.token is not None
        for dead in (signed.token, again.token):
            client = await Client.open(server.url)
            await client.error(m.Hello(protocol_version=1, name="x", token=dead), "bad_token")
        alive = await Client.hello(server.url, "x", token=out.token)
        assert alive.welcome is not None and alive.welcome.player_id == signed.player_id
        third = await Client.hello(server.url, "guest3")
        await third.error(m.SignIn(name="dave", password=PASSWORD), "bad_credentials")
        await third.request(m.SignIn(name="dave", password="new password"), m.SignedIn)

    run(main)


def test_a_guest_cannot_ask_for_a_rated_table_nor_manage_an_account() -> None:
    async def main(server: RunningServer) -> None:
        _cheap(server)
        guest = await Client.hello(server.url, "guest")
        await guest.error(m.CreateTable(rated=True), "not_signed_in")
        await guest.error(m.SignOutEverywhere(), "not_signed_in")
        await guest.error(m.GetProfile(name="nobody"), "unknown_account")
        board = await guest.request(m.GetLeaderboard(preset="classic"), m.Leaderboard)
        assert board.entries == ()

    run(main)


async def _act_once(client: Client, rng: random.Random) -> None:
    turn = await client.expect(m.YourTurn)
    client.seq += 1
    action = rng.choice(turn.legal)
    await client.send(m.Act(code=turn.table, action=action, version=turn.version, seq=client.seq))
    await client.expect(m.Ack)


def test_a_rated_game_against_the_bot_rates_the_account_and_the_profile_shows_it() -> None:
    async def main(server: RunningServer) -> None:
        _cheap(server)
        client, signed = await _register(server, "erin")
        snap = await client.request(m.CreateTable(bot="easy", rated=True), m.Snapshot)
        await _act_once(client, random.Random(3))
        await client.request(m.Leave(code=snap.table.code), m.Left)
        profile = await client.request(m.GetProfile(name="erin"), m.Profile)
        classic = next(line for line in profile.ratings if line.preset == "classic")
        assert classic.games == 1 and classic.losses == 1 and classic.rating < 1500
        assert classic.deviation < 350 and classic.provisional
        assert classic.history == (classic.rating,)
        (game,) = profile.games
        assert game.rated and game.outcome == "forfeit" and game.won is False
        assert game.opponent == "bot (easy)" and game.rating_after == classic.rating
        assert profile.losses == 1 and profile.wins == 0
        rows = server.hub.store.accounts
        assert rows.rating(signed.player_id, "classic").games == 1

    run(main)


async def _rated_pair(
    server: RunningServer, names: tuple[str, str], rated: bool = True, **create: Any
) -> tuple[list[Client], list[m.SignedIn], str]:
    clients, signed = [], []
    for name in names:
        client, account = await _register(server, name)
        clients.append(client)
        signed.append(account)
    snap = await clients[0].request(m.CreateTable(rated=rated, **create), m.Snapshot)
    await clients[1].request(m.JoinTable(code=snap.table.code), m.Snapshot)
    return clients, signed, snap.table.code


async def _first_turn(clients: list[Client]) -> int:
    """The index of the client whose turn comes first (its your_turn is put back)."""
    while True:
        for index, client in enumerate(clients):
            while not client.inbox.empty():
                message = client.inbox.get_nowait()
                if isinstance(message, m.YourTurn):
                    client.inbox.put_nowait(message)
                    return index
        await asyncio.sleep(0.01)


def _apart(server: RunningServer, signed: list[m.SignedIn]) -> None:
    """The two accounts came from two addresses (every test client is 127.0.0.1)."""
    for index, account in enumerate(signed):
        server.hub.accounts.accounts.last_address[account.player_id] = f"192.0.2.{index + 1}"


def test_a_forfeit_between_accounts_is_a_loss_and_rates_both_once() -> None:
    async def main(server: RunningServer) -> None:
        _cheap(server)
        clients, signed, code = await _rated_pair(server, ("gus", "hal"))
        _apart(server, signed)
        first = await _first_turn(clients)
        await _act_once(clients[first], random.Random(1))
        await _act_once(clients[1 - first], random.Random(2))
        await clients[first].request(m.Leave(code=code), m.Left)
        over = await clients[1 - first].expect(m.GameOver)
        assert over.reason == "forfeit" and over.winner is not None
        rows = server.hub.store.accounts
        loser = rows.rating(signed[first].player_id, "classic")
        winner = rows.rating(signed[1 - first].player_id, "classic")
        assert loser is not None and winner is not None
        assert (loser.games, loser.losses, winner.games, winner.wins) == (1, 1, 1, 1)
        assert loser.rating < 1500 < winner.rating
        assert loser.rating + winner.rating == pytest.approx(3000.0)
        (game,) = rows.games_of(signed[0].player_id)
        assert game.rated and game.outcome == "forfeit"

    run(main)


def test_accounts_on_one_address_play_casual_and_a_daily_cap_holds() -> None:
    async def main(server: RunningServer) -> None:
        accounts = _cheap(server)
        clients, signed, code = await _rated_pair(server, ("ivy", "jon"))
        # both from 127.0.0.1: casual
        first = await _first_turn(clients)
        await _act_once(clients[first], random.Random(1))
        await _act_once(clients[1 - first], random.Random(2))
        await clients[first].request(m.Leave(code=code), m.Left)
        await clients[1 - first].expect(m.GameOver)
        rows = server.hub.store.accounts
        assert rows.rating(signed[0].player_id, "classic") is None
        (game,) = rows.games_of(signed[0].player_id)
        assert not game.rated and game.outcome == "forfeit"
        # apart, but the cap of rated games between them is spent
        accounts.rater.daily_cap = 0
        _apart(server, signed)
        snap = await clients[1 - first].request(m.CreateTable(rated=True), m.Snapshot)
        await clients[first].request(m.JoinTable(code=snap.table.code), m.Snapshot)
        await clients[first].request(m.Leave(code=snap.table.code), m.Left)
        assert rows.rating(signed[0].player_id, "classic") is None

    run(main)


def test_other_rules_than_a_presets_own_are_casual() -> None:
    async def main(server: RunningServer) -> None:
        _cheap(server)
        client, signed = await _register(server, "kim")
        snap = await client.request(
            m.CreateTable(bot="easy", rated=True, overrides={"target_score": 100}), m.Snapshot
        )
        await _act_once(client, random.Random(3))
        await client.request(m.Leave(code=snap.table.code), m.Left)
        rows = server.hub.store.accounts
        assert rows.rating(signed.player_id, "classic") is None
        (game,) = rows.games_of(signed.player_id)
        assert not game.rated and game.preset is None

    run(main)


def test_a_game_given_up_before_both_acted_in_the_first_hand_is_aborted() -> None:
    async def main(server: RunningServer) -> None:
        _cheap(server)
        clients, signed, code = await _rated_pair(server, ("fay", "gil"))
        _apart(server, signed)
        first = await _first_turn(clients)
        await _act_once(clients[first], random.Random(1))
        # the other seat never acted in the first hand: leaving aborts, nobody is rated
        await clients[1 - first].request(m.Leave(code=code), m.Left)
        rows = server.hub.store.accounts
        assert rows.rating(signed[0].player_id, "classic") is None
        assert rows.rating(signed[1].player_id, "classic") is None
        profile = await clients[first].request(m.GetProfile(name="fay"), m.Profile)
        (game,) = profile.games
        assert game.outcome == "aborted" and not game.rated and game.won is None

    run(main)
