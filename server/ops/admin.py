"""``spades admin``: the commands, and the local admin socket that runs them.

    spades admin tables                      # every table in memory: code, phase, seats
    spades admin players                     # every connected player: id, name, address
    spades admin close CODE                  # close a table (its game stays unfinished)
    spades admin kick PLAYER                 # drop a player's connection (id or unique name)
    spades admin ban name NAME | ban address ADDRESS[/BITS]
    spades admin unban name NAME | unban address ADDRESS[/BITS]
    spades admin bans                        # what is banned
    spades admin mute PLAYER | unmute PLAYER # the server refuses their chat
    spades admin reports                     # what players reported with /report

The admin socket is a unix socket next to the store (``spades.db.admin`` beside
``spades.db``, or ``--admin-socket PATH``), created mode 0600: the filesystem is the
credential (only the account that runs the server, and root, can connect) and nothing
listens on the network, so there is no admin token to leak, rotate or brute-force. A
server with an in-memory store has no admin socket unless ``--admin-socket`` names one.

Because the filesystem is the credential, the folders the server keeps the socket and
the moderation files in must be its own: a folder writable by its group or by every
user, or owned by another user, is refused at start (:func:`folder_problem`), since
another local user could bind the socket's name first or plant links where the files
go. The server answers only connections from its own user (and root), and
``spades admin`` talks only to a socket owned by the user running it, served by a
process of that user (:func:`peer_uid`).

One request a connection: a line of JSON ``{"command": NAME, "args": [...]}``, answered
by a line ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": SENTENCE}``.
:func:`admin_request` sends one.

The commands work over :class:`AdminPort`, a narrow view of the server (its rooms,
players, sessions and moderation: :mod:`server.ops.moderation`); the command line
that sends them is :mod:`server.ops.admin_cli`.

A banned address (or network) is refused at connect, a banned name at ``hello`` (also
when a token resumes a player of that name), both with the error code ``banned``;
banning also drops the connections it matches. A kick closes the connection (code 4003,
"removed by the host"): the seat is held as for any dropped one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import stat
import struct
from collections.abc import Callable, Iterable
from typing import Any, Final, Protocol

from protocol import messages as m
from server.config import ServerConfig
from server.errors import ServerError
from server.lobby.names import same_name
from server.lobby.players import Link, Player
from server.logs import event
from server.ops.moderation import AdminError, Moderation
from server.rooms.room import Room

__all__ = [
    "ADMIN_COMMANDS",
    "KICK_CLOSE_CODE",
    "AdminPort",
    "admin_socket_path",
    "folder_problem",
    "peer_uid",
    "run_command",
    "serve_admin",
]

log = logging.getLogger("server")

KICK_CLOSE_CODE: Final = 4003


class AdminPort(Protocol):
    """What the admin commands see of a server: no more."""

    @property
    def moderation(self) -> Moderation: ...

    def admin_rooms(self) -> Iterable[Room]: ...

    def admin_players(self) -> Iterable[Player]:
        """Every player in memory (connected or holding a seat)."""
        ...

    def admin_sessions(self) -> Iterable[Link]: ...

    def admin_tables_of(self, player_id: str) -> list[str]: ...

    def admin_close(self, code: str) -> bool:
        """Close table ``code`` (stored, then out of memory); ``False``: no such table."""
        ...


def admin_socket_path(config: ServerConfig) -> str | None:
    """Where the admin socket listens: ``config.admin_socket``, else beside a file store
    (``None`` for an in-memory store, or when ``admin_socket`` is ``""``: no socket)."""
    if config.admin_socket is not None:
        return config.admin_socket or None
    database = config.database
    if database == ":memory:" or database.startswith("file:"):
        return None
    return database + ".admin"


# ---- the commands ---------------------------------------------------------------------


def _players_matching(port: AdminPort, who: str) -> list[Player]:
    """The player of this id, else the one player whose name looks like ``who``
    (skeletons compared); several such players: refused, naming their ids."""
    everyone = list(port.admin_players())
    found = [p for p in everyone if p.id == who]
    if found:
        return found
    found = [p for p in everyone if same_name(p.name, who)]
    if not found:
        raise AdminError(f"no player has the id or name {who!r}")
    if len(found) > 1:
        ids = ", ".join(sorted(p.id for p in found))
        raise AdminError(f"{len(found)} players have a name like {who!r} ({ids}): give an id")
    return found


def _drop_banned(conn: Link) -> None:
    message = "you are banned from this server"
    conn.send(m.ErrorMessage(code="banned", message=message, request=None, id=None))
    conn.close_soon(1008, "banned")


def _tables(port: AdminPort) -> list[dict[str, Any]]:
    out = []
    for table in port.admin_rooms():
        seats = []
        online = table.online()
        for index, seat in enumerate(table.seats):
            seats.append(
                {
                    "kind": seat.kind,
                    "name": seat.name if seat.kind != "empty" else None,
                    "player": seat.player_id,
                    "connected": seat.kind == "human" and online[index],
                    "level": seat.bot_level,
                }
            )
        out.append(
            {
                "code": table.code,
                "status": table.status,
                "phase": table.state.phase.value,
                "game": table.game_no,
                "seats": seats,
                "spectators": len(table.spectators),
                "private": table.private,
            }
        )
    return out


def _players(port: AdminPort) -> list[dict[str, Any]]:
    out = []
    for player in port.admin_players():
        conn = player.conn
        if conn is None:
            continue
        out.append(
            {
                "id": player.id,
                "name": player.name,
                "address": conn.address,
                "connection": conn.id,
                "tables": sorted(port.admin_tables_of(player.id)),
                "muted": player.id in port.moderation.muted,
            }
        )
    return out


def _close(port: AdminPort, code: str) -> str:
    if not port.admin_close(code.upper()):
        raise AdminError(f"there is no table {code!r}")
    log.info(
        "table %s: closed by the host",
        code.upper(),
        extra=event("table.close", table=code.upper(), reason="host"),
    )
    return code.upper()


def _kick(port: AdminPort, who: str) -> list[str]:
    kicked = []
    for player in _players_matching(port, who):
        if player.conn is not None:
            # a kick is not a ban: the connection closes, the seat is held as for any drop
            player.conn.close_soon(KICK_CLOSE_CODE, "removed by the host")
            kicked.append(player.id)
    if not kicked:
        raise AdminError(f"{who!r} is not connected")
    for player_id in kicked:
        log.info(
            "player %s: kicked by the host", player_id, extra=event("admin.kick", player=player_id)
        )
    return kicked


def _ban(port: AdminPort, kind: str, value: str) -> dict[str, Any]:
    banned = port.moderation.ban(kind, value)
    dropped = []
    for conn in list(port.admin_sessions()):
        player = conn.player
        if (kind == "address" and port.moderation.address_banned(conn.address)) or (
            kind == "name" and player is not None and port.moderation.name_banned(player.name)
        ):
            _drop_banned(conn)
            dropped.append(conn.id)
    log.info(
        "ban %s %s (%d connections dropped)",
        kind,
        banned,
        len(dropped),
        extra=event("admin.ban", kind=kind, value=banned, dropped=len(dropped)),
    )
    return {"banned": banned, "kind": kind, "connections_dropped": len(dropped)}


def _mute(port: AdminPort, who: str, mute: bool) -> list[str]:
    ids = [player.id for player in _players_matching(port, who)]
    for player_id in ids:
        if mute:
            port.moderation.muted.add(player_id)
        else:
            port.moderation.muted.discard(player_id)
    port.moderation.save()
    log.info(
        "%s %s",
        "mute" if mute else "unmute",
        ", ".join(ids),
        extra=event("admin.mute", players=ids, muted=mute),
    )
    return ids


def _one(args: list[str], usage: str) -> str:
    if len(args) != 1:
        raise AdminError(f"usage: {usage}")
    return args[0]


def _two(args: list[str], usage: str) -> tuple[str, str]:
    if len(args) != 2:
        raise AdminError(f"usage: {usage}")
    return args[0], args[1]


def _cmd_tables(port: AdminPort, args: list[str]) -> Any:
    return _tables(port)


def _cmd_players(port: AdminPort, args: list[str]) -> Any:
    return _players(port)


def _cmd_close(port: AdminPort, args: list[str]) -> Any:
    return _close(port, _one(args, "close CODE"))


def _cmd_kick(port: AdminPort, args: list[str]) -> Any:
    return _kick(port, _one(args, "kick PLAYER"))


def _cmd_ban(port: AdminPort, args: list[str]) -> Any:
    return _ban(port, *_two(args, "ban name|address VALUE"))


def _cmd_unban(port: AdminPort, args: list[str]) -> Any:
    return port.moderation.unban(*_two(args, "unban name|address VALUE"))


def _cmd_bans(port: AdminPort, args: list[str]) -> Any:
    moderation = port.moderation
    return {
        "names": sorted(moderation.banned_names),
        "addresses": sorted(moderation.banned_networks),
    }


def _cmd_mute(port: AdminPort, args: list[str]) -> Any:
    return _mute(port, _one(args, "mute PLAYER"), True)


def _cmd_unmute(port: AdminPort, args: list[str]) -> Any:
    return _mute(port, _one(args, "unmute PLAYER"), False)


def _cmd_reports(port: AdminPort, args: list[str]) -> Any:
    return list(port.moderation.reports)


ADMIN_COMMANDS: Final[dict[str, Callable[[AdminPort, list[str]], Any]]] = {
    "tables": _cmd_tables,
    "players": _cmd_players,
    "close": _cmd_close,
    "kick": _cmd_kick,
    "ban": _cmd_ban,
    "unban": _cmd_unban,
    "bans": _cmd_bans,
    "mute": _cmd_mute,
    "unmute": _cmd_unmute,
    "reports": _cmd_reports,
}
"""Every ``spades admin`` command: ``(port, args) -> result`` (JSON-ready)."""


def run_command(port: AdminPort, request: Any) -> dict[str, Any]:
    """Do one admin request (a decoded JSON line); the reply to send back."""
    if not isinstance(request, dict) or not isinstance(request.get("command"), str):
        return {"ok": False, "error": 'a request is {"command": NAME, "args": [...]}'}
    args = request.get("args", [])
    if not isinstance(args, list) or not all(isinstance(arg, str) for arg in args):
        return {"ok": False, "error": "args: a list of strings"}
    command = ADMIN_COMMANDS.get(request["command"])
    if command is None:
        return {"ok": False, "error": f"unknown command {request['command']!r}"}
    try:
        return {"ok": True, "result": command(port, args)}
    except AdminError as error:
        return {"ok": False, "error": str(error)}
    except OSError as error:  # the moderation file could not be written (a full disk)
        log.error("admin %s: %s", request["command"], error)
        return {"ok": False, "error": f"done in memory, but not saved: {error}"}


# ---- the socket -----------------------------------------------------------------------


def folder_problem(folder: str, uid: int | None = None) -> str | None:
    """Why ``folder`` is no place for the admin socket or the moderation files (a
    sentence), or ``None`` when only ``uid`` (default: this process's user) and root can
    write there, or when there is no such folder. Raises nothing (a folder that cannot be
    examined is the sentence)."""
    owner = os.geteuid() if uid is None else uid
    try:
        info = os.stat(folder or ".")
    except FileNotFoundError:  # nothing is kept there (the socket then fails on its own)
        return None
    except OSError as error:
        return f"cannot examine {folder}: {error.strerror}"
    if info.st_uid not in (owner, 0):
        return f"{folder} belongs to another user (uid {info.st_uid})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        who = "every user" if info.st_mode & stat.S_IWOTH else "its group"
        return f"{folder} is writable by {who} (chmod go-w it, or choose another folder)"
    return None


def peer_uid(sock: socket.socket) -> int | None:
    """The user id of the process at the other end of the unix socket ``sock`` (``None``
    where the platform cannot tell)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return None
    try:
        credentials = sock.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    except OSError:
        return None
    return int(struct.unpack("3i", credentials)[1])


async def serve_admin(port: AdminPort, path: str) -> asyncio.Server:
    """Listen on the unix socket ``path`` (mode 0600; a stale socket there is replaced).

    Raises :class:`~server.errors.StartupError`-like ``ServerError`` when ``path`` is
    something other than a socket, or cannot be bound.
    """
    with contextlib.suppress(FileNotFoundError):
        if not stat.S_ISSOCK(os.lstat(path).st_mode):
            raise ServerError(f"admin socket {path}: something else is there")
        if _answers(path):
            raise ServerError(f"admin socket {path}: another server is using it")
        os.unlink(path)  # left by a server that did not stop cleanly

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        uid = peer_uid(sock) if sock is not None else None
        if uid is not None and uid not in (os.geteuid(), 0):
            writer.close()  # the socket's mode already keeps them out; this says it twice
            return
        try:
            line = await asyncio.wait_for(reader.readline(), 10.0)
            try:
                request = json.loads(line)
            except ValueError:
                reply: dict[str, Any] = {"ok": False, "error": "not a line of JSON"}
            else:
                reply = run_command(port, request)
            writer.write(json.dumps(reply, ensure_ascii=False).encode() + b"\n")
            await writer.drain()
        except (TimeoutError, ConnectionError, asyncio.LimitOverrunError, ValueError):
            pass
        finally:
            writer.close()

    old_mask = os.umask(0o177)  # the socket is born 0600: no moment when others could connect
    try:
        server = await asyncio.start_unix_server(handle, path)
    except OSError as error:
        raise ServerError(f"cannot open the admin socket {path}: {error.strerror}") from None
    finally:
        os.umask(old_mask)
    os.chmod(path, 0o600)
    log.info("admin socket at %s", path)
    return server


def _answers(path: str) -> bool:
    """Whether a server listens on the unix socket ``path``."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        try:
            probe.connect(path)
        except OSError:
            return False
    return True
