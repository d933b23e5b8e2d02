"""client/web/rules.json is generated from the engine and client/rules.py, and up to date.

If a test here fails after a change to engine/rules.py or client/rules.py, regenerate::

    python3 -m client.webrules
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from client import webrules
from client.rules import FIELD_LABELS
from engine import PRESETS, RuleSet

REGENERATE = "client/web/rules.json is out of date: run `python3 -m client.webrules`"


def test_the_committed_file_is_up_to_date() -> None:
    assert webrules.RULES_PATH.read_text(encoding="utf-8") == webrules.rules_document(), REGENERATE
    assert webrules.main(["--check"]) == 0


def test_a_stale_file_is_reported(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = tmp_path / "rules.json"
    stale.write_text(
        webrules.rules_document().replace('"target_score": 300', '"target_score": 301')
    )
    monkeypatch.setattr(webrules, "RULES_PATH", stale)
    assert webrules.main(["--check"]) == 1
    assert "python3 -m client.webrules" in capsys.readouterr().err
    assert webrules.main([]) == 0
    assert stale.read_text(encoding="utf-8") == webrules.rules_document()


def test_every_preset_and_rule_field_is_in_the_file() -> None:
    table = json.loads(webrules.RULES_PATH.read_text(encoding="utf-8"))
    assert table["presets"] == {name: rules.to_dict() for name, rules in PRESETS.items()}
    names = [field.name for field in dataclasses.fields(RuleSet)]
    assert [field["name"] for field in table["fields"]] == names
    for field in table["fields"]:
        assert field["label"] == FIELD_LABELS[field["name"]]
        # every preset's value fits the control the form draws for it
        for rules in table["presets"].values():
            value = rules[field["name"]]
            if field["kind"] == "bool":
                assert isinstance(value, bool)
            elif field["kind"] == "choice":
                assert value in [choice[0] for choice in field["choices"]]
            elif field["kind"] == "optint":
                assert value is None or isinstance(value, int)
            else:
                assert isinstance(value, int) and not isinstance(value, bool)
    kinds = {field["name"]: field["kind"] for field in table["fields"]}
    assert kinds["first_bidder"] == "choice"
    assert kinds["lose_score"] == "optint"
    assert kinds["see_card_after_keep"] == "bool"


def test_the_page_holds_no_copy_of_the_presets() -> None:
    web = webrules.RULES_PATH.parent
    for script in sorted(web.rglob("*.js")):
        text = script.read_text(encoding="utf-8")
        assert "failed_nil_tricks_are_bags" not in text, script
        assert "see_card_after_keep: " not in text, script
