"""Operations: what the host runs and sees, apart from the game.

:mod:`~server.ops.moderation` (bans, mutes, reports), :mod:`~server.ops.admin` (the
admin commands over a narrow port, the admin socket), :mod:`~server.ops.admin_cli`
(``spades admin``), :mod:`~server.ops.metrics` (Prometheus), :mod:`~server.ops.serving`
(the metrics page and the admin socket, opened and closed), :mod:`~server.ops.upkeep`
(abandoned tables, retention), :mod:`~server.ops.timeslice` (the loop's short time
slice). The limits the request path enforces (the one token bucket, per-address limits)
are :mod:`server.limits`, below every part that uses them.
"""
