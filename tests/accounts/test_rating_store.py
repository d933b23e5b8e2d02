"""The rating update in the store: one transaction with the game's end (kill -9 at every
step rates exactly once), two games of one player in one turn, both stores' migrations,
backup and retention."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from server.accounts.anchors import BOT_ANCHORS
from server.accounts.glicko2 import DEFAULT, Result, update
from server.accounts.rating import GameEnd, Rater, Side
from server.store import Store
from server.store.accounts_schema import ACCOUNTS_SCHEMA_VERSION
from server.store.policy import RetentionPolicy
from server.store.sqlite_backup import backup_store

ROOT = Path(__file__).resolve().parents[2]


def _end(record_id: str, winner: int, second: Side | None = None) -> GameEnd:
    return GameEnd(
        record_id=record_id,
        code="K7QX2M9A",
        preset="classic",
        rated=True,
        outcome="score",
        winner=winner,
        sides=(Side("ann", "p-ann"), second or Side("ben", "p-ben")),
        scores=(312, 247) if winner == 0 else (247, 312),
        ended=1_780_000_000.0,
    )


def _accounts(store: Store | Any) -> None:
    store.accounts.add_account("p-ann", "ann", "ann", "hash", 1.0)
    store.accounts.add_account("p-ben", "ben", "ben", "hash", 1.0)


# the child writes the game's end as Play.finish does (the record, then the rating
# update), counting the store's writes, and kills itself with SIGKILL at step KILL_AT
_CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from server.store import Store
    from server.accounts.rating import GameEnd, Rater, Side
    path, kill_at = sys.argv[1], int(sys.argv[2])
    steps = 0
    real_write = Store._write
    def write(self, *args, **kwargs):
        global steps
        if steps == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
        steps += 1
        return real_write(self, *args, **kwargs)
    Store._write = write
    store = Store(path, autocommit=False)
    end = GameEnd("rec-1", "K7QX2M9A", "classic", True, "score", 0,
                  (Side("ann", "p-ann"), Side("ben", "p-ben")), (312, 247), 1780000000.0)
    store.save_record("rec-1", "K7QX2M9A", 1, {"format": "spades-record/1"})
    Rater(store, {}).ended(end)
    if steps == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)   # every write made, not committed
    store.commit()
    os.kill(os.getpid(), signal.SIGKILL)       # committed
    """
)


def _rated_state(path: str) -> tuple[bool, int, int, int]:
    store = Store(path)
    try:
        record = store.record_json("rec-1") is not None
        games = len(store.accounts.games_of("p-ann"))
        ann = store.accounts.rating("p-ann", "classic")
        ben = store.accounts.rating("p-ben", "classic")
        return record, games, 0 if ann is None else ann.games, 0 if ben is None else ben.games
    finally:
        store.close()


def test_a_rated_game_rates_both_players_exactly_once_across_a_kill_9_at_every_step(
    tmp_path: Path,
) -> None:
    # save_record, the game's row, then per player the rating's delete and insert: 6
    # writes; step 6 is after them all before the commit, 7 after the commit
    for kill_at in range(8):
        path = str(tmp_path / f"store{kill_at}.db")
        setup = Store(path)
        _accounts(setup)
        setup.close()
        child = subprocess.run(
            [sys.executable, "-c", _CHILD, path, str(kill_at)],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert child.returncode == -signal.SIGKILL, child.stderr
        state = _rated_state(path)
        if kill_at < 7:
            assert state == (False, 0, 0, 0), kill_at  # nothing of the end was stored
            # the server replays the game to the move before its end and ends it again
            again = Store(path, autocommit=False)
            again.save_record("rec-1", "K7QX2M9A", 1, {"format": "spades-record/1"})
            Rater(again, {}).ended(_end("rec-1", 0))
            again.commit()
            again.close()
        assert _rated_state(path) == (True, 1, 1, 1), kill_at


def test_two_games_of_one_player_ending_in_one_turn_both_count_in_order() -> None:
    store = Store(":memory:", autocommit=False)
    _accounts(store)
    store.commit()
    rater = Rater(store, {})
    hard = Side("bot (hard)", None, "hard")
    easy = Side("bot (easy)", None, "easy")
    # one turn of the loop: both ends join the one open transaction
    rater.ended(_end("rec-a", 0, hard))
    rater.ended(_end("rec-b", 1, easy))
    store.commit()
    row = store.accounts.rating("p-ann", "classic")
    assert row is not None and (row.games, row.wins, row.losses) == (2, 1, 1)
    first = update(DEFAULT, [Result(BOT_ANCHORS["classic"]["hard"], 1.0)])
    second = update(first, [Result(BOT_ANCHORS["classic"]["easy"], 0.0)])
    assert row.rating == pytest.approx(second.rating)
    assert row.deviation == pytest.approx(second.deviation)
    assert [game.record_id for game in store.accounts.games_of("p-ann")] == ["rec-a", "rec-b"]


def test_a_game_against_the_bot_never_moves_the_bots_rating_and_a_guest_is_not_rated() -> None:
    store = Store(":memory:")
    _accounts(store)
    rater = Rater(store, {})
    before = dict(BOT_ANCHORS["classic"])
    rater.ended(_end("rec-bot", 0, Side("bot (normal)", None, "normal")))
    assert dict(BOT_ANCHORS["classic"]) == before
    guest = rater.ended(_end("rec-guest", 0, Side("gus", "p-guest")))
    assert guest is not None and not guest.rated
    nobody = rater.ended(
        GameEnd("rec-none", "C", "classic", True, "score", 0, (Side("a", "g1"), Side("b", "g2")),
                (1, 0), 1.0)
    )  # fmt: skip
    assert nobody is None and store.accounts.games_of("g1") == []


def test_deleting_an_account_anonymises_its_games_and_keeps_the_others() -> None:
    store = Store(":memory:")
    _accounts(store)
    Rater(store, {}).ended(_end("rec-1", 0))
    store.accounts.delete_account("p-ann", "nobodys hash")
    assert store.accounts.account("p-ann") is None
    assert store.accounts.rating("p-ann", "classic") is None
    (game,) = store.accounts.games_of("p-ben")
    assert game.player0 is None and game.name0 == "(deleted)" and game.name1 == "ben"
    assert store.accounts.rating("p-ben", "classic") is not None


def test_backup_holds_the_accounts_and_retention_leaves_them_alone(tmp_path: Path) -> None:
    path = str(tmp_path / "live.db")
    store = Store(path)
    _accounts(store)
    Rater(store, {}).ended(_end("rec-1", 0))
    policy = RetentionPolicy(keep_finished_days=0.001, reclaim_days=0.001, batch=500)
    store.reclaim_step(policy, 4_000_000_000.0)
    assert store.accounts.account_count() == 2
    assert store.accounts.rating("p-ann", "classic") is not None
    store.close()
    copy = backup_store(path, str(tmp_path / "copy.db"))
    restored = Store(copy.path)
    assert restored.accounts.account_count() == 2
    assert len(restored.accounts.games_of("p-ann")) == 1
    restored.close()


def test_the_accounts_schema_is_versioned_and_a_newer_one_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "s.db")
    Store(path).close()
    import sqlite3

    db = sqlite3.connect(path)
    version = db.execute("SELECT value FROM meta WHERE key = 'accounts_schema'").fetchone()
    assert int(version[0]) == ACCOUNTS_SCHEMA_VERSION == 1
    db.execute("UPDATE meta SET value = '99' WHERE key = 'accounts_schema'")
    db.commit()
    db.close()
    from server.store import StoreError

    with pytest.raises(StoreError, match="accounts schema is version 99"):
        Store(path)


def test_the_postgres_store_has_the_accounts_tables_and_rates_in_one_commit(pg_dsn: str) -> None:
    from server.store.pg import PgStore

    store = PgStore(pg_dsn, autocommit=False)
    try:
        _accounts(store)
        store.commit()
        store.save_record("rec-1", "K7QX2M9A", 1, {"format": "spades-record/1"})
        Rater(store, {}).ended(_end("rec-1", 1))
        store.rollback()  # lost with the game's end: neither is stored
        assert store.accounts.rating("p-ann", "classic") is None
        store.save_record("rec-1", "K7QX2M9A", 1, {"format": "spades-record/1"})
        Rater(store, {}).ended(_end("rec-1", 1))
        store.commit()
        ann = store.accounts.rating("p-ann", "classic")
        assert ann is not None and ann.losses == 1
        assert store.accounts.leaderboard("classic", 400.0)[0][1] == "ben"
        store.accounts.add_session("session hash", "p-ann", 2.0)
        store.accounts.delete_account("p-ann", "nobodys hash")
        store.commit()
        assert store.accounts.account_by_session("session hash") is None
        (game,) = store.accounts.games_of("p-ben")
        assert game.player0 is None and game.name0 == "(deleted)"
    finally:
        store.close()
    again = PgStore(pg_dsn)  # opened again: the migration is not applied twice
    try:
        assert again.accounts.account_count() == 1
        rows = again._read("SELECT value FROM meta WHERE key = 'accounts_schema'", ())
        assert rows == [("1",)]
    finally:
        again.close()
