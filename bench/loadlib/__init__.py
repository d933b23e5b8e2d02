"""The parts of bench/load.py: :mod:`~bench.loadlib.rawclient` (the light websocket
client, process helpers), :mod:`~bench.loadlib.tables` (our server's tables, per worker),
:mod:`~bench.loadlib.echo` (the echo server compared against) and
:mod:`~bench.loadlib.scrape` (figures from ``/metrics``)."""
