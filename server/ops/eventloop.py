"""Which event loop runs the server: asyncio's own, or uvloop when it is installed.

    run(main(), "auto")     # uvloop if importable, else asyncio's; "asyncio" / "uvloop"

uvloop (libuv under asyncio's interface, a well-kept project) is an optional extra
(``pip install 'spades2[fast]'``): the server behaves the same on either loop, uvloop only
spends less of the core on the loop's own work. Raises :class:`ImportError` when
``"uvloop"`` is asked for and it is not installed.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["KINDS", "loop_factory", "run"]

KINDS = ("auto", "asyncio", "uvloop")

T = TypeVar("T")


def loop_factory(kind: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The factory of the loop ``kind`` names (``None``: asyncio's default)."""
    if kind == "asyncio":
        return None
    try:
        uvloop = importlib.import_module("uvloop")
    except ImportError:
        if kind == "uvloop":
            raise
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def run(main: Coroutine[Any, Any, T], kind: str = "auto") -> T:
    """Run ``main`` to its end on a new loop of ``kind`` (see the module)."""
    with asyncio.Runner(loop_factory=loop_factory(kind)) as runner:
        return runner.run(main)
