"""protocol: the typed messages of protocol version 1.3 and their msgpack and JSON codecs.

Version 1.3 (``PROTOCOL_MINOR``) is a minor version of 1; the same models serve 1.0 to 1.2
connections (see :mod:`protocol.messages` and ``docs/protocol.md``, section Versions).

Everything a client or server needs is importable from here (the submodules stay the
canonical homes, so ``from protocol.messages import Hello`` works too)::

    from protocol import Hello, decode_server, encode

    data = encode(Hello(protocol_version=1, name="ada"))   # bytes for one binary frame
    message = decode_server(frame)                         # a ServerMessage or DecodeError

- :mod:`protocol.messages`: every message as a strict, immutable pydantic model, the
  ``ClientMessage`` / ``ServerMessage`` unions and their adapters, the error codes
  (gathered from its parts in ``protocol._messages``; ``protocol.examples`` likewise from
  ``protocol._examples``);
- :mod:`protocol.codec`: ``encode``, ``decode_client``, ``decode_server`` and the size
  limits;
- :mod:`protocol.convert`: engine values to messages and back;
- :mod:`protocol.errors`: ``ProtocolError``, ``DecodeError``, ``ConversionError``;
- :mod:`protocol.verify`: the checks a seat makes of a finished hand (the shuffle, every
  card it saw, every card the other seat played, the blind-nil exchange draws);
- :mod:`protocol.schema`: generates the reference parts of ``docs/protocol.md``
  (``python3 -m protocol.schema --write``); :mod:`protocol.examples`: one real example
  of every message.
"""

from protocol.codec import (
    MAX_CLIENT_MESSAGE_BYTES,
    MAX_SERVER_MESSAGE_BYTES,
    decode_client,
    decode_server,
    encode,
)
from protocol.convert import (
    action_from_message,
    action_message,
    event_messages,
    hand_result_from_message,
    hand_result_message,
    rules_from_message,
    rules_message,
    view_from_message,
    view_message,
    your_turn_message,
)
from protocol.errors import ConversionError, DecodeError, ProtocolError
from protocol.messages import *  # noqa: F403 (the names of messages.__all__)
from protocol.messages import __all__ as _message_names

__all__ = [
    "MAX_CLIENT_MESSAGE_BYTES",
    "MAX_SERVER_MESSAGE_BYTES",
    "ConversionError",
    "DecodeError",
    "ProtocolError",
    "action_from_message",
    "action_message",
    "decode_client",
    "decode_server",
    "encode",
    "event_messages",
    "hand_result_from_message",
    "hand_result_message",
    "rules_from_message",
    "rules_message",
    "view_from_message",
    "view_message",
    "your_turn_message",
    *_message_names,
]
