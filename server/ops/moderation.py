"""Moderation: bans, mutes and reports of one server (and each table's recent chat).

    moderation = Moderation(moderation_path(config))   # None: in memory only
    moderation.ban("address", "203.0.113.0/24")        # AdminError for a bad value
    moderation.name_banned("mallory"); moderation.address_banned("203.0.113.7")

Bans and mutes are kept in ``spades.db.moderation.json`` beside the store (mode 0600,
replaced atomically), reports in ``spades.db.reports.jsonl`` (a line each, cut back to
the newest 1000 now and then), so they survive a restart; with an in-memory store they
last as long as the process. A player may report once every 30 s, an address and the
spectators of a table have budgets of their own, and a seat of a game is never refused
for what others sent (:mod:`server.ops.report_budget`).
The host changes them with ``spades admin`` (:mod:`server.ops.admin`).
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import os
import stat
import tempfile
import time
from collections import OrderedDict, deque
from typing import Any, Final

from server.config import ServerConfig
from server.errors import ServerError
from server.lobby.names import skeleton
from server.ops.report_budget import ReportBudget

__all__ = [
    "RECENT_CHAT_LINES",
    "REPORT_PREFIX",
    "AdminError",
    "Moderation",
    "is_report",
    "moderation_path",
    "new_report",
]

log = logging.getLogger("server")

REPORT_PREFIX: Final = "/report"
RECENT_CHAT_LINES: Final = 10
_KEPT_REPORTS: Final = 1000
_CHAT_TABLES: Final = 2000  # tables whose recent chat is remembered (for reports)


class AdminError(ServerError):
    """An admin request that cannot be done (unknown table or player, bad address...)."""


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
        self._banned_key: frozenset[str] = frozenset()
        self._banned_skeletons: frozenset[str] = frozenset()
        self.banned_networks: set[str] = set()  # normalised "address/bits"
        self.muted: set[str] = set()  # player ids
        self.reports: list[dict[str, Any]] = []
        self.recent_chat: OrderedDict[str, deque[str]] = OrderedDict()
        self._networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self.report_budget = ReportBudget()  # per player, address, table (report_budget.py)
        # reports are appended to a file of their own (a line each): a report never
        # rewrites the bans, and the file is cut back to the newest reports now and then
        self.reports_path: str | None = None
        self._report_lines = 0
        if path is not None:
            stem = path.removesuffix(".moderation.json")
            self.reports_path = stem + ".reports.jsonl"
            # lexists: a symbolic link there is refused when read, not taken for nothing
            if os.path.lexists(path):
                self._load(path)
            if os.path.lexists(self.reports_path):
                self._load_reports(self.reports_path)

    def _load(self, path: str) -> None:
        try:
            data = json.loads(_read_private(path))
            self.banned_names = {str(name) for name in data.get("banned_names", [])}
            self.banned_networks = {str(net) for net in data.get("banned_networks", [])}
            self.muted = {str(player) for player in data.get("muted", [])}
            self._networks = [_network(net) for net in self.banned_networks]
        except (OSError, ValueError, TypeError, AttributeError, AdminError) as error:
            raise ServerError(f"cannot read the moderation file {path}: {error}") from None

    def _load_reports(self, path: str) -> None:
        try:
            lines = _read_private(path).splitlines()
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
        """Whether ``name`` looks like a banned name (skeletons compared: a ban on
        ``troll`` holds for ``troII``, ``trоll`` and ``ｔｒｏｌｌ``)."""
        banned = frozenset(self.banned_names)
        if banned != self._banned_key:  # the bans changed: fold them again
            self._banned_key = banned
            self._banned_skeletons = frozenset(skeleton(name) for name in banned) - {""}
        return skeleton(name) in self._banned_skeletons

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
        """Whether ``player_id`` (a spectator, address unknown) may report now (and, if
        so, count it); see :meth:`report_refusal`."""
        return self.report_refusal(player_id, now) is None

    def report_refusal(
        self, player_id: str, now: float, address: str = "", table: str = "", seated: bool = False
    ) -> str | None:
        """Why a report is refused now (the budget that refused, truthfully), or ``None``
        (then it is counted): :class:`server.ops.report_budget.ReportBudget`."""
        return self.report_budget.refusal(player_id, now, address, table, seated)

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
            descriptor = os.open(path, _APPEND, 0o600)
            with os.fdopen(descriptor, "a", encoding="utf-8") as file:
                file.write(json.dumps(report, ensure_ascii=False) + "\n")
            self._report_lines += 1
        except OSError as error:  # a full disk: the report stays in memory (and the log)
            log.error("cannot write the reports file %s: %s", path, error)


# Never through a symbolic link: in a folder others could write to, a link planted
# there would aim our writes at a file of the attacker's choosing.
_NOFOLLOW: Final = getattr(os, "O_NOFOLLOW", 0)
_APPEND: Final = os.O_WRONLY | os.O_CREAT | os.O_APPEND | _NOFOLLOW


def _read_private(path: str) -> str:
    """The text of the regular file ``path``; OSError for a link or anything else."""
    descriptor = os.open(path, os.O_RDONLY | _NOFOLLOW)
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise OSError(f"{path} is not a regular file")
        return file.read().decode("utf-8")


def _replace_file(path: str, text: str) -> None:
    """Write ``path`` whole, mode 0600: a new file (a fresh name that nobody could have
    planted, :func:`tempfile.mkstemp`) renamed over the old one (a link there is
    replaced, not followed)."""
    folder, name = os.path.split(path)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def is_report(text: str) -> bool:
    """A chat line that is a ``/report`` for the host, not for the table."""
    head = text[: len(REPORT_PREFIX) + 1].casefold()
    return head == REPORT_PREFIX or head == REPORT_PREFIX + " "


def new_report(
    table: str,
    reporter_id: str,
    reporter_name: str,
    reported: tuple[str | None, str | None],
    text: str,
    recent: list[str],
) -> dict[str, Any]:
    """A report's stored form."""
    return {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "table": table,
        "reporter": reporter_id,
        "reporter_name": reporter_name,
        "reported": reported[0],
        "reported_name": reported[1],
        "text": text,
        "recent_chat": recent,
    }
