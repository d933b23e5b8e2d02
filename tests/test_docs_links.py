"""The README and docs/ hold together: every relative link and picture resolves (a file,
and a heading when the link names an anchor), the docs index lists every page, the
README stays a short front page that still starts with the two commands CI runs, and no
figure excuses itself with the machine's other work.

The links are read the way GitHub renders them: inline links and images outside code,
anchors as GitHub makes them from headings (lower case, punctuation dropped, spaces to
hyphens, ``-1``, ``-2``... for repeats), plus explicit ``<a id>`` / ``<a name>`` anchors.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
INDEX = DOCS / "README.md"

README_MAX_LINES = 250
PICTURE_MAX_BYTES = 200 * 1024
# the README's first code block, byte for byte: .ci/run runs the second line's test command
FIRST_COMMANDS = (
    "pip install -e . && spades",
    "pip install -e '.[test]' && python3 -m pytest -n 2",
)
# words that excuse a figure with what else the machine was doing, not what measured it
EXCUSES = (
    "other engineers",
    "engineers' jobs",
    "load average",
    "quiet machine",
    "machine to itself",
    "busy with other",
    "with other jobs",
    "other jobs on",
)

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_TARGET = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)=\"([^\"]+)\"", re.IGNORECASE)
HTML_ANCHOR = re.compile(r"<a\b[^>]*?\b(?:id|name)=\"([^\"]+)\"", re.IGNORECASE)
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def pages() -> list[Path]:
    """The README and every Markdown page under docs/."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def prose_lines(text: str, blank_code_spans: bool = True) -> list[str]:
    """The lines of ``text`` outside fenced code blocks, code spans blanked out unless
    ``blank_code_spans`` is false."""
    lines: list[str] = []
    fence = ""
    for line in text.splitlines():
        opening = FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = ""
            continue
        if opening:
            fence = opening.group(1)
            continue
        lines.append(CODE_SPAN.sub("code", line) if blank_code_spans else line)
    return lines


def links_in(page: Path) -> list[str]:
    """Every link and picture target written in ``page`` (outside code), in order."""
    targets: list[str] = []
    for line in prose_lines(page.read_text(encoding="utf-8")):
        targets += INLINE_LINK.findall(line)
        targets += HTML_TARGET.findall(line)
    return targets


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading's text (before repeats are numbered)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(page: Path) -> set[str]:
    """Every anchor a link into ``page`` may name: its headings' and its explicit ones."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose_lines(page.read_text(encoding="utf-8"), blank_code_spans=False):
        found.update(HTML_ANCHOR.findall(line))
        heading = HEADING.match(line)
        if heading is None:
            continue
        base = slug(heading.group(2))
        repeat = seen.get(base, 0)
        seen[base] = repeat + 1
        found.add(base if repeat == 0 else f"{base}-{repeat}")
    return found


def is_external(target: str) -> bool:
    return re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) is not None


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """Each relative link of ``page`` that names no file inside ``root``, or no heading of
    its file."""
    broken: list[str] = []
    for target in links_in(page):
        if is_external(target):
            continue
        path_part, _, anchor = target.partition("#")
        path = (page.parent / unquote(path_part)).resolve() if path_part else page
        if not path.is_relative_to(root):
            broken.append(f"{target} (outside the repository)")
        elif not path.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and path.suffix == ".md" and unquote(anchor) not in anchors_of(path):
            broken.append(f"{target} (no such heading in {path.relative_to(root)})")
    return broken


@pytest.mark.parametrize("page", pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken_links(page) == []


def test_the_link_walk_catches_a_missing_file_and_a_missing_heading(tmp_path: Path) -> None:
    # the walker itself, on a small repository written for the purpose
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "README.md").write_text("# Index\n", encoding="utf-8")
    (tmp_path / "outside.md").write_text("# Outside\n", encoding="utf-8")
    page = tmp_path / "docs" / "probe.md"
    page.write_text(
        '# Probe `page`\n\n## Same\n\n## Same\n\n<a id="kept"></a>\n'
        "[ok](#probe-page) [ok](#same-1) [ok](README.md#index) [ok](#kept)\n"
        "[gone](no-such-page.md) [gone](#nowhere) [gone](README.md#no-such-heading)\n"
        "```\n[ignored](inside-a-code-block.md)\n```\n"
        "`[ignored](inside-a-code-span.md)` ![gone](images/no-such-picture.png)\n"
        "[ok](../outside.md) [gone](../../beyond.md) [web](https://example.org/x.md)\n",
        encoding="utf-8",
    )
    assert broken_links(page, root=tmp_path) == [
        "no-such-page.md (no such file)",
        "#nowhere (no such heading in docs/probe.md)",
        "README.md#no-such-heading (no such heading in docs/README.md)",
        "images/no-such-picture.png (no such file)",
        "../../beyond.md (outside the repository)",
    ]


def test_github_anchors_drop_punctuation_and_number_repeats() -> None:
    assert slug("Versions 1.0 and 1.1") == "versions-10-and-11"
    assert slug("Many nodes: `redirect`") == "many-nodes-redirect"
    assert slug("TLS, and running behind a [proxy](x.md)") == "tls-and-running-behind-a-proxy"


def test_the_docs_index_lists_every_page() -> None:
    listed = {
        (INDEX.parent / target.partition("#")[0]).resolve()
        for target in links_in(INDEX)
        if not is_external(target)
    }
    unlisted = [
        str(page.relative_to(ROOT))
        for page in sorted(DOCS.rglob("*.md"))
        if page != INDEX and page.resolve() not in listed
    ]
    assert unlisted == []


def test_the_readme_links_every_docs_page_through_the_index() -> None:
    targets = {(ROOT / t.partition("#")[0]).resolve() for t in links_in(README) if t[0] != "#"}
    assert INDEX.resolve() in targets
    for name in ("hosting", "cluster", "bot", "analysis", "benchmarks", "development", "server"):
        assert (DOCS / f"{name}.md").resolve() in targets, f"the README does not link {name}"


def test_the_readme_is_a_front_page_that_starts_with_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"
    first_block = re.search(r"^```[a-z]*\n(.*?)^```", text, re.S | re.M)
    assert first_block is not None, "the README has no code block"
    assert lines.index(first_block.group(0).splitlines()[0]) < 5, "the commands come first"
    commands = [line.split("  #")[0].rstrip() for line in first_block.group(1).splitlines()]
    assert list(FIRST_COMMANDS) == commands[: len(FIRST_COMMANDS)]
    assert any(line.startswith("spades serve ") for line in commands)


def test_ci_runs_the_readmes_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    test_command = FIRST_COMMANDS[1].split(" && ")[1]
    assert test_command in ci


def test_every_picture_is_in_docs_and_small() -> None:
    pictures = [
        (page.parent / target).resolve()
        for page in pages()
        for target in links_in(page)
        if not is_external(target) and target.lower().endswith((".png", ".svg", ".jpg"))
    ]
    assert pictures, "the README shows no picture"
    for picture in pictures:
        assert picture.is_relative_to(DOCS.resolve()), f"{picture} is not under docs/"
        size = picture.stat().st_size
        assert size < PICTURE_MAX_BYTES, f"{picture.name} is {size} bytes"


@pytest.mark.parametrize("page", pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_no_figure_excuses_itself_with_the_machines_other_work(page: Path) -> None:
    text = " ".join(page.read_text(encoding="utf-8").lower().split())
    assert [words for words in EXCUSES if words in text] == []
