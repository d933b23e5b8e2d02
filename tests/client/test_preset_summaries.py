"""A preset's few words ("to 300") by its code, in the player's language: the terminal's
rules window, and the page's preset menu (client/web/rules.json's English through the
page's catalogue, run under node); a preset the catalogue does not know keeps the
English it came with."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from client import webrules
from client.i18n import LANGUAGES, _, install
from client.rules import PRESET_SUMMARIES, describe_rules, preset_summary
from engine import PRESETS, RuleSet

WEB = Path(__file__).resolve().parents[2] / "client" / "web"


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    install("en")


def test_each_summary_says_what_its_presets_rules_say() -> None:
    # the catalogue's English for a preset is what its rules would be summed up as
    assert set(PRESET_SUMMARIES) == set(PRESETS)
    for name, rules in PRESETS.items():
        assert PRESET_SUMMARIES[name] == webrules.summary_of(rules)
    table = json.loads(webrules.RULES_PATH.read_text(encoding="utf-8"))
    assert table["summaries"] == PRESET_SUMMARIES


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_terminal_shows_the_summary_in_the_language(code: str) -> None:
    install(code)
    for name in PRESETS:
        words = preset_summary(name)
        assert words == _(PRESET_SUMMARIES[name])
        if code != "en":
            assert words != PRESET_SUMMARIES[name]
        first = describe_rules(RuleSet.preset(name))[0]
        assert f"({words})" in first
    assert preset_summary("bridge-like", "to 400") == "to 400"
    assert preset_summary("bridge-like") == ""


def test_the_rules_window_of_a_classic_table_in_german() -> None:
    install("de")
    first = describe_rules(RuleSet.preset("classic"))[0]
    heading = _("Preset: {preset} ({summary}).")
    assert first == heading.format(preset=_("classic"), summary="bis 300")
    assert first.startswith("Vorgabe: ")
    assert describe_rules(RuleSet.preset("five-hundred"))[0].endswith("(bis 500, Blind Nil).")


def test_custom_rules_have_no_summary() -> None:
    install("de")
    custom = RuleSet.preset("classic").to_dict() | {"target_score": 250}
    assert describe_rules(RuleSet(**custom))[0] == _("Custom rules.")


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("node (Node.js) is not installed: apt-get install nodejs (tests/web needs it)")
    return found


PAGE_SCRIPT = """
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const web = process.argv[1];
const { t, useCatalogue } = await import(pathToFileURL(web + "/i18n.js").href);
const rules = JSON.parse(readFileSync(web + "/rules.json", "utf-8"));
const out = {};
for (const code of ["en", "de", "ja", "nl", "el"]) {
  const document = code === "en" ? { messages: {}, plural_forms: null }
    : JSON.parse(readFileSync(`${web}/locale/${code}.json`, "utf-8"));
  useCatalogue(code, document.messages, document.plural_forms);
  const shown = Object.entries(rules.summaries).map(([name, words]) => [name, t(words)]);
  out[code] = Object.fromEntries(shown);
  out[code]["unknown"] = t("to 400, no nil");
}
process.stdout.write(JSON.stringify(out));
"""


def test_the_page_shows_the_summary_in_the_language() -> None:
    # the page's preset menu (client/web/screens/create.js) shows t(rules.summaries[name])
    assert "t(rules.summaries[name])" in (WEB / "screens" / "create.js").read_text()
    done = subprocess.run(
        [node(), "--input-type=module", "-e", PAGE_SCRIPT, str(WEB)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    shown = json.loads(done.stdout)
    assert shown["en"] == {**PRESET_SUMMARIES, "unknown": "to 400, no nil"}
    for code in LANGUAGES:
        install(code)
        expected = {name: _(words) for name, words in PRESET_SUMMARIES.items()}
        assert shown[code] == {**expected, "unknown": "to 400, no nil"}
    assert shown["de"]["classic"] == "bis 300"
    assert shown["ja"]["five-hundred"] == "500点先取、ブラインドニルあり"
