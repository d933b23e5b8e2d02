"""Session tokens kept between runs, so ``spades play`` picks up its seats after a restart.

The tokens live in ``$XDG_STATE_HOME/spades/tokens.json`` (``~/.local/state/...``), one per
server address and player name, readable by the user only. A token the server no longer
knows is simply replaced by a new session.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path

__all__ = ["load_token", "save_token", "token_file"]


def token_file() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "spades" / "tokens.json"


def _key(url: str, name: str) -> str:
    return f"{url.rstrip('/')} {name}"


def _read(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): str(v) for k, v in data.items() if isinstance(v, str)}


def load_token(url: str, name: str, path: Path | None = None) -> str | None:
    """The token saved for ``name`` at ``url``, if any."""
    return _read(path or token_file()).get(_key(url, name))


def save_token(url: str, name: str, token: str, path: Path | None = None) -> None:
    """Remember ``token`` for ``name`` at ``url`` (best effort: errors are ignored). The
    file is readable and writable by the user only (0600) from the moment it exists."""
    path = path or token_file()
    data = _read(path)
    data[_key(url, name)] = token
    with contextlib.suppress(OSError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # a fresh file created 0600 by open() itself: at no moment can another user
        # read it (writing first and restricting after leaves a window)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(json.dumps(data, indent=1))
            tmp.replace(path)
        except OSError:
            tmp.unlink(missing_ok=True)
            raise
