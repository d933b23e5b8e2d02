"""The settings a player keeps between runs: today the language of the settings window.

They live in ``$XDG_CONFIG_HOME/spades/settings.json`` (``~/.config/spades/...``), a JSON
object (``{"language": "de"}``); the session tokens, which are state rather than
choices, live apart (:mod:`client.tokens`)::

    load_language()          # "de", or None: nothing saved, or the file unreadable
    save_language("ja")      # best effort: a file that cannot be written is left be

The ``spades`` command uses them as ``--lang``, else the saved language, else
``LANGUAGE``/``LC_ALL``/``LANG`` (:func:`client.i18n.choose`). Raises nothing: a
missing, broken or unwritable file means "nothing saved".
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path
from typing import Any

from client.i18n import LANGUAGES

__all__ = ["load_language", "save_language", "settings_file"]


def settings_file() -> Path:
    """Where the settings are kept (``$XDG_CONFIG_HOME`` when set, else ``~/.config``)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "spades" / "settings.json"


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def load_language(path: Path | None = None) -> str | None:
    """The language saved in ``path`` (default :func:`settings_file`), if it is one of
    :data:`~client.i18n.LANGUAGES`; else None."""
    code = _read(path or settings_file()).get("language")
    return code if isinstance(code, str) and code in LANGUAGES else None


def save_language(code: str, path: Path | None = None) -> None:
    """Remember ``code`` as the player's language, keeping the file's other settings.
    The file is replaced whole (written beside it, then renamed), so that a run that
    stops half way leaves the old file, never half a new one."""
    path = path or settings_file()
    data = _read(path)
    data["language"] = code
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            tmp.replace(path)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise
