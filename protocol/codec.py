"""The codecs: the only code that turns messages into bytes and back (besides
:mod:`protocol.fastwire`, which packs the messages of every action the same way without
building their models).

    data = encode(message)               # any client or server message -> msgpack bytes
    data = encode_for(message, minor=0)  # the same as a 1.0 connection must get it
    message = decode_client(data)        # bytes -> ClientMessage, or DecodeError
    message = decode_server(data)        # bytes -> ServerMessage, or DecodeError

The JSON encoding (the websocket subprotocol :data:`JSON_SUBPROTOCOL`, for browsers) carries
the same messages as UTF-8 JSON objects in text frames::

    text = encode_json(message)          # -> str, the same fields as ``encode``
    text = json_from_msgpack(data)       # msgpack bytes of a message -> the same as JSON
    message = decode_client_json(text)   # text -> ClientMessage, or DecodeError
    message = decode_server_json(text)   # text -> ServerMessage, or DecodeError

The decoders check the size first (``max_size``), then unpack with msgpack (maps must
have string keys, arrays become tuples), then validate strictly. Whatever the bytes, they
return a valid message or raise :class:`~protocol.errors.DecodeError`, never anything
else. The JSON decoders do the same (size in UTF-8 bytes, then JSON, then the same strict
validation: a JSON array stands for a msgpack array, ``null`` for nil; ``1.0`` is not an
integer).
"""

from __future__ import annotations

import functools
import json
import typing
from typing import Any, Final

import msgpack
from pydantic import BaseModel, ValidationError

from protocol.errors import DecodeError
from protocol.messages import (
    CLIENT_ADAPTER,
    PROTOCOL_MINOR,
    SERVER_ADAPTER,
    ClientMessage,
    ServerMessage,
    added_after,
)

__all__ = [
    "JSON_SUBPROTOCOL",
    "MAX_CLIENT_MESSAGE_BYTES",
    "MAX_SERVER_MESSAGE_BYTES",
    "decode_client",
    "decode_client_json",
    "decode_server",
    "decode_server_json",
    "encode",
    "encode_for",
    "encode_json",
    "json_from_msgpack",
    "wire_dict",
]

MAX_CLIENT_MESSAGE_BYTES: Final = 4 * 1024
MAX_SERVER_MESSAGE_BYTES: Final = 1024 * 1024
JSON_SUBPROTOCOL: Final = "spades2.json"
"""The ``Sec-WebSocket-Protocol`` a client offers to speak JSON in text frames."""


def encode(message: BaseModel) -> bytes:
    """The msgpack bytes of ``message`` (every field, ``None`` as nil)."""
    packed: bytes = msgpack.packb(message.model_dump(mode="python"), use_bin_type=True)
    return packed


_KEEP, _DROP, _WALK = 0, 1, 2  # what a downgrade does with a model's dumped value


def _pruned(value: Any, dumped: Any, minor: int) -> Any:
    """``dumped`` (``value``'s model_dump) without what a ``1.minor`` connection never
    gets; only the fields that can hold something newer are walked."""
    if isinstance(value, BaseModel):
        model = type(value)
        for name in _left_out(model, minor):
            dumped.pop(name, None)
        for name in _carrying_fields(model, minor):
            if name in dumped:
                dumped[name] = _pruned(getattr(value, name), dumped[name], minor)
        return dumped
    if isinstance(value, tuple | list):
        kept = []
        for item, dumped_item in zip(value, dumped, strict=True):
            if isinstance(item, BaseModel):
                treatment = _treatment(type(item), minor)
                if treatment == _DROP:
                    # an event newer than the connection inside `events` is left out
                    # whole (its version still counts)
                    continue
                if treatment == _WALK:
                    dumped_item = _pruned(item, dumped_item, minor)
            elif isinstance(item, tuple | list | dict):
                dumped_item = _pruned(item, dumped_item, minor)
            kept.append(dumped_item)
        return tuple(kept)
    if isinstance(value, dict):
        return {key: _pruned(value[key], item, minor) for key, item in dumped.items()}
    return dumped


@functools.cache
def _left_out(model: type[BaseModel], minor: int) -> tuple[str, ...]:
    return tuple(added_after(minor).get(model, ()))


@functools.cache
def _treatment(model: type[BaseModel], minor: int) -> int:
    if _is_new(model, added_after(minor)):
        return _DROP
    return _WALK if _carries(model, minor) else _KEEP


def _type_carries(annotation: Any, minor: int) -> bool:
    """Whether a value of ``annotation`` can hold anything ``1.minor`` never gets."""
    added = added_after(minor)
    seen: set[type[BaseModel]] = set()
    todo: list[Any] = [annotation]
    while todo:
        item = todo.pop()
        if isinstance(item, type) and issubclass(item, BaseModel):
            if item in added:
                return True
            if item not in seen:
                seen.add(item)
                todo.extend(field.annotation for field in item.model_fields.values())
        else:
            todo.extend(typing.get_args(item))
    return False


@functools.cache
def _carrying_fields(model: type[BaseModel], minor: int) -> tuple[str, ...]:
    return tuple(
        name for name, field in model.model_fields.items() if _type_carries(field.annotation, minor)
    )


@functools.cache
def _carries(model: type[BaseModel], minor: int) -> bool:
    """Whether a ``model`` message can hold anything a ``1.minor`` connection never gets
    (most cannot: they go out whole, at model_dump's speed)."""
    return _type_carries(model, minor)


def _is_new(model: type[BaseModel], added: dict[type[BaseModel], frozenset[str]]) -> bool:
    names = added.get(model)
    return names is not None and set(model.model_fields) <= names


def wire_dict(message: BaseModel, minor: int = PROTOCOL_MINOR) -> dict[str, Any] | None:
    """The map that goes on the wire for ``message`` on a connection speaking ``1.minor``.

    For the newest minor version that is every field; for an older one the fields, events
    and messages added after it (:func:`~protocol.messages.added_after`) are left out, and
    a message new since then gives ``None`` (it is not sent at all).
    """
    if minor >= PROTOCOL_MINOR:
        dumped: dict[str, Any] = message.model_dump(mode="python")
        return dumped
    treatment = _treatment(type(message), minor)
    if treatment == _DROP:
        return None
    # one dump (pydantic's, fast); only the parts that can hold something newer are
    # walked and pruned
    result: dict[str, Any] = message.model_dump(mode="python")
    return result if treatment == _KEEP else _pruned(message, result, minor)


def encode_for(message: BaseModel, minor: int) -> bytes | None:
    """The msgpack bytes of ``message`` for a connection speaking ``1.minor`` (see
    :func:`wire_dict`); ``None`` when such a connection never gets this message."""
    obj = wire_dict(message, minor)
    if obj is None:
        return None
    packed: bytes = msgpack.packb(obj, use_bin_type=True)
    return packed


def _unpack(data: bytes, max_size: int) -> dict[str, Any]:
    if not isinstance(data, bytes | bytearray | memoryview):
        raise DecodeError("a message must be a binary frame of msgpack bytes")
    size = data.nbytes if isinstance(data, memoryview) else len(data)
    if size > max_size:
        raise DecodeError(
            f"message of {size} bytes is over the limit of {max_size}", code="too_large"
        )
    try:
        obj = msgpack.unpackb(
            data,
            raw=False,
            use_list=False,
            strict_map_key=True,
        )
    except Exception as error:  # msgpack raises many types for bad bytes
        raise DecodeError(f"not valid msgpack: {type(error).__name__}") from None
    if not isinstance(obj, dict):
        raise DecodeError("a message must be a msgpack map with a 'type' key")
    return obj


def _reason(error: ValidationError) -> str:
    first = error.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "message"
    more = error.error_count() - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"{where}: {first['msg']}{tail}"


def _readable_type_and_id(obj: dict[str, Any]) -> tuple[str | None, int | None]:
    """The ``type`` and ``id`` of a map that failed validation, when they can be read.

    A ``type`` is echoed when it is a string of at most 32 characters, an ``id`` when it
    is an integer (not a boolean) in the request-id range; anything else reads as None.
    """
    kind = obj.get("type")
    request = kind if isinstance(kind, str) and len(kind) <= 32 else None
    raw_id = obj.get("id")
    request_id = (
        raw_id
        if isinstance(raw_id, int) and not isinstance(raw_id, bool) and 0 <= raw_id <= 2**53
        else None
    )
    return request, request_id


def decode_client(data: bytes, max_size: int = MAX_CLIENT_MESSAGE_BYTES) -> ClientMessage:
    """Decode one client-to-server message; raises :class:`DecodeError` if it is not one.

    When the frame was a readable map, the error's ``request``/``request_id`` hold its
    ``type`` and ``id`` (see :class:`DecodeError`).
    """
    obj = _unpack(data, max_size)
    try:
        return CLIENT_ADAPTER.validate_python(obj)
    except ValidationError as error:
        request, request_id = _readable_type_and_id(obj)
        raise DecodeError(_reason(error), request=request, request_id=request_id) from None
    except Exception as error:
        request, request_id = _readable_type_and_id(obj)
        raise DecodeError(
            f"invalid message: {type(error).__name__}", request=request, request_id=request_id
        ) from None


def decode_server(data: bytes, max_size: int = MAX_SERVER_MESSAGE_BYTES) -> ServerMessage:
    """Decode one server-to-client message; raises :class:`DecodeError` if it is not one."""
    obj = _unpack(data, max_size)
    try:
        return SERVER_ADAPTER.validate_python(obj)
    except ValidationError as error:
        raise DecodeError(_reason(error)) from None
    except Exception as error:
        raise DecodeError(f"invalid message: {type(error).__name__}") from None


# ---- JSON -----------------------------------------------------------------------------


def encode_json(message: BaseModel) -> str:
    """The JSON text of ``message``: every field, ``None`` as ``null``, compact, UTF-8."""
    return message.model_dump_json()


def json_from_msgpack(data: bytes) -> str:
    """Re-encode the msgpack bytes of a message (from :func:`encode`) as its JSON text.

    The server encodes each message once per kind of viewer in msgpack; a JSON connection
    gets it through this. Raises :class:`DecodeError` when ``data`` is not msgpack.
    """
    try:
        obj = msgpack.unpackb(data, raw=False, strict_map_key=True)
    except Exception as error:  # msgpack raises many types for bad bytes
        raise DecodeError(f"not valid msgpack: {type(error).__name__}") from None
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _load_json(data: str, max_size: int) -> dict[str, Any]:
    if not isinstance(data, str):
        raise DecodeError("a message must be a text frame of JSON")
    size = len(data.encode("utf-8", "surrogatepass"))
    if size > max_size:
        raise DecodeError(
            f"message of {size} bytes is over the limit of {max_size}", code="too_large"
        )
    try:
        # json.loads first: pydantic's parser would accept NaN and Infinity.
        obj = json.loads(data, parse_constant=_reject_constant)
    except Exception as error:  # bad JSON, NaN...
        raise DecodeError(f"not valid JSON: {type(error).__name__}") from None
    if not isinstance(obj, dict):
        raise DecodeError("a message must be a JSON object with a 'type' key")
    return obj


def _validate_json(adapter: Any, data: str, obj: dict[str, Any], echo: bool) -> Any:
    try:
        # validate_json, not validate_python: in strict mode only the JSON validator takes
        # a JSON array for a tuple, exactly as msgpack arrays are taken
        return adapter.validate_json(data)
    except Exception as error:
        request, request_id = _readable_type_and_id(obj) if echo else (None, None)
        reason = (
            _reason(error)
            if isinstance(error, ValidationError)
            else f"invalid message: {type(error).__name__}"
        )
        raise DecodeError(reason, request=request, request_id=request_id) from None


def decode_client_json(data: str, max_size: int = MAX_CLIENT_MESSAGE_BYTES) -> ClientMessage:
    """Decode one client message sent as JSON; raises :class:`DecodeError` if it is not one
    (with the readable ``type``/``id`` of a JSON object, as :func:`decode_client` does)."""
    message: ClientMessage = _validate_json(
        CLIENT_ADAPTER, data, _load_json(data, max_size), echo=True
    )
    return message


def decode_server_json(data: str, max_size: int = MAX_SERVER_MESSAGE_BYTES) -> ServerMessage:
    """Decode one server message sent as JSON; raises :class:`DecodeError` if it is not one."""
    message: ServerMessage = _validate_json(
        SERVER_ADAPTER, data, _load_json(data, max_size), echo=False
    )
    return message
