"""The accounts' cluster test gets a real ``redis-server`` from :mod:`tests.redisfixture`."""

from tests.redisfixture import redis_server

__all__ = ["redis_server"]
