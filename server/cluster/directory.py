"""Where tables run: the ``Directory`` interface, and the directory of a server on its own.

    directory = LocalDirectory()        # or RedisDirectory(...) for a cluster node
    await directory.start()             # before the tables load
    directory.owns_all_at_start         # True: load every stored table now
    url = await directory.locate(code)  # another node's URL, or None (here or nowhere)
    await directory.close()

A table is here (a room in the registry), at another node (a URL: the request is
redirected), or nowhere: never an exception. Before a commit the unit of work asks which
written tables this node can no longer prove it owns (:meth:`Directory.unproven`); a
table another node took is :meth:`released` here. The lobby lists this node's open
tables and, in a cluster, the other nodes' (:meth:`listing`).
"""

from __future__ import annotations

from typing import Any, Protocol

from protocol import messages as m
from server.config import ServerConfig
from server.errors import StartupError

__all__ = ["Directory", "LocalDirectory", "cluster_directory_class"]


class Directory(Protocol):
    """What the server asks of its directory (see the module)."""

    spans_nodes: bool
    owns_all_at_start: bool

    async def start(self) -> None:
        """Before the tables load (a cluster node joins; raises ``PresenceError``)."""
        ...

    def run(self) -> None:
        """After they load: start what runs for the server's life."""
        ...

    async def close(self) -> None:
        """After the store's last commit: give up what this node holds."""
        ...

    def created(self, code: str) -> None:
        """A new table, in memory and in this turn's writes: claim it."""
        ...

    def seated(self, player_id: str, code: str) -> None: ...

    def unseated(self, player_id: str, code: str) -> None: ...

    def forgotten(self, code: str) -> None:
        """Table ``code`` is closed: no node runs it any more."""
        ...

    def unproven(self, codes: set[str]) -> tuple[str, ...]: ...

    def released(self, code: str) -> bool: ...

    async def locate(self, code: str) -> str | None: ...

    async def player_elsewhere(self, player_id: str) -> tuple[str, str] | None: ...

    def redirected(self) -> None: ...

    def listing(self, local: tuple[m.TableSummary, ...]) -> tuple[m.TableSummary, ...]: ...

    def stats(self) -> dict[str, Any]: ...


class LocalDirectory:
    """One node: every table is here or nowhere; nothing to claim, prove or share."""

    spans_nodes = False
    owns_all_at_start = True

    async def start(self) -> None:
        return None

    def run(self) -> None:
        return None

    async def close(self) -> None:
        return None

    def created(self, code: str) -> None:
        return None

    def seated(self, player_id: str, code: str) -> None:
        return None

    def unseated(self, player_id: str, code: str) -> None:
        return None

    def forgotten(self, code: str) -> None:
        return None

    def unproven(self, codes: set[str]) -> tuple[str, ...]:
        return ()

    def released(self, code: str) -> bool:
        return False

    async def locate(self, code: str) -> str | None:
        return None

    async def player_elsewhere(self, player_id: str) -> tuple[str, str] | None:
        return None

    def redirected(self) -> None:
        return None

    def listing(self, local: tuple[m.TableSummary, ...]) -> tuple[m.TableSummary, ...]:
        return local

    def stats(self) -> dict[str, Any]:
        return {"tables": None}


def cluster_directory_class(config: ServerConfig) -> Any:
    """The cluster directory's class when ``--presence`` asks for one (redis-py is imported
    only then), else ``None``. Raises :class:`StartupError` without a shared store
    (``--store``) or when redis-py is not installed."""
    if not config.presence_url:
        return None
    if not config.store_url:
        raise StartupError(
            "--presence needs a store every node shares: add --store postgresql://..."
        )
    try:
        from server.cluster.redis_directory import RedisDirectory
    except ImportError as error:
        raise StartupError(
            f"--presence needs redis-py ({error}): pip install 'spades2[cluster]'"
        ) from None
    return RedisDirectory
