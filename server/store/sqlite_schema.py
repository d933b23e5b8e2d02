"""The SQLite store's schema (:mod:`server.store.sqlite`): its tables and its version."""

from __future__ import annotations

__all__ = ["SCHEMA", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1
"""Kept in ``meta`` as ``schema_version``: a store written by a newer server is refused."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL DEFAULT (julianday('now'))
);
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    status TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    updated REAL NOT NULL DEFAULT (julianday('now'))
);
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER,
    action TEXT NOT NULL,
    seq INTEGER,
    PRIMARY KEY (code, game_no, idx)
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value
);
CREATE TABLE IF NOT EXISTS records (
    record_id TEXT PRIMARY KEY,
    code TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    record TEXT NOT NULL,
    created REAL NOT NULL DEFAULT (julianday('now'))
);
CREATE TABLE IF NOT EXISTS analyses (
    record_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    level TEXT NOT NULL,
    analysis TEXT NOT NULL,
    PRIMARY KEY (record_id, seat, level)
);
CREATE TABLE IF NOT EXISTS fences (
    code TEXT PRIMARY KEY,
    generation INTEGER NOT NULL
);
"""
