"""The server's CPU per connection it sheds before any handshake (issue 25, item 7).

    flock /tmp/bench.lock python3 bench/abuse_shedcost.py [--connects 4000]

One address (127.0.0.9) opens ``--connects`` TCP connections one after another, each
closed by the client as soon as the server has closed it (or after 50 ms when the server
keeps it). The server's connection rate is one connection, then one every 1,000 s
(``--connects-burst-per-address 1 --connects-per-second-per-address 0.001``): it sheds
all but the first, so no handshake's work is in the figure. The server's CPU time over
the flood, less its idle CPU over as long a spell measured before, divided by the
connections shed, is the cost of one shed socket. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._procstat import cpu_seconds
from bench.abuse_kit import server_process

ATTACKER = "127.0.0.9"


def _flood(port: int, connects: int) -> int:
    """Open and close ``connects`` connections from :data:`ATTACKER`; how many the
    server closed first (shed)."""
    shed = 0
    for _ in range(connects):
        with socket.create_connection(("127.0.0.1", port), source_address=(ATTACKER, 0)) as s:
            s.settimeout(0.05)
            try:
                if s.recv(1) == b"":
                    shed += 1
            except TimeoutError:  # kept: the burst
                pass
            except ConnectionResetError:
                shed += 1
    return shed


async def main(connects: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        rate = ("--connects-per-second-per-address", "0.001", "--connects-burst-per-address", "1")
        async with server_process(str(Path(folder) / "s.db"), *rate) as (server, url):
            port = int(url.rsplit(":", 1)[1].strip("/"))
            await asyncio.sleep(1.0)
            idle_start, start = cpu_seconds(server.pid), time.monotonic()
            await asyncio.sleep(2.0)
            idle_rate = (cpu_seconds(server.pid) - idle_start) / (time.monotonic() - start)
            cpu_start, start = cpu_seconds(server.pid), time.monotonic()
            shed = await asyncio.to_thread(_flood, port, connects)
            await asyncio.sleep(0.5)  # the last ones handled
            seconds = time.monotonic() - start
            cpu = cpu_seconds(server.pid) - cpu_start - idle_rate * seconds
    return {
        "bench": "abuse_shedcost",
        "command": f"python3 bench/abuse_shedcost.py --connects {connects}",
        "connects": connects,
        "shed": shed,
        "seconds": round(seconds, 2),
        "server_cpu_s": round(cpu, 3),
        "cpu_us_per_shed": round(1e6 * cpu / shed, 1) if shed else None,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connects", type=int, default=4000)
    print(json.dumps(asyncio.run(main(parser.parse_args().connects))))
