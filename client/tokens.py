"""Session tokens kept between runs, so ``spades play`` picks up its seats after a restart.

The tokens live in ``$XDG_STATE_HOME/spades/tokens.json`` (``~/.local/state/...``), one per
server address and player name, readable by the user only. A token the server no longer
knows is simply replaced by a new session.
"""

from __future__ import annotations

import contextlib
import json
import os
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
    """Remember ``token`` for ``name`` at ``url`` (best effort: errors are ignored)."""
    path = path or token_file()
    data = _read(path)
    data[_key(url, name)] = token
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        tmp.chmod(0o600)
        tmp.replace(path)
