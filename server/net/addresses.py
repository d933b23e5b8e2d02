"""Who a connection is from: its peer, or the client behind a trusted reverse proxy.

address = client_host(ws, config.trusted_proxies)   # what per-address limits count
shown = peer_address(ws)                            # "host:port" for the log
"""

from __future__ import annotations

import ipaddress

from websockets.asyncio.server import ServerConnection

__all__ = ["client_host", "peer_address", "peer_host"]


def peer_host(ws: ServerConnection) -> str:
    try:
        return str(ws.remote_address[0])
    except Exception:
        return "?"


def client_host(ws: ServerConnection, trusted_proxies: tuple[str, ...]) -> str:
    """The address a connection counts as: its peer's, or, when the peer is a trusted
    reverse proxy, the nearest address in ``X-Forwarded-For`` that is not a trusted
    proxy itself (the header's right end: entries further left are the client's own
    word and could be forged). A malformed entry counts as the proxy's address."""
    host = peer_host(ws)
    trusted = {_normal(proxy) for proxy in trusted_proxies} - {None}
    if _normal(host) not in trusted:
        return host
    request = getattr(ws, "request", None)
    header = request.headers.get_all("X-Forwarded-For") if request is not None else []
    hops = [hop.strip() for line in header for hop in line.split(",")]
    for hop in reversed(hops):
        address = _normal(hop)
        if address is None:
            return host  # garbage in the chain: trust nothing left of it
        if address not in trusted:
            return address
    return host


def _normal(text: str) -> str | None:
    """``text`` as a canonical IP address (``::ffff:1.2.3.4`` as ``1.2.3.4``), or None."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return str(address)


def peer_address(ws: ServerConnection) -> str:
    try:
        address = ws.remote_address
        return f"{address[0]}:{address[1]}"
    except Exception:
        return "?"
