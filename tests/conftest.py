"""Fixtures shared by every test folder: real servers the tests start themselves, and a
settings folder of each test's own (a language saved on the developer's machine must not
change what a test sees)."""

from collections.abc import Iterator

import pytest

from tests.pgfixture import pg_dsn, pg_server

__all__ = ["own_settings_folder", "pg_dsn", "pg_server"]


@pytest.fixture(autouse=True)
def own_settings_folder(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """``$XDG_CONFIG_HOME`` (where the terminal client saves its settings) points at an
    empty folder for each test, subprocesses included."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))
    yield
