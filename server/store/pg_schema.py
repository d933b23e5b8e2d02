"""The PostgreSQL store's schema (versioned in ``meta``), fence check and claim.

:class:`server.store.pg.PgStore` creates it on open, under an advisory lock.
"""

from __future__ import annotations

__all__ = ["CLAIM", "FENCED", "SCHEMA", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS players (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE IF NOT EXISTS tables (
        code TEXT PRIMARY KEY,
        data TEXT NOT NULL,
        status TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        updated TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        code TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        seat INTEGER,
        action TEXT NOT NULL,
        seq BIGINT,
        PRIMARY KEY (code, game_no, idx)
    )""",
    """CREATE TABLE IF NOT EXISTS records (
        record_id TEXT PRIMARY KEY,
        code TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        record TEXT NOT NULL,
        created TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE IF NOT EXISTS analyses (
        record_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        level TEXT NOT NULL,
        analysis TEXT NOT NULL,
        PRIMARY KEY (record_id, seat, level)
    )""",
    # a table's fence: the highest lease generation any node claimed it under
    """CREATE TABLE IF NOT EXISTS fences (
        code TEXT PRIMARY KEY,
        generation BIGINT NOT NULL
    )""",
    # Run inside a commit: raises SQLSTATE SP001 (the stale codes in its detail) when a
    # table is claimed under another generation than the caller's. FOR SHARE holds the
    # fence rows until the commit, so a claim waits for it; the second statement takes a
    # fresh snapshot after the locks, so it sees every claim committed before them.
    """CREATE OR REPLACE FUNCTION spades_check_fences(codes TEXT[], generations BIGINT[])
    RETURNS void LANGUAGE plpgsql AS $$
    DECLARE
        stale TEXT;
    BEGIN
        PERFORM 1 FROM fences WHERE code = ANY(codes) ORDER BY code FOR SHARE;
        SELECT string_agg(c.code, ',' ORDER BY c.code) INTO stale
        FROM unnest(codes, generations) AS c(code, generation)
        WHERE NOT EXISTS (
            SELECT 1 FROM fences f WHERE f.code = c.code AND f.generation = c.generation
        );
        IF stale IS NOT NULL THEN
            RAISE EXCEPTION 'tables claimed by another node since: %', stale
                USING ERRCODE = 'SP001', DETAIL = stale;
        END IF;
    END
    $$""",
]

FENCED = "SP001"  # spades_check_fences: a fence moved

# a second connection for claims, so a claim never commits half of the hub's open turn
CLAIM = (
    "INSERT INTO fences (code, generation) VALUES (%s, %s) ON CONFLICT (code) DO UPDATE "
    "SET generation = excluded.generation WHERE fences.generation <= excluded.generation "
    "RETURNING generation"
)
