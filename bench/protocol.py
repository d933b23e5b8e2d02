"""Protocol benchmark: msgpack encode / decode+validate vs JSON, for typical messages.

    python3 bench/protocol.py [--seconds 0.25]

Messages (from :mod:`protocol.examples`, a real game): a ``snapshot`` (a mid-play
``View`` plus ``TableInfo``), an ``events`` message with one ``card_played`` event, and
an ``action`` (``Act``). For each: microseconds per ``encode`` and per ``decode_*`` (unpack
and strict validation), the bytes on the wire, and the same through pydantic's JSON
(``model_dump_json`` / ``validate_json``) for comparison. The last line printed is one
JSON object with every number.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# the repository root first: run as a script, this file's own folder would come first and
# its name would shadow the protocol package
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pydantic import BaseModel

from protocol import messages as m
from protocol.codec import decode_client, decode_server, encode
from protocol.examples import client_examples, example_events, example_snapshot


def per_call_us(function: Callable[[], object], seconds: float) -> float:
    """Median of 5 timed batches, in microseconds per call."""
    function()
    batch = 1
    while True:  # size a batch to about a fifth of the time budget
        start = time.perf_counter()
        for _ in range(batch):
            function()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds / 5 or batch >= 1_000_000:
            break
        batch *= 2
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(batch):
            function()
        samples.append((time.perf_counter() - start) / batch)
    return round(sorted(samples)[2] * 1e6, 2)


def measure(message: BaseModel, client: bool, seconds: float) -> dict[str, Any]:
    adapter = m.CLIENT_ADAPTER if client else m.SERVER_ADAPTER
    decode = decode_client if client else decode_server
    data = encode(message)
    text = message.model_dump_json()
    assert decode(data) == message
    assert adapter.validate_json(text) == message
    return {
        "msgpack_bytes": len(data),
        "msgpack_encode_us": per_call_us(lambda: encode(message), seconds),
        "msgpack_decode_us": per_call_us(lambda: decode(data), seconds),
        "json_bytes": len(text.encode()),
        "json_encode_us": per_call_us(message.model_dump_json, seconds),
        "json_decode_us": per_call_us(lambda: adapter.validate_json(text), seconds),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=0.25, help="time per measurement")
    args = parser.parse_args(argv)
    act = next(x for x in client_examples() if isinstance(x, m.Act))
    cases: dict[str, tuple[BaseModel, bool]] = {
        "snapshot": (example_snapshot(), False),
        "event": (example_events(), False),
        "action": (act, True),
    }
    result: dict[str, Any] = {"benchmark": "protocol"}
    for name, (message, client) in cases.items():
        numbers = measure(message, client, args.seconds)
        result[name] = numbers
        print(
            f"{name:9} msgpack {numbers['msgpack_bytes']:5} B  "
            f"encode {numbers['msgpack_encode_us']:7.2f} us  "
            f"decode {numbers['msgpack_decode_us']:7.2f} us  |  json "
            f"{numbers['json_bytes']:5} B  encode {numbers['json_encode_us']:7.2f} us  "
            f"decode {numbers['json_decode_us']:7.2f} us"
        )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
