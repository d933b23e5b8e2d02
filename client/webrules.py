"""The browser's rule presets and labels, generated from the engine into a JSON file.

The web page (``client/web/screens/create.js``) builds its create-table form from
``client/web/rules.json``; nothing in its JavaScript copies a preset or a label by hand.
The presets come from :data:`engine.PRESETS`, the fields (in the engine's order, with
their kind) from :class:`engine.RuleSet`, the labels and value words from
:mod:`client.rules`, which the terminal client uses too::

    python3 -m client.webrules            # rewrite client/web/rules.json
    python3 -m client.webrules --check    # exit 1 (and say so) when the file is stale
    rules_document()                      # the JSON text the file must hold

A field's ``kind`` is ``bool``, ``int``, ``optint`` (a number or blank for none) or
``choice`` (then ``choices`` lists ``[value, words]``). Raises nothing but ``OSError``
when the file cannot be read or written.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any, Final, get_args

from client.rules import FIELD_LABELS, PRESET_SUMMARIES, field_value_text
from engine import PRESETS, RuleSet
from engine.rules import FirstBidder

__all__ = ["RULES_PATH", "main", "rules_document", "rules_table", "summary_of"]

RULES_PATH: Final = Path(__file__).parent / "web" / "rules.json"
REGENERATE: Final = "client/web/rules.json is out of date: run `python3 -m client.webrules`"

# the type annotations of RuleSet's fields (strings: the module uses postponed annotations)
_KINDS: Final = {"bool": "bool", "int": "int", "int | None": "optint", "FirstBidder": "choice"}
_CHOICES: Final = {"FirstBidder": get_args(FirstBidder)}


def _field(field: dataclasses.Field[Any]) -> dict[str, Any]:
    annotation = str(field.type)
    kind = _KINDS[annotation]  # KeyError: a new kind of rule field needs a form control
    entry: dict[str, Any] = {"name": field.name, "label": FIELD_LABELS[field.name], "kind": kind}
    if kind == "optint":
        entry["blank"] = field_value_text(field.name, None)
    if kind == "choice":
        entry["choices"] = [
            [value, field_value_text(field.name, value)] for value in _CHOICES[annotation]
        ]
    return entry


def summary_of(rules: RuleSet) -> str:
    """A rule set's few words in English, from its rules (``to 500, blind nil``)."""
    extras = ", blind nil" if rules.blind_nil else ""
    return f"to {rules.target_score}{extras}"


def _summary(name: str, rules: RuleSet) -> str:
    # the catalogue's English for a preset it knows (the page translates that msgid,
    # client/web/screens/create.js); tests/client/test_preset_summaries.py holds it to
    # summary_of(rules)
    return PRESET_SUMMARIES.get(name, summary_of(rules))


def rules_table() -> dict[str, Any]:
    """The document as a dict: ``presets`` (name -> every field's value), ``summaries``
    (name -> a few words for the preset menu) and ``fields`` (the form, in order). The
    summaries are English: the page shows each through its catalogue (an unknown
    preset's as it is)."""
    return {
        "generated_by": "python3 -m client.webrules",
        "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
        "summaries": {name: _summary(name, rules) for name, rules in PRESETS.items()},
        "fields": [_field(field) for field in dataclasses.fields(RuleSet)],
    }


def rules_document() -> str:
    """The exact text ``client/web/rules.json`` must hold (indented, ends in a newline)."""
    return json.dumps(rules_table(), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the file, or with ``--check`` compare it; returns the exit status."""
    args = sys.argv[1:] if argv is None else argv
    text = rules_document()
    if "--check" in args:
        current = RULES_PATH.read_text(encoding="utf-8") if RULES_PATH.exists() else ""
        if current != text:
            print(REGENERATE, file=sys.stderr)
            return 1
        return 0
    RULES_PATH.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
