"""Fixtures shared by every test folder: real servers the tests start themselves."""

from tests.pgfixture import pg_dsn, pg_server

__all__ = ["pg_dsn", "pg_server"]
