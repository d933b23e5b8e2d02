"""``spades admin``: one request to a running server's admin socket, printed.

    spades admin tables | players | close CODE | kick PLAYER | ban name NAME | ...
    result = admin_request(path, "tables", [])        # AdminError with the server's words

The commands themselves are :mod:`server.ops.admin`.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import stat
import sys
from typing import Any

from server.config import default_db_path
from server.ops.admin import ADMIN_COMMANDS, peer_uid
from server.ops.moderation import AdminError

__all__ = ["add_admin_arguments", "admin_request", "run_admin"]


def admin_request(
    path: str, command: str, args: list[str], timeout: float = 10.0, uid: int | None = None
) -> Any:
    """Send one admin request to the server at ``path``; its ``result``.

    The socket must be owned by, and served by a process of, ``uid`` (default: the user
    running this): anything else may be another local user's trap, told nothing.
    Raises :class:`AdminError` with the server's sentence, when nobody listens there, or
    when the socket is not the server's.
    """
    owner = os.geteuid() if uid is None else uid
    request = json.dumps({"command": command, "args": args}).encode() + b"\n"
    try:
        info = os.lstat(path)
        if not stat.S_ISSOCK(info.st_mode):
            raise AdminError(f"{path} is not a socket: not talking to it")
        if info.st_uid != owner:
            raise AdminError(
                f"the admin socket {path} belongs to uid {info.st_uid}, not to uid {owner}: "
                "not talking to it (run spades admin as the server's user)"
            )
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(path)
            served_by = peer_uid(sock)
            if served_by is not None and served_by != owner:
                raise AdminError(
                    f"the admin socket {path} is served by uid {served_by}, not by uid "
                    f"{owner}: not talking to it"
                )
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
