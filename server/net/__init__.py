"""The transport: sockets and HTTP, nothing of the game.

:mod:`~server.net.transport` (accept or refuse, read frames),
:mod:`~server.net.writer` (the one writer to a socket), :mod:`~server.net.http`
(``/healthz``, web files, 404/426), :mod:`~server.net.guard` (per-connection bounds
below the protocol), :mod:`~server.net.web` (the web client's files),
:mod:`~server.net.tls` (the TLS context).
"""
