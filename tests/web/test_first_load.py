"""The page's first load stays small: what a browser fetches before anyone plays is
index.html, app.css, rules.json and the modules app.js imports statically, counted as they
travel (the server sends them gzip-compressed). The shuffle
check's modules load at the first hand's end (phases/handresult.js imports them then)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "client" / "web"
STATIC_IMPORT = re.compile(r'^import\s[^;]*?from\s+"(\.{1,2}/[^"]+)";', re.MULTILINE | re.DOTALL)
BUDGET = 150 * 1024  # bytes on the wire, gzip (issue 29: at most 150 KB compressed)


def static_modules(entry: Path) -> set[Path]:
    """Every module ``entry`` loads before it runs (its static imports, transitively)."""
    seen: set[Path] = set()
    todo = [entry.resolve()]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for target in STATIC_IMPORT.findall(path.read_text(encoding="utf-8")):
            todo.append((path.parent / target).resolve())
    return seen


def test_every_module_the_page_imports_exists() -> None:
    for module in static_modules(WEB / "app.js"):
        assert module.is_file(), module


def test_the_first_load_is_under_its_budget_and_leaves_the_shuffle_check_for_later() -> None:
    modules = static_modules(WEB / "app.js")
    names = {module.relative_to(WEB).as_posix() for module in modules}
    assert {"fold.js", "sync.js", "screens/table.js", "phases/bidding.js"} <= names
    assert not {"shuffle.js", "verify.js", "sha256.js"} & names
    others = [WEB / "index.html", WEB / "app.css", WEB / "rules.json"]
    total = sum(len(gzip.compress(path.read_bytes())) for path in [*modules, *others])
    assert total < BUDGET, total
    # what is left out is still reachable: loaded by a dynamic import
    handresult = (WEB / "phases" / "handresult.js").read_text(encoding="utf-8")
    assert 'import("../verify.js")' in handresult  # which imports sha256.js


def test_no_web_module_is_over_500_lines() -> None:
    for script in sorted(WEB.rglob("*.js")):
        lines = script.read_text(encoding="utf-8").count("\n")
        assert lines <= 500, (script.relative_to(WEB).as_posix(), lines)
