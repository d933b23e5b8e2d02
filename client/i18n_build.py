"""The catalogues' build: extract, update, compile and the page's JSON, with Babel.

One template for both clients: ``babel.cfg`` (at the top of the repository) has Babel
extract Python's ``_``/``ngettext``/``N_`` from ``client/`` and JavaScript's ``t``/``nt``
from ``client/web/``. Each language's ``.po`` is the source of truth; the ``.mo`` (for
the terminal, read by :mod:`gettext`) and ``client/web/locale/<code>.json`` (for the
page: the messages it can ask for, compact) are compiled from it and committed, so
nothing is built at install or run time::

    python3 -m client.i18n_build            # extract, update every .po, compile .mo and .json
    python3 -m client.i18n_build --check    # exit 1 and list the problems: a stale file, a
                                            # message missing, untranslated or fuzzy
    python3 -m client.i18n_build --stats    # messages per language, untranslated, fuzzy

A sixth language is one catalogue: ``pybabel init -D spades -i client/locale/spades.pot
-d client/locale -l pl`` (or copy a ``.po`` and set its ``Language`` header), add the code
to :data:`client.i18n.LANGUAGES`, translate, run this module. English (``en``) is the
source language: its ``msgstr`` are filled with the ``msgid`` by this build.

Needs Babel (the ``test`` extra). Raises ``OSError`` when a file cannot be read or
written; :class:`CatalogueError` when ``babel.cfg`` is missing (not a source checkout).
"""

from __future__ import annotations

import argparse
import copy
import datetime
import gettext
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Final

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from client.i18n import DOMAIN, LANGUAGE_NAMES, LANGUAGES, LOCALE_DIR
from client.rules import FIELD_LABELS, LEVEL_WORDS, PRESET_SUMMARIES, PRESET_WORDS, STATUS_WORDS

__all__ = [
    "JSON_DIR",
    "CatalogueError",
    "build",
    "extract_page",
    "main",
    "problems",
    "statistics",
    "template",
]

ROOT: Final = Path(__file__).resolve().parent.parent
JSON_DIR: Final = Path(__file__).parent / "web" / "locale"
TEMPLATE: Final = LOCALE_DIR / f"{DOMAIN}.pot"
# fixed dates in the headers, so that a build with nothing new writes the same bytes
_DATE: Final = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)
_HEADER: Final = """\
# {name} words of spades2's terminal and web clients (one catalogue for both).
# Edit the msgstr lines; python3 -m client.i18n_build compiles the .mo and the page's JSON.
#"""
REGENERATE: Final = "run `python3 -m client.i18n_build`, then translate what it reports"


class CatalogueError(Exception):
    """The catalogues cannot be built here (no ``babel.cfg``: not a source checkout)."""


_PAGE_CALL: Final = re.compile(
    r'\b(?P<func>nt|t)\(\s*"(?P<one>(?:[^"\\]|\\.)*)"(?:\s*,\s*"(?P<other>(?:[^"\\]|\\.)*)")?'
)


def extract_page(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """Babel's extraction method for the page (``babel.cfg`` names it): every
    ``t("...")`` and ``nt("...", "...")`` whose msgids are double-quoted literals, wherever
    it stands (an attribute inside a template string included, which Babel's own
    JavaScript lexer misses); comment lines are skipped."""
    for lineno, raw in enumerate(fileobj.read().decode("utf-8").splitlines(), 1):
        stripped = raw.lstrip()
        if stripped.startswith(("//", "*", "/*")):
            continue
        for call in _PAGE_CALL.finditer(raw):
            one = json.loads(f'"{call.group("one")}"')
            if call.group("func") == "nt" and call.group("other") is not None:
                yield lineno, "nt", (one, json.loads(f'"{call.group("other")}"')), []
            elif call.group("func") == "t":
                yield lineno, "t", one, []


def template() -> Catalog:
    """Every message the code marks, extracted by Babel as ``babel.cfg`` says."""
    config = ROOT / "babel.cfg"
    if not config.exists():
        raise CatalogueError(f"{config} not found: the catalogues build from a source checkout")
    with config.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle, str(config))  # type: ignore[no-untyped-call]
    catalog = Catalog(project="spades2", creation_date=_DATE, revision_date=_DATE, fuzzy=False)
    found = extract_from_dir(str(ROOT), method_map, options_map)
    for filename, lineno, message, comments, context in found:
        # the locations stay in memory (the page's JSON keeps the page's messages); the
        # files are written without them, so that moving code changes no catalogue
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def _page_ids(source: Catalog) -> set[str]:
    """The msgids the page can ask for: its own ``t``/``nt`` calls, and the words of
    ``rules.json`` and the server's values that it passes to ``t`` (labels, presets and
    their summaries, levels, table states), which the terminal's tables mark."""
    ids = {
        _key(message)
        for message in source
        if message.id and any(path.startswith("client/web/") for path, _line in message.locations)
    }
    words = [*FIELD_LABELS.values(), *PRESET_WORDS.values(), *LEVEL_WORDS.values()]
    words += PRESET_SUMMARIES.values()
    words += [*STATUS_WORDS.values(), "the first drafter", "the second drafter", "none"]
    return ids | set(words)


def _key(message: Message) -> str:
    return str(message.id[0] if isinstance(message.id, (list, tuple)) else message.id)


def _po_path(code: str) -> Path:
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def _read(code: str) -> Catalog:
    path = _po_path(code)
    if not path.exists():
        return Catalog(locale=code, project="spades2", creation_date=_DATE, fuzzy=False)
    with path.open("rb") as handle:
        return read_po(handle, locale=code, domain=DOMAIN)


def _updated(code: str, source: Catalog) -> Catalog:
    catalog = _read(code)
    # a copy: update() adopts the template's message objects, and English fills them in
    catalog.update(copy.deepcopy(source), no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    catalog.creation_date = _DATE
    catalog.revision_date = _DATE
    catalog.fuzzy = False
    catalog.project = "spades2"
    catalog.version = "1"
    catalog.msgid_bugs_address = ""
    catalog.last_translator = "spades2"
    catalog.language_team = code
    catalog.header_comment = _HEADER.format(name=LANGUAGE_NAMES.get(code, code))
    if code == "en":  # the source language: the words are the msgids
        for message in catalog:
            if isinstance(message.id, (list, tuple)) and _untranslated(message):
                message.string = tuple(message.id)
            elif message.id and not message.string:
                message.string = message.id
    return catalog


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, no_location=True, sort_output=True, width=96)
    # the same bytes whichever Babel version wrote them
    return re.sub(rb"Generated-By: Babel [^\\]*", b"Generated-By: Babel", out.getvalue())


def _mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def _json_bytes(code: str, catalog: Catalog, page: set[str]) -> bytes:
    """The page's catalogue: only the messages the page can ask for (the first load
    stays small), compact."""
    messages: dict[str, Any] = {}
    for message in catalog:
        key = _key(message) if message.id else ""
        if key not in page or message.fuzzy or message.context:  # the page has no contexts
            continue
        value = list(message.string) if isinstance(message.string, tuple) else message.string
        messages[key] = value
    document = {
        "language": code,
        "plural_forms": catalog.plural_forms,
        "messages": dict(sorted(messages.items())),
    }
    return (json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def _outputs(source: Catalog) -> dict[Path, bytes]:
    """Every file the build writes, with the bytes it must hold."""
    out = {TEMPLATE: _po_bytes(source)}
    page = _page_ids(source)
    for code in LANGUAGES:
        catalog = _updated(code, source)
        po = _po_bytes(catalog)
        # the compiled forms are made from the .po as written (what a translator sees)
        written = read_po(io.BytesIO(po), locale=code, domain=DOMAIN)
        out[_po_path(code)] = po
        out[_po_path(code).with_suffix(".mo")] = _mo_bytes(written)
        out[JSON_DIR / f"{code}.json"] = _json_bytes(code, written, page)
    return out


def _same(path: Path, body: bytes) -> bool:
    """Whether ``path`` holds ``body`` (a ``.mo`` by its messages: the compiler writes
    its own version into the header)."""
    if not path.exists():
        return False
    have = path.read_bytes()
    if path.suffix != ".mo":
        return have == body
    return _mo_messages(have) == _mo_messages(body)


def _mo_messages(body: bytes) -> dict[Any, str]:
    messages = dict(gettext.GNUTranslations(io.BytesIO(body))._catalog)  # type: ignore[attr-defined]
    header = messages.pop("", "")
    plural = [line for line in header.splitlines() if line.startswith("Plural-Forms")]
    messages[""] = "\n".join(plural)
    return messages


def build() -> list[Path]:
    """Extract, update, compile: write every file that changed; the paths written."""
    written = []
    for path, body in _outputs(template()).items():
        if not _same(path, body):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(body)
            written.append(path)
    return written


def _untranslated(message: Message) -> bool:
    string = message.string
    strings = tuple(string) if isinstance(string, (tuple, list)) else (string,)
    return not all(strings)


def statistics() -> dict[str, dict[str, int]]:
    """Per language: ``messages``, ``untranslated``, ``fuzzy`` (from the ``.po`` files)."""
    out = {}
    for code in LANGUAGES:
        catalog = _read(code)
        messages = [m for m in catalog if m.id]
        out[code] = {
            "messages": len(messages),
            "untranslated": sum(1 for m in messages if _untranslated(m)),
            "fuzzy": sum(1 for m in messages if m.fuzzy),
        }
    return out


def problems() -> list[str]:
    """What is wrong with the committed catalogues: every stale file, and every message
    used in the code that a language lacks, leaves untranslated or marks fuzzy."""
    source = template()
    found: list[str] = []
    for path, body in _outputs(source).items():
        if not _same(path, body):
            found.append(f"{path.relative_to(ROOT)} is stale: {REGENERATE}")
    for code in LANGUAGES:
        catalog = _read(code)
        for message in source:
            if not message.id:
                continue
            have = catalog.get(message.id, message.context)
            key = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
            if have is None:
                found.append(f"{code}: missing {key!r}")
            elif have.fuzzy:
                found.append(f"{code}: fuzzy {key!r}")
            elif _untranslated(have):
                found.append(f"{code}: untranslated {key!r}")
    return found


def _print(lines: Iterable[str]) -> None:
    for line in lines:
        print(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m client.i18n_build", description=__doc__)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 on problems")
    parser.add_argument("--stats", action="store_true", help="messages per language")
    args = parser.parse_args(argv)
    if args.stats:
        print(json.dumps(statistics()))
        return 0
    if args.check:
        found = problems()
        _print(found)
        return 1 if found else 0
    _print(f"wrote {path.relative_to(ROOT)}" for path in build())
    left = [line for line in problems() if "stale" not in line]
    _print(left)
    return 0


if __name__ == "__main__":
    sys.exit(main())
