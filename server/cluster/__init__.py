"""Scale-out: where each table runs.

:mod:`~server.cluster.directory` is the interface the server uses (:class:`Directory`)
and its one-node implementation; :mod:`~server.cluster.redis_directory` is the one for
many nodes (table leases, redirects and failover through Redis,
:mod:`~server.cluster.presence`). redis-py is imported only by those two, and only when
``--presence`` asks for a cluster.
"""
