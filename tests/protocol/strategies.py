"""Hypothesis strategies for protocol messages, drawn from the models' JSON Schema.

``from_schema(schema)`` understands the subset of JSON Schema that pydantic writes for
``protocol.messages`` (``$ref``, ``oneOf``/``anyOf``, ``const``, ``enum``, integers and
strings with bounds and patterns, tuples as ``prefixItems``, arrays, maps) and draws plain
Python data (tuples for arrays) that the models must accept. ``client_data()`` and
``server_data()`` draw whole messages as the decoder sees them after msgpack.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from protocol.messages import CLIENT_ADAPTER, SERVER_ADAPTER

__all__ = ["FIXED", "client_data", "from_schema", "msgpack_objects", "server_data"]

FIXED = settings(
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""Reproducible hypothesis runs: the same examples on every run, no example database."""

_INT_LIMIT = 2**53


def _integers(schema: dict[str, Any]) -> st.SearchStrategy[int]:
    low = schema.get("minimum", -_INT_LIMIT)
    high = schema.get("maximum", _INT_LIMIT)
    return st.integers(low, high)


def _strings(schema: dict[str, Any]) -> st.SearchStrategy[str]:
    low = schema.get("minLength", 0)
    high = min(schema.get("maxLength", 40), 60)
    pattern = schema.get("pattern")
    if pattern is None:
        return st.text(min_size=low, max_size=high)
    return st.from_regex(pattern, fullmatch=True).filter(lambda s: low <= len(s) <= high)


def from_schema(
    schema: dict[str, Any], defs: dict[str, Any], optional_rate: bool = True
) -> st.SearchStrategy[Any]:
    """Data valid under ``schema`` (``defs`` resolves ``$ref``)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return st.deferred(lambda: from_schema(defs[name], defs))
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return st.one_of([from_schema(option, defs) for option in schema[key]])
    kind = schema.get("type")
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        return _integers(schema)
    if kind == "number":  # within the schema's bounds, as a valid message's number is
        low, high = schema.get("minimum"), schema.get("maximum")
        return st.floats(low, high, allow_nan=False, allow_infinity=False, width=64)
    if kind == "string":
        return _strings(schema)
    if kind == "array":
        if "prefixItems" in schema:
            return st.tuples(*(from_schema(item, defs) for item in schema["prefixItems"]))
        return st.lists(
            from_schema(schema.get("items", {}), defs),
            min_size=schema.get("minItems", 0),
            max_size=min(schema.get("maxItems", 4), 4),
        ).map(tuple)
    if kind == "object" and "properties" in schema:
        required = set(schema.get("required", ()))
        fields: dict[str, st.SearchStrategy[Any]] = {}
        optional: dict[str, st.SearchStrategy[Any]] = {}
        for name, sub in schema["properties"].items():
            target = fields if name in required or "const" in sub else optional
            target[name] = from_schema(sub, defs)
        return st.fixed_dictionaries(fields, optional=optional)
    if kind == "object":
        values = from_schema(schema.get("additionalProperties", {}), defs)
        return st.dictionaries(
            st.text(max_size=20), values, max_size=min(schema.get("maxProperties", 3), 3)
        )
    raise AssertionError(f"no strategy for schema {schema!r}")


def _union(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    return from_schema(schema, schema.get("$defs", {}))


def client_data() -> st.SearchStrategy[dict[str, Any]]:
    """A client message as plain data (what msgpack unpacks), always valid."""
    return _union(CLIENT_ADAPTER.json_schema())


def server_data() -> st.SearchStrategy[dict[str, Any]]:
    """A server message as plain data (what msgpack unpacks), always valid."""
    return _union(SERVER_ADAPTER.json_schema())


def msgpack_objects() -> st.SearchStrategy[Any]:
    """Any value msgpack can pack: nested arrays and maps of scalars, strings and bytes."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-(2**63), 2**64 - 1)
        | st.floats()
        | st.text(max_size=20)
        | st.binary(max_size=20)
        | st.sampled_from(["type", "kind", "hello", "action", "ping", "QS", "K7QF"])
    )
    return st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=5)
            | st.dictionaries(
                st.text(max_size=10) | st.sampled_from(["type", "id", "code", "name"]),
                children,
                max_size=5,
            )
        ),
        max_leaves=20,
    )
