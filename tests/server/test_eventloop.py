"""The event loop the server runs on: asyncio's own unless uvloop is installed and asked for."""

from __future__ import annotations

import asyncio
import importlib.util

import pytest

from server.ops.eventloop import loop_factory, run


async def _loop_kind() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_asyncio_is_asked_for_by_name_and_runs_the_coroutine() -> None:
    assert loop_factory("asyncio") is None
    assert run(_loop_kind(), "asyncio").startswith("asyncio")


def test_auto_takes_uvloop_only_when_it_is_installed() -> None:
    kind = run(_loop_kind(), "auto")
    installed = importlib.util.find_spec("uvloop") is not None
    assert kind.startswith("uvloop") == installed
    if not installed:
        with pytest.raises(ImportError):
            loop_factory("uvloop")
