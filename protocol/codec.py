"""The codecs: the only code that turns messages into bytes and back.

    data = encode(message)               # any client or server message -> msgpack bytes
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

import json
from typing import Any, Final

import msgpack
from pydantic import BaseModel, ValidationError

from protocol.errors import DecodeError
from protocol.messages import CLIENT_ADAPTER, SERVER_ADAPTER, ClientMessage, ServerMessage

__all__ = [
    "JSON_SUBPROTOCOL",
    "MAX_CLIENT_MESSAGE_BYTES",
    "MAX_SERVER_MESSAGE_BYTES",
    "decode_client",
    "decode_client_json",
    "decode_server",
    "decode_server_json",
    "encode",
    "encode_json",
    "json_from_msgpack",
]

MAX_CLIENT_MESSAGE_BYTES: Final = 4 * 1024
MAX_SERVER_MESSAGE_BYTES: Final = 1024 * 1024
JSON_SUBPROTOCOL: Final = "spades2.json"
"""The ``Sec-WebSocket-Protocol`` a client offers to speak JSON in text frames."""


def encode(message: BaseModel) -> bytes:
    """The msgpack bytes of ``message`` (every field, ``None`` as nil)."""
    packed: bytes = msgpack.packb(message.model_dump(mode="python"), use_bin_type=True)
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


def decode_client(data: bytes, max_size: int = MAX_CLIENT_MESSAGE_BYTES) -> ClientMessage:
    """Decode one client-to-server message; raises :class:`DecodeError` if it is not one."""
    obj = _unpack(data, max_size)
    try:
        return CLIENT_ADAPTER.validate_python(obj)
    except ValidationError as error:
        raise DecodeError(_reason(error)) from None
    except Exception as error:
        raise DecodeError(f"invalid message: {type(error).__name__}") from None


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


def _load_json(data: str, max_size: int) -> str:
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
    return data


def _validate_json(adapter: Any, data: str) -> Any:
    try:
        return adapter.validate_json(data)
    except ValidationError as error:
        raise DecodeError(_reason(error)) from None
    except Exception as error:
        raise DecodeError(f"invalid message: {type(error).__name__}") from None


def decode_client_json(data: str, max_size: int = MAX_CLIENT_MESSAGE_BYTES) -> ClientMessage:
    """Decode one client message sent as JSON; raises :class:`DecodeError` if it is not one."""
    message: ClientMessage = _validate_json(CLIENT_ADAPTER, _load_json(data, max_size))
    return message


def decode_server_json(data: str, max_size: int = MAX_SERVER_MESSAGE_BYTES) -> ServerMessage:
    """Decode one server message sent as JSON; raises :class:`DecodeError` if it is not one."""
    message: ServerMessage = _validate_json(SERVER_ADAPTER, _load_json(data, max_size))
    return message
