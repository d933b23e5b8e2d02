"""protocol: the typed messages and the msgpack codec."""
