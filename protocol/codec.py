"""The msgpack codec: the only code that turns messages into bytes and back.

    data = encode(message)               # any client or server message -> bytes
    message = decode_client(data)        # bytes -> ClientMessage, or DecodeError
    message = decode_server(data)        # bytes -> ServerMessage, or DecodeError

The decoders check the size first (``max_size``), then unpack with msgpack (maps must
have string keys, arrays become tuples), then validate strictly. Whatever the bytes, they
return a valid message or raise :class:`~protocol.errors.DecodeError`, never anything
else.
"""

from __future__ import annotations

from typing import Any, Final

import msgpack
from pydantic import BaseModel, ValidationError

from protocol.errors import DecodeError
from protocol.messages import CLIENT_ADAPTER, SERVER_ADAPTER, ClientMessage, ServerMessage

__all__ = [
    "MAX_CLIENT_MESSAGE_BYTES",
    "MAX_SERVER_MESSAGE_BYTES",
    "decode_client",
    "decode_server",
    "encode",
]

MAX_CLIENT_MESSAGE_BYTES: Final = 4 * 1024
MAX_SERVER_MESSAGE_BYTES: Final = 1024 * 1024


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
