"""``spades admin`` and moderation, by the names the command line and tests load.

The parts live in :mod:`server.ops`: :mod:`~server.ops.admin` (the commands and the
admin socket), :mod:`~server.ops.admin_cli` (the command line) and
:mod:`~server.ops.moderation` (bans, mutes, reports).
"""

from __future__ import annotations

from server.ops.admin import (
    ADMIN_COMMANDS,
    KICK_CLOSE_CODE,
    AdminPort,
    admin_socket_path,
    run_command,
    serve_admin,
)
from server.ops.admin_cli import add_admin_arguments, admin_request, run_admin
from server.ops.moderation import (
    REPORT_PREFIX,
    AdminError,
    Moderation,
    is_report,
    moderation_path,
    new_report,
)

__all__ = [
    "ADMIN_COMMANDS",
    "KICK_CLOSE_CODE",
    "REPORT_PREFIX",
    "AdminError",
    "AdminPort",
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
