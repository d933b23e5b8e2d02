"""The gateway: one session per connection, and the router from frames to handlers.

:mod:`~server.gateway.session` (``Session``: player, minor version, wire format, rate
buckets, frames out), :mod:`~server.gateway.router` (decode, rate, version gates, the
handler table, cluster routing), :mod:`~server.gateway.hello` (``hello`` and the end of
a session), :mod:`~server.gateway.services` (chat, reports, records, analyses, ping).
"""
