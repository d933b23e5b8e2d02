"""The lobby: the registry of rooms, the players, the unit of work, and the requests
that create, find and leave tables.

:mod:`~server.lobby.registry` (``Rooms``: create, find, load, remove),
:mod:`~server.lobby.players` (``Players``), :mod:`~server.lobby.turn` (``UnitOfWork``:
stored before anyone hears), :mod:`~server.lobby.handlers` (thin request functions).
"""
