"""One room per live table: its game, seats, spectators and timers.

:mod:`~server.rooms.table` (the stored fields), :mod:`~server.rooms.room` (``Room``: the
owner of membership and holds), :mod:`~server.rooms.play` (``Play``: the game loop, where
a played card goes), :mod:`~server.rooms.requests` (the checks of each request that
names a table), :mod:`~server.rooms.views` (messages built per viewer),
:mod:`~server.rooms.clock` (timers: the one part that touches the event loop) and
:mod:`~server.rooms.ports` (what a room needs from outside, as protocols). Nothing here
imports the lobby, the gateway or the transport.
"""
