"""Moderation: bans, mutes and reports, and ``spades admin`` over a local admin socket.

    spades admin tables                      # every table in memory: code, phase, seats
    spades admin players                     # every connected player: id, name, address
    spades admin close CODE                  # close a table (its game stays unfinished)
    spades admin kick PLAYER                 # drop a player's connection (id or name)
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

One request a connection: a line of JSON ``{"command": NAME, "args": [...]}``, answered
by a line ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": SENTENCE}``.
:func:`admin_request` sends one.

Bans and mutes are kept in ``spades.db.moderation.json`` beside the store (mode 0600,
replaced atomically), reports in ``spades.db.reports.jsonl`` (a line each, cut back to
the newest 1000 now and then), so they survive a restart; with an in-memory store they
last as long as the process. A player may report once every 30 s, and the whole server
takes at most one report every 2 s (bursts of 20), so reports cannot fill the disk.

A banned address (or network) is refused at connect, a banned name at ``hello`` (also
when a token resumes a player of that name), both with the error code ``banned``;
banning also drops the connections it matches. A kick closes the connection (code 4003,
"removed by the host"): the seat is held as for any dropped one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import socket
import stat
import sys
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from protocol import messages as m
from server.config import ServerConfig, default_db_path
from server.errors import ServerError
from server.logs import event

if TYPE_CHECKING:
    from server.app import Hub
    from server.connection import Conn
    from server.tables import Player

__all__ = [
    "ADMIN_COMMANDS",
    "KICK_CLOSE_CODE",
    "REPORT_PREFIX",
    "AdminError",
    "Moderation",
    "add_admin_arguments",
    "admin_request",
    "admin_socket_path",
    "is_report",
    "moderation_path",
    "new_report",
    "run_admin",
    "run_command",
    "serve_admin",
]

log = logging.getLogger("server")

REPORT_PREFIX: Final = "/report"
RECENT_CHAT_LINES: Final = 10
_KEPT_REPORTS: Final = 1000
REPORT_COOLDOWN_SECONDS: Final = 30.0  # one report per player per 30 s
_REPORTS_PER_SECOND: Final = 0.5  # and the whole server's: the file cannot be flooded
_REPORT_BURST: Final = 20
_CHAT_TABLES: Final = 2000  # tables whose recent chat is remembered (for reports)
KICK_CLOSE_CODE: Final = 4003


class AdminError(ServerError):
    """An admin request that cannot be done (unknown table or player, bad address...)."""


def admin_socket_path(config: ServerConfig) -> str | None:
    """Where the admin socket listens: ``config.admin_socket``, else beside a file store
    (``None`` for an in-memory store, or when ``admin_socket`` is ``""``: no socket)."""
    if config.admin_socket is not None:
        return config.admin_socket or None
    database = config.database
    if database == ":memory:" or database.startswith("file:"):
        return None
    return database + ".admin"


def moderation_path(config: ServerConfig) -> str | None:
    """The file bans, mutes and reports are kept in (``None`` for an in-memory store)."""
    database = config.database
    if database == ":memory:" or database.startswith("file:"):
        return None
    return database + ".moderation.json"


def _network(text: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    try:
        return ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise AdminError(f"{text!r} is not an IP address or network") from None


class Moderation:
    """Bans, mutes and reports of one server (and each table's last lines of chat)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.banned_names: set[str] = set()  # casefolded
        self.banned_networks: set[str] = set()  # normalised "address/bits"
        self.muted: set[str] = set()  # player ids
        self.reports: list[dict[str, Any]] = []
        self.recent_chat: OrderedDict[str, deque[str]] = OrderedDict()
        self._networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self._last_report: dict[str, float] = {}  # player id -> when they last reported
        self._report_budget = (float(_REPORT_BURST), 0.0)  # tokens, when last counted
        # reports are appended to a file of their own (a line each): a report never
        # rewrites the bans, and the file is cut back to the newest reports now and then
        self.reports_path: str | None = None
        self._report_lines = 0
        if path is not None:
            stem = path.removesuffix(".moderation.json")
            self.reports_path = stem + ".reports.jsonl"
            if os.path.exists(path):
                self._load(path)
            if os.path.exists(self.reports_path):
                self._load_reports(self.reports_path)

    def _load(self, path: str) -> None:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            self.banned_names = {str(name) for name in data.get("banned_names", [])}
            self.banned_networks = {str(net) for net in data.get("banned_networks", [])}
            self.muted = {str(player) for player in data.get("muted", [])}
            self._networks = [_network(net) for net in self.banned_networks]
        except (OSError, ValueError, TypeError, AttributeError, AdminError) as error:
            raise ServerError(f"cannot read the moderation file {path}: {error}") from None

    def _load_reports(self, path: str) -> None:
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise ServerError(f"cannot read the reports file {path}: {error}") from None
        self._report_lines = len(lines)
        for line in lines[-_KEPT_REPORTS:]:
            with contextlib.suppress(ValueError):  # a line cut short by a crash
                report = json.loads(line)
                if isinstance(report, dict):
                    self.reports.append(report)

    def save(self) -> None:
        """Write the file (atomically, mode 0600); nothing for an in-memory store."""
        if self.path is None:
            return
        data = {
            "banned_names": sorted(self.banned_names),
            "banned_networks": sorted(self.banned_networks),
            "muted": sorted(self.muted),
        }
        _replace_file(self.path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")

    # ---- checks ---------------------------------------------------------------------

    def name_banned(self, name: str) -> bool:
        return name.casefold() in self.banned_names

    def address_banned(self, address: str) -> bool:
        if not self._networks:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip.version == net.version and ip in net for net in self._networks)

    # ---- changes --------------------------------------------------------------------

    def ban(self, kind: str, value: str) -> str:
        """Ban a ``name`` or an ``address`` (or network); returns what was banned."""
        if kind == "name":
            banned = value.strip().casefold()
            if not banned:
                raise AdminError("a name to ban, please")
            self.banned_names.add(banned)
        elif kind == "address":
            network = _network(value)
            banned = str(network)
            if banned not in self.banned_networks:
                self.banned_networks.add(banned)
                self._networks.append(network)
        else:
            raise AdminError(f"ban what? 'name' or 'address', not {kind!r}")
        self.save()
        return banned

    def unban(self, kind: str, value: str) -> bool:
        """Lift a ban; ``False`` if there was none."""
        if kind == "name":
            key = value.strip().casefold()
            found = key in self.banned_names
            self.banned_names.discard(key)
        elif kind == "address":
            key = str(_network(value))
            found = key in self.banned_networks
            self.banned_networks.discard(key)
            self._networks = [_network(net) for net in self.banned_networks]
        else:
            raise AdminError(f"unban what? 'name' or 'address', not {kind!r}")
        self.save()
        return found

    def heard(self, table: str, name: str, text: str) -> None:
        """Remember a line of chat at ``table`` (the last few go with a report)."""
        lines = self.recent_chat.get(table)
        if lines is None:
            lines = self.recent_chat[table] = deque(maxlen=RECENT_CHAT_LINES)
            if len(self.recent_chat) > _CHAT_TABLES:
                self.recent_chat.popitem(last=False)
        else:
            self.recent_chat.move_to_end(table)
        lines.append(f"{name}: {text}")

    def may_report(self, player_id: str, now: float) -> bool:
        """Whether ``player_id`` may report now (and, if so, count it): one report per
        player per ``REPORT_COOLDOWN_SECONDS``, and a budget for the whole server."""
        last = self._last_report.get(player_id)
        if last is not None and now - last < REPORT_COOLDOWN_SECONDS:
            return False
        tokens, counted = self._report_budget
        tokens = min(float(_REPORT_BURST), tokens + (now - counted) * _REPORTS_PER_SECOND)
        if tokens < 1.0:
            self._report_budget = (tokens, now)
            return False
        self._report_budget = (tokens - 1.0, now)
        if len(self._last_report) > 10_000:  # forget the cooldowns that are over
            self._last_report = {
                key: when
                for key, when in self._last_report.items()
                if now - when < REPORT_COOLDOWN_SECONDS
            }
        self._last_report[player_id] = now
        return True

    def report(self, report: dict[str, Any]) -> None:
        """Keep ``report`` (in memory, and a line in the reports file)."""
        self.reports.append(report)
        del self.reports[:-_KEPT_REPORTS]
        path = self.reports_path
        if path is None:
            return
        try:
            if self._report_lines >= 2 * _KEPT_REPORTS:  # cut back to the newest
                lines = (json.dumps(kept, ensure_ascii=False) + "\n" for kept in self.reports)
                _replace_file(path, "".join(lines))
                self._report_lines = len(self.reports)
                return
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            with os.fdopen(descriptor, "a", encoding="utf-8") as file:
                file.write(json.dumps(report, ensure_ascii=False) + "\n")
            self._report_lines += 1
        except OSError as error:  # a full disk: the report stays in memory (and the log)
            log.error("cannot write the reports file %s: %s", path, error)


def _replace_file(path: str, text: str) -> None:
    """Write ``path`` whole, mode 0600: a new file renamed over the old one."""
    temporary = f"{path}.tmp"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(temporary, path)


def is_report(text: str) -> bool:
    """A chat line that is a ``/report`` for the host, not for the table."""
    head = text[: len(REPORT_PREFIX) + 1].casefold()
    return head == REPORT_PREFIX or head == REPORT_PREFIX + " "


# ---- the commands ---------------------------------------------------------------------


def _players_matching(hub: Hub, who: str) -> list[Player]:
    """Connected or known players by id, else by name (casefolded)."""
    player = hub.players.get(who)
    if player is not None:
        return [player]
    wanted = who.casefold()
    found = [p for p in hub.players.values() if p.name.casefold() == wanted]
    if not found:
        raise AdminError(f"no player has the id or name {who!r}")
    return found


def _drop_banned(conn: Conn) -> None:
    message = "you are banned from this server"
    conn.send(m.ErrorMessage(code="banned", message=message, request=None, id=None))
    conn.close_soon(1008, "banned")


def _tables(hub: Hub) -> list[dict[str, Any]]:
    out = []
    for table in hub.tables.values():
        seats = []
        for seat in table.seats:
            player = hub.players.get(seat.player_id) if seat.player_id else None
            seats.append(
                {
                    "kind": seat.kind,
                    "name": seat.name if seat.kind != "empty" else None,
                    "player": seat.player_id,
                    "connected": player is not None and player.conn is not None,
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


def _players(hub: Hub) -> list[dict[str, Any]]:
    out = []
    for player in hub.players.values():
        conn = player.conn
        if conn is None:
            continue
        out.append(
            {
                "id": player.id,
                "name": player.name,
                "address": conn.address,
                "connection": conn.id,
                "tables": sorted(t.code for t in hub._tables_of(player.id)),
                "muted": player.id in hub.moderation.muted,
            }
        )
    return out


def _close(hub: Hub, code: str) -> str:
    table = hub.tables.get(code.upper())
    if table is None:
        raise AdminError(f"there is no table {code!r}")
    table.status = "closed"
    hub._save(table)
    hub._drop_table(table)
    log.info(
        "table %s: closed by the host",
        table.code,
        extra=event("table.close", table=table.code, reason="host"),
    )
    return table.code


def _kick(hub: Hub, who: str) -> list[str]:
    kicked = []
    for player in _players_matching(hub, who):
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


def _ban(hub: Hub, kind: str, value: str) -> dict[str, Any]:
    banned = hub.moderation.ban(kind, value)
    dropped = []
    for conn in list(hub.conns):
        player = conn.player
        if (kind == "address" and hub.moderation.address_banned(conn.address)) or (
            kind == "name" and player is not None and hub.moderation.name_banned(player.name)
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


def _mute(hub: Hub, who: str, mute: bool) -> list[str]:
    ids = [player.id for player in _players_matching(hub, who)]
    for player_id in ids:
        if mute:
            hub.moderation.muted.add(player_id)
        else:
            hub.moderation.muted.discard(player_id)
    hub.moderation.save()
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


def _cmd_tables(hub: Hub, args: list[str]) -> Any:
    return _tables(hub)


def _cmd_players(hub: Hub, args: list[str]) -> Any:
    return _players(hub)


def _cmd_close(hub: Hub, args: list[str]) -> Any:
    return _close(hub, _one(args, "close CODE"))


def _cmd_kick(hub: Hub, args: list[str]) -> Any:
    return _kick(hub, _one(args, "kick PLAYER"))


def _cmd_ban(hub: Hub, args: list[str]) -> Any:
    return _ban(hub, *_two(args, "ban name|address VALUE"))


def _cmd_unban(hub: Hub, args: list[str]) -> Any:
    return hub.moderation.unban(*_two(args, "unban name|address VALUE"))


def _cmd_bans(hub: Hub, args: list[str]) -> Any:
    moderation = hub.moderation
    return {
        "names": sorted(moderation.banned_names),
        "addresses": sorted(moderation.banned_networks),
    }


def _cmd_mute(hub: Hub, args: list[str]) -> Any:
    return _mute(hub, _one(args, "mute PLAYER"), True)


def _cmd_unmute(hub: Hub, args: list[str]) -> Any:
    return _mute(hub, _one(args, "unmute PLAYER"), False)


def _cmd_reports(hub: Hub, args: list[str]) -> Any:
    return list(hub.moderation.reports)


ADMIN_COMMANDS: Final[dict[str, Callable[[Hub, list[str]], Any]]] = {
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
"""Every ``spades admin`` command: ``(hub, args) -> result`` (JSON-ready)."""


def run_command(hub: Hub, request: Any) -> dict[str, Any]:
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
        return {"ok": True, "result": command(hub, args)}
    except AdminError as error:
        return {"ok": False, "error": str(error)}
    except OSError as error:  # the moderation file could not be written (a full disk)
        log.error("admin %s: %s", request["command"], error)
        return {"ok": False, "error": f"done in memory, but not saved: {error}"}


# ---- the socket -----------------------------------------------------------------------


async def serve_admin(hub: Hub, path: str) -> asyncio.Server:
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
        try:
            line = await asyncio.wait_for(reader.readline(), 10.0)
            try:
                request = json.loads(line)
            except ValueError:
                reply: dict[str, Any] = {"ok": False, "error": "not a line of JSON"}
            else:
                reply = run_command(hub, request)
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


def admin_request(path: str, command: str, args: list[str], timeout: float = 10.0) -> Any:
    """Send one admin request to the server at ``path``; its ``result``.

    Raises :class:`AdminError` with the server's sentence, or when nobody listens there.
    """
    request = json.dumps({"command": command, "args": args}).encode() + b"\n"
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(path)
            sock.sendall(request)
            data = b""
            while not data.endswith(b"\n"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
    except OSError as error:
        raise AdminError(
            f"cannot reach the server's admin socket {path}: {error.strerror or error} "
            "(is the server running, with this --db, as this user?)"
        ) from None
    try:
        reply = json.loads(data)
    except ValueError:
        raise AdminError("the server's answer was not JSON") from None
    if not reply.get("ok"):
        raise AdminError(str(reply.get("error")))
    return reply.get("result")


# ---- the command line -----------------------------------------------------------------


def add_admin_arguments(parser: argparse.ArgumentParser) -> None:
    """``spades admin [--db PATH | --socket PATH] [--json] COMMAND [ARGS]``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = "Moderate the server running on this machine, over its admin socket."
    parser.epilog = "commands:\n" + "\n".join(
        "  " + line.strip().removeprefix("spades admin ")
        for line in (__doc__ or "\n\n").split("\n\n")[1].splitlines()
    )
    parser.add_argument(
        "--db", default="", help=f"the server's store (default {default_db_path()})"
    )
    parser.add_argument("--socket", default=None, help="the admin socket (default: DB.admin)")
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    parser.add_argument("admin_command", metavar="COMMAND", choices=sorted(ADMIN_COMMANDS))
    parser.add_argument("admin_args", metavar="ARGS", nargs="*")


def _seat_text(seat: dict[str, Any]) -> str:
    if seat["kind"] == "empty":
        return "(empty)"
    away = not seat["connected"] and seat["kind"] != "bot"
    return f"{seat['name']}{' (away)' if away else ''}"


def _print_result(command: str, result: Any) -> None:
    if command == "tables":
        for table in result:
            seats = " vs ".join(_seat_text(seat) for seat in table["seats"])
            print(f"{table['code']}  {table['status']:<8} {table['phase']:<10} {seats}")
        print(f"{len(result)} tables")
    elif command == "players":
        for player in result:
            muted = "  (muted)" if player["muted"] else ""
            tables = ",".join(player["tables"]) or "-"
            print(f"{player['id']}  {player['name']:<20} {player['address']:<16} {tables}{muted}")
        print(f"{len(result)} players connected")
    elif command == "reports":
        for report in result:
            print(
                f"{report['time']}  table {report['table']}  {report['reporter_name']} "
                f"reports {report['reported_name'] or '-'}: {report['text']}"
            )
            for line in report["recent_chat"]:
                print(f"    | {line}")
        print(f"{len(result)} reports")
    elif command == "bans":
        for name in result["names"]:
            print(f"name     {name}")
        for address in result["addresses"]:
            print(f"address  {address}")
    else:
        print(json.dumps(result, ensure_ascii=False))


def run_admin(args: argparse.Namespace) -> int:
    """``spades admin``: one request to the running server; returns the exit status."""
    path = args.socket or (args.db or default_db_path()) + ".admin"
    try:
        result = admin_request(path, args.admin_command, list(args.admin_args))
    except AdminError as error:
        print(f"spades admin: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1))
    else:
        _print_result(args.admin_command, result)
    return 0


def new_report(
    table: str,
    reporter: Player,
    reported: tuple[str | None, str | None],
    text: str,
    recent: list[str],
) -> dict[str, Any]:
    """A report's stored form."""
    return {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "table": table,
        "reporter": reporter.id,
        "reporter_name": reporter.name,
        "reported": reported[0],
        "reported_name": reported[1],
        "text": text,
        "recent_chat": recent,
    }
