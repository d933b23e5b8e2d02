"""Who a connection is from: its peer, or the client behind a trusted reverse proxy.

address = client_host(ws, config.trusted_proxies)   # who it is (bans, the log)
share = address_share(address, config.ipv6_share_prefix)  # what per-address limits count
shown = peer_address(ws)                            # "host:port" for the log

Per-address limits count a *share*: an IPv4 address on its own, an IPv6 address by its
network (``/64`` by default, the block one home or one virtual machine gets; ``/56`` when
providers hand out whole /56 blocks): one host holds billions of addresses of its /64.
"""

from __future__ import annotations

import ipaddress

from websockets.asyncio.server import ServerConnection

from server.limits import DEFAULT_IPV6_PREFIX, address_share

__all__ = ["DEFAULT_IPV6_PREFIX", "address_share", "client_host", "peer_address", "peer_host"]


def peer_host(ws: ServerConnection) -> str:
    try:
        return str(ws.remote_address[0])
    except Exception:
        return "?"


def client_host(ws: ServerConnection, trusted_proxies: tuple[str, ...]) -> str:
    """The address a connection counts as: its peer's, or, when the peer is a trusted
    reverse proxy, the nearest address in ``X-Forwarded-For`` that is not a trusted
    proxy itself (the header's right end: entries further left are the client's own
    word and could be forged). An entry may carry a port (``1.2.3.4:5678``,
    ``[2001:db8::1]:443``); a malformed entry counts as the proxy's address."""
    host = peer_host(ws)
    trusted = {_normal(proxy) for proxy in trusted_proxies} - {None}
    if _normal(host) not in trusted:
        return host
    request = getattr(ws, "request", None)
    header = request.headers.get_all("X-Forwarded-For") if request is not None else []
    hops = [_without_port(hop) for line in header for hop in line.split(",")]
    for hop in reversed(hops):
        address = _normal(hop)
        if address is None:
            return host  # garbage in the chain: trust nothing left of it
        if address not in trusted:
            return address
    return host


def _without_port(hop: str) -> str:
    """An ``X-Forwarded-For`` entry without the port some proxies add: ``1.2.3.4:5678``,
    ``[2001:db8::1]:443`` and ``[2001:db8::1]`` give the bare address (a bare IPv6
    address, with its many colons, is left alone)."""
    hop = hop.strip()
    if hop.startswith("["):
        end = hop.find("]")
        rest = hop[end + 1 :] if end > 0 else "x"
        if end > 0 and (not rest or (rest.startswith(":") and rest[1:].isdigit())):
            return hop[1:end]
        return hop
    host, colon, port = hop.rpartition(":")
    if colon and host.count(":") == 0 and port.isdigit():
        return host
    return hop


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
