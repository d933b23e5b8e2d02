"""The generated parts of ``docs/protocol.md``, from the models' JSON Schema.

``docs/protocol.md`` is written by hand except for regions between marker comments::

    <!-- BEGIN GENERATED field-reference: python3 -m protocol.schema --write -->
    ...
    <!-- END GENERATED field-reference -->

Each region is produced by a function here from the models themselves (their JSON
Schema, docstrings and field docstrings), from :data:`~protocol.messages.ERROR_CODE_MEANINGS`
and from the example game of :mod:`protocol.examples`; ``tests/protocol`` fails when the
document differs from what these functions produce now. Usage::

    python3 -m protocol.schema --write    # regenerate the regions of docs/protocol.md
                                          # and docs/spades-record-1.schema.json
    python3 -m protocol.schema --check    # exit 1 if any region is out of date
    python3 -m protocol.schema            # print the field reference
    python3 -m protocol.schema --json     # print the JSON Schema of both directions
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel

from protocol import codec
from protocol import messages as m
from protocol.examples import (
    SessionStep,
    action_examples,
    client_examples,
    event_examples,
    example_session,
    server_examples,
)
from protocol.record_format import GameRecordModel, RecordHand, record_json_schema
from protocol.shuffle_vectors import SHUFFLE_ENTROPY, SHUFFLE_SEED, shuffle_example

__all__ = [
    "DOC_PATH",
    "RECORD_SCHEMA_PATH",
    "REGIONS",
    "SHUFFLE_ENTROPY",
    "SHUFFLE_SEED",
    "client_json_schema",
    "error_code_table",
    "field_reference",
    "json_schemas",
    "main",
    "record_schema_section",
    "record_schema_text",
    "render_json",
    "shuffle_example",
    "stale_regions",
    "transcript",
    "update_document",
]

DOC_PATH: Final = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
RECORD_SCHEMA_PATH: Final = DOC_PATH.parent / "spades-record-1.schema.json"
COMMAND: Final = "python3 -m protocol.schema --write"

CARD_PATTERN: Final = r"^(10|[2-9JQKA])[CDHS]$"
TABLE_PATTERN: Final = r"^[A-Za-z0-9-]+$"
HEX_PATTERN: Final = r"^[0-9a-f]*$"

RECORD_MODELS: Final[tuple[type[BaseModel], ...]] = (GameRecordModel, RecordHand)
STRUCTURES: Final[tuple[type[BaseModel], ...]] = (
    m.View,
    m.TableInfo,
    m.TableSummary,
    m.SeatInfo,
    m.Rules,
    m.TrickData,
    m.ScoreLine,
    # accounts (protocol/_messages/accounts.py)
    m.RatingLine,
    m.ProfileGame,
    m.BoardEntry,
)


def members(union: Any) -> tuple[type[BaseModel], ...]:
    """The model classes of an ``Annotated[A | B | ..., Field(discriminator=...)]``."""
    return typing.get_args(typing.get_args(union)[0])


def client_json_schema() -> dict[str, Any]:
    """The JSON Schema of every client-to-server message."""
    return m.CLIENT_ADAPTER.json_schema()


def json_schemas() -> dict[str, Any]:
    """Both directions' JSON Schemas, keyed ``client`` and ``server``."""
    return {"client": client_json_schema(), "server": m.SERVER_ADAPTER.json_schema()}


# ---------------------------------------------------------------------------------------
# Rendering JSON Schema as short type names


def _tag(model: type[BaseModel]) -> str:
    field = model.model_fields.get("type") or model.model_fields["kind"]
    return str(field.default)


def _anchor(model: type[BaseModel]) -> str:
    if model in members(m.ClientMessage):
        return f"client-{_tag(model)}"
    if model in members(m.ServerMessage):
        return f"server-{_tag(model)}"
    if model in members(m.ActionMessage):
        return f"action-{_tag(model)}"
    if model in members(m.EventMessage):
        return f"event-{_tag(model)}"
    return f"struct-{model.__name__.lower()}"


_MODELS: Final[dict[str, type[BaseModel]]] = {
    model.__name__: model
    for union in (m.ClientMessage, m.ServerMessage, m.ActionMessage, m.EventMessage)
    for model in members(union)
} | {model.__name__: model for model in STRUCTURES + RECORD_MODELS}


def _number(value: Any) -> str:
    if isinstance(value, int) and abs(value) == 2**53:
        return "-2**53" if value < 0 else "2**53"
    return str(value)


def _bounds(schema: dict[str, Any], low_key: str, high_key: str) -> str:
    low, high = schema.get(low_key), schema.get(high_key)
    low, high = (None if v is None else _number(v) for v in (low, high))
    if low is None and high is None:
        return ""
    if low is not None and high is not None:
        return f" {low}..{high}"
    return f" ≥ {low}" if low is not None else f" ≤ {high}"


def describe(schema: dict[str, Any]) -> str:
    """A short markdown type for ``schema`` (``$ref`` becomes a link)."""
    if "$ref" in schema:
        model = _MODELS[schema["$ref"].rsplit("/", 1)[-1]]
        return f"[{model.__name__}](#{_anchor(model)})"
    if "discriminator" in schema:
        name = schema["discriminator"]["propertyName"]
        first = _MODELS[schema["oneOf"][0]["$ref"].rsplit("/", 1)[-1]]
        if name == "kind" and first in members(m.ActionMessage):
            return "[action](#actions)"
        if name == "kind":
            return "[event](#events)"
        return "message"
    if "const" in schema:
        return f'`"{schema["const"]}"`'
    if "enum" in schema:
        return " or ".join(f'`"{value}"`' for value in schema["enum"])
    if "anyOf" in schema:
        options = [describe(option) for option in schema["anyOf"]]
        return " or ".join(options)
    kind = schema.get("type")
    if kind == "null":
        return "nil"
    if kind == "boolean":
        return "bool"
    if kind == "number":
        return "float"
    if kind == "integer":
        if schema.get("minimum") == 0 and schema.get("maximum") == 1:
            return "seat (0 or 1)"
        return "int" + _bounds(schema, "minimum", "maximum")
    if kind == "string":
        pattern = schema.get("pattern")
        if pattern == CARD_PATTERN:
            return "card"
        if pattern == TABLE_PATTERN:
            return "table code"
        if pattern == HEX_PATTERN:
            return "hex string"
        if pattern == m.ENTROPY_HEX_PATTERN:
            return f"hex string (1 to {m.ENTROPY_MAX_BYTES} bytes)"
        length = _bounds(schema, "minLength", "maxLength")
        return "string" + (f" ({length.strip()} chars)" if length else "")
    if kind == "array":
        if "prefixItems" in schema:
            return "[" + ", ".join(describe(item) for item in schema["prefixItems"]) + "]"
        size = _bounds(schema, "minItems", "maxItems").strip()
        inner = describe(schema.get("items", {}))
        return f"array of {inner}" + (f" ({size} items)" if size else "")
    if kind == "object":
        inner = describe(schema.get("additionalProperties", {}))
        size = _bounds(schema, "minProperties", "maxProperties").strip()
        return f"map of string to {inner}" + (f" ({size} entries)" if size else "")
    return "any"


def _text(description: str | None) -> str:
    """A docstring as one markdown paragraph (rST ``literals`` become `code`)."""
    if not description:
        return ""
    text = " ".join(description.split())
    return text.replace("``", "`")


def _paragraphs(description: str | None) -> str:
    if not description:
        return ""
    parts = re.split(r"\n\s*\n", description.strip())
    return "\n\n".join(_text(part) for part in parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render_json(value: Any, indent: int = 0, width: int = 88, used: int | None = None) -> str:
    """Compact, readable JSON: an array or object on one line when it fits ``width``.

    ``indent`` is the indentation of the value's block, ``used`` the characters already
    on its first line (default: ``indent``).
    """
    flat = json.dumps(value, ensure_ascii=False)
    start = indent if used is None else used
    if len(flat) + start <= width or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list):
        items = [pad + render_json(item, indent + 2, width) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    lines = []
    for key, item in value.items():
        head = f"{pad}{json.dumps(key)}: "
        lines.append(head + render_json(item, indent + 2, width, used=len(head)))
    return "{\n" + ",\n".join(lines) + "\n" + " " * indent + "}"


def wire_json(message: BaseModel) -> Any:
    """``message`` exactly as :func:`~protocol.codec.encode` puts it on the wire."""
    import msgpack

    return msgpack.unpackb(codec.encode(message), raw=False)


def _fields_table(model: type[BaseModel]) -> str:
    schema = model.model_json_schema(ref_template="#/$defs/{model}")
    required = set(schema.get("required", ()))
    rows = ["| field | type | | meaning |", "| --- | --- | --- | --- |"]
    for name, sub in schema["properties"].items():
        if name in required or "const" in sub:
            presence = "required"
        else:
            default = model.model_fields[name].get_default(call_default_factory=True)
            presence = f"default `{json.dumps(default)}`"
        meaning = _text(sub.get("description"))
        if "const" in sub:
            owner = "message"
            if model in members(m.ActionMessage):
                owner = "action"
            elif model in members(m.EventMessage):
                owner = "event"
            meaning = meaning or f"The {owner}'s tag."
        rows.append(f"| `{name}` | {_cell(describe(sub))} | {presence} | {_cell(meaning)} |")
    return "\n".join(rows)


def _model_section(model: type[BaseModel], example: BaseModel | None, direction: str) -> str:
    title = f"#### {model.__name__}" if model in STRUCTURES else f"#### `{_tag(model)}`"
    parts = [f'<a id="{_anchor(model)}"></a>\n\n{title}', _paragraphs(model.__doc__)]
    parts.append(_fields_table(model))
    if example is not None:
        parts.append(f"```json {direction}\n{render_json(wire_json(example))}\n```")
    return "\n\n".join(part for part in parts if part)


def field_reference() -> str:
    """Every message, action, event and structure: fields, types, meanings, an example."""
    out = [
        "Generated from the models of `protocol/messages.py` (their JSON Schema and "
        "docstrings). Every example is a real message, shown as JSON: msgpack maps are "
        "objects, arrays are arrays, nil is `null`. Fields marked with a default may be "
        "left out of a message; the server always sends every field.",
        "### Client to server",
    ]
    for example in client_examples():
        out.append(_model_section(type(example), example, "client"))
    out.append("### Server to client")
    for reply in server_examples():
        out.append(_model_section(type(reply), reply, "server"))
    out.append(
        '<a id="actions"></a>\n\n### Actions\n\nThe `action` of an `action` message and the '
        "items of `your_turn.legal`, tagged by `kind`."
    )
    for action in action_examples():
        out.append(_model_section(type(action), None, "") + f"\n\nExample: `{_one(action)}`")
    out.append(
        '<a id="events"></a>\n\n### Events\n\nThe items of an `events` message, tagged by '
        "`kind`. Each seat gets its own copy: fields marked *you only* are nil (or empty) "
        "in every other viewer's copy."
    )
    for event in event_examples():
        out.append(_model_section(type(event), None, "") + f"\n\nExample: `{_one(event)}`")
    out.append("### Structures")
    for model in STRUCTURES:
        out.append(_model_section(model, None, ""))
    return "\n\n".join(out)


def _one(message: BaseModel) -> str:
    return json.dumps(wire_json(message), ensure_ascii=False)


# ---------------------------------------------------------------------------------------
# The other regions


def constants() -> str:
    """The protocol's numbers."""
    versions = ", ".join(str(v) for v in m.SUPPORTED_VERSIONS)
    return "\n".join(
        [
            "| name | value | what |",
            "| --- | --- | --- |",
            f"| `PROTOCOL_VERSION` | {m.PROTOCOL_VERSION} | the version a client sends in "
            "`hello` |",
            f"| `SUPPORTED_VERSIONS` | {versions} | the versions this server speaks |",
            f"| `PROTOCOL_MINOR` | {m.PROTOCOL_MINOR} | the newest minor version "
            f"(1.{m.PROTOCOL_MINOR}); a client sends it in `hello` (`protocol_minor`) |",
            f"| `ENTROPY_MAX_BYTES` | {m.ENTROPY_MAX_BYTES} | the most bytes of one seat's "
            "`entropy` |",
            f"| `MAX_CLIENT_MESSAGE_BYTES` | {codec.MAX_CLIENT_MESSAGE_BYTES} | the largest "
            "frame a client may send |",
            f"| `MAX_SERVER_MESSAGE_BYTES` | {codec.MAX_SERVER_MESSAGE_BYTES} | the largest "
            "frame a client must accept |",
        ]
    )


def error_code_table() -> str:
    """Every error code with its meaning, in :data:`~protocol.messages.ERROR_CODES` order."""
    rows = ["| code | meaning |", "| --- | --- |"]
    for code in m.ERROR_CODES:
        rows.append(f"| `{code}` | {_cell(m.ERROR_CODE_MEANINGS[code])} |")
    return "\n".join(rows)


def transcript(steps: Sequence[SessionStep] | None = None) -> str:
    """The annotated transcript of the example session."""
    out = []
    for step in steps if steps is not None else example_session():
        arrow = "**→**" if step.client else "**←**"
        if step.message is None:
            out.append(step.note)
        else:
            out.append(f"{arrow} {step.note}".rstrip())
        if step.message is not None:
            direction = "client" if step.client else "server"
            body = render_json(wire_json(step.message))
            out.append(f"```json {direction}\n{body}\n```")
    return "\n\n".join(out)


def record_schema_text() -> str:
    """The content of ``docs/spades-record-1.schema.json`` (generated from the models)."""
    return json.dumps(record_json_schema(), indent=2, ensure_ascii=False) + "\n"


def record_schema_section() -> str:
    """The record format's fields, from :mod:`protocol.record_format`."""
    out = [
        "Generated from `protocol/record_format.py`; the same models give the JSON Schema "
        "(draft 2020-12) in [`spades-record-1.schema.json`](spades-record-1.schema.json).",
    ]
    for model in (GameRecordModel, RecordHand):
        out.append(f'<a id="{_anchor(model)}"></a>\n\n#### {model.__name__}')
        out.append(_paragraphs(model.__doc__))
        out.append(_fields_table(model))
    return "\n\n".join(part for part in out if part)


REGIONS: Final[dict[str, Callable[[], str]]] = {
    "record-schema": record_schema_section,
    "constants": constants,
    "error-codes": error_code_table,
    "shuffle-example": shuffle_example,
    "transcript": transcript,
    "field-reference": field_reference,
}
"""Region name -> the function that generates it."""


def _markers(name: str) -> tuple[str, str]:
    return f"<!-- BEGIN GENERATED {name}: {COMMAND} -->", f"<!-- END GENERATED {name} -->"


def _region_pattern(name: str) -> re.Pattern[str]:
    begin, end = _markers(name)
    return re.compile(re.escape(begin) + r"\n(.*?)\n?" + re.escape(end), re.DOTALL)


def update_document(text: str) -> str:
    """``text`` with every generated region replaced by what it should be now.

    Raises ``ValueError`` if a region's markers are missing.
    """
    for name, render in REGIONS.items():
        found = _region_pattern(name).search(text)
        if found is None:
            raise ValueError(f"docs/protocol.md has no region {name!r} ({_markers(name)[0]})")
        begin, end = _markers(name)
        text = f"{text[: found.start()]}{begin}\n{render()}\n{end}{text[found.end() :]}"
    return text


def stale_regions(text: str) -> list[str]:
    """Names of the regions of ``text`` that differ from what they should be now."""
    stale = []
    for name, render in REGIONS.items():
        found = _region_pattern(name).search(text)
        if found is None or found.group(1).strip("\n") != render().strip("\n"):
            stale.append(name)
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python3 -m protocol.schema", description=__doc__.split("\n")[0] if __doc__ else ""
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="regenerate docs/protocol.md")
    group.add_argument("--check", action="store_true", help="exit 1 if docs are out of date")
    group.add_argument("--json", action="store_true", help="print both JSON Schemas")
    parser.add_argument("--path", type=Path, default=DOC_PATH, help="the document")
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(json_schemas(), indent=2))
        return 0
    if args.write:
        text = args.path.read_text(encoding="utf-8")
        new = update_document(text)
        if new != text:
            args.path.write_text(new, encoding="utf-8")
            print(f"updated {args.path}")
        else:
            print(f"{args.path} is up to date")
        schema_path = args.path.parent / RECORD_SCHEMA_PATH.name
        if not schema_path.exists() or schema_path.read_text(encoding="utf-8") != (
            record_schema_text()
        ):
            schema_path.write_text(record_schema_text(), encoding="utf-8")
            print(f"updated {schema_path}")
        return 0
    if args.check:
        stale = stale_regions(args.path.read_text(encoding="utf-8"))
        schema_path = args.path.parent / RECORD_SCHEMA_PATH.name
        if not schema_path.exists() or schema_path.read_text(encoding="utf-8") != (
            record_schema_text()
        ):
            stale.append(schema_path.name)
        if stale:
            print(f"out of date: {', '.join(stale)}; run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    print(field_reference())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
