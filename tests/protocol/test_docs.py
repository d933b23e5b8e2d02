"""docs/protocol.md is up to date with the code, and its examples are real messages.

If a test here fails after a change to protocol/messages.py (or the error codes, or the
example game), regenerate the document's generated parts with::

    python3 -m protocol.schema --write
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from typing import Any

import msgpack
import pytest

from engine import shuffled_deck
from protocol import messages as m
from protocol import schema
from protocol.codec import decode_client, decode_server

TEXT = schema.DOC_PATH.read_text(encoding="utf-8")
BLOCK = re.compile(r"^```(\w+)(?: (\w+))?\n(.*?)^```$", re.DOTALL | re.MULTILINE)
REGENERATE = "docs/protocol.md is out of date: run `python3 -m protocol.schema --write`"


def blocks(language: str, label: str | None = None) -> list[str]:
    return [
        body
        for lang, tag, body in BLOCK.findall(TEXT)
        if lang == language and (label is None or tag == label)
    ]


def test_generated_regions_are_up_to_date() -> None:
    stale = schema.stale_regions(TEXT)
    assert not stale, f"{REGENERATE} (stale regions: {', '.join(stale)})"
    assert schema.update_document(TEXT) == TEXT, REGENERATE


def test_check_command_agrees() -> None:
    assert schema.main(["--check"]) == 0


def test_a_changed_region_is_detected_and_regenerated() -> None:
    broken = TEXT.replace("| `stale_version` |", "| `stale_versions` |", 1)
    assert broken != TEXT
    assert schema.stale_regions(broken) == ["error-codes"]
    assert schema.update_document(broken) == TEXT
    missing = TEXT.replace("<!-- END GENERATED transcript -->", "", 1)
    assert "transcript" in schema.stale_regions(missing)
    with pytest.raises(ValueError, match="transcript"):
        schema.update_document(missing)


def test_error_code_meanings_match_error_codes() -> None:
    assert list(m.ERROR_CODE_MEANINGS) == list(m.ERROR_CODES)
    assert all(meaning.strip() for meaning in m.ERROR_CODE_MEANINGS.values())
    for code in m.ERROR_CODES:
        assert f"| `{code}` |" in TEXT


def test_every_field_of_every_model_is_documented() -> None:
    models = [
        *schema.members(m.ClientMessage),
        *schema.members(m.ServerMessage),
        *schema.members(m.ActionMessage),
        *schema.members(m.EventMessage),
        *schema.STRUCTURES,
    ]
    missing = [
        f"{model.__name__}.{name}"
        for model in models
        for name, field in model.model_fields.items()
        if name not in ("type", "kind") and not field.description
    ]
    assert not missing, f"add a docstring under these fields: {missing}"
    for model in models:
        assert f'<a id="{schema._anchor(model)}"></a>' in TEXT


def decode_block(body: str, label: str) -> Any:
    data = msgpack.packb(json.loads(body), use_bin_type=True)
    return decode_client(data) if label == "client" else decode_server(data)


@pytest.mark.parametrize("label", ["client", "server"])
def test_every_example_in_the_document_is_a_valid_message(label: str) -> None:
    found = blocks("json", label)
    assert len(found) > 20
    for body in found:
        decode_block(body, label)


def test_every_message_type_has_an_example_in_the_document() -> None:
    seen = {decode_block(body, "client").type for body in blocks("json", "client")}
    seen |= {decode_block(body, "server").type for body in blocks("json", "server")}
    tags = {
        model.model_fields["type"].default
        for union in (m.ClientMessage, m.ServerMessage)
        for model in schema.members(union)
    }
    assert tags <= seen


def test_transcript_shuffles_verify() -> None:
    """Every seed revealed in the document matches a commitment sent before its hand."""
    commitments: list[str] = []
    results = 0
    for body in blocks("json", "server"):
        message = decode_block(body, "server")
        if isinstance(message, m.Events):
            for event in message.events:
                if isinstance(event, m.HandStartedEvent):
                    commitments.append(event.commitment)
        if isinstance(message, m.HandResult):
            assert hashlib.sha256(bytes.fromhex(message.seed)).hexdigest() == message.commitment
            assert message.commitment in commitments
            results += 1
    assert results >= 2


def test_the_documented_shuffle_code_is_the_engine_shuffle() -> None:
    (code,) = [body for body in blocks("python") if "def deck(" in body]
    namespace: dict[str, Any] = {}
    exec(code, namespace)
    deck = namespace["deck"]
    for n in range(20):
        seed = hashlib.sha256(n.to_bytes(4, "big")).digest()
        entropy = [bytes([n] * (n % 5))] * (n % 3)
        assert deck(seed, entropy) == shuffled_deck(seed, tuple(entropy))
    assert deck(schema.SHUFFLE_SEED) == shuffled_deck(schema.SHUFFLE_SEED)


def test_json_schema_command_prints_both_directions(capsys: pytest.CaptureFixture[str]) -> None:
    assert schema.main(["--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert set(printed) == {"client", "server"}
    assert "Hello" in printed["client"]["$defs"]


def test_the_minimal_client_compiles_and_sends_valid_messages() -> None:
    (code,) = [body for body in blocks("python") if "async def play(" in body]
    tree = ast.parse(code)
    compile(tree, "minimal_client.py", "exec")
    sent = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and any(
            isinstance(key, ast.Constant) and key.value == "type" for key in node.keys
        ):
            try:
                sent.append(ast.literal_eval(node))
            except ValueError:
                names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
                if names == {"preset"}:  # play()'s argument: the rule preset
                    expression = compile(ast.Expression(node), "minimal_client.py", "eval")
                    sent.append(eval(expression, {"preset": "five-hundred"}))
                continue  # otherwise built from what the server sent
    assert [message["type"] for message in sent] == ["hello", "create_table"]
    for message in sent:
        decode_client(msgpack.packb(message))
