"""server: the authoritative asyncio websocket server for two-handed Spades.

    from server import ServerConfig, start_server
    running = await start_server(ServerConfig(port=0, db_path=":memory:"))
    ...                                  # running.port, running.url
    await running.close()

``python3 -m server`` (or ``spades serve``) runs it from the command line.
"""

from server.app import RunningServer, start_server
from server.config import ServerConfig, default_db_path
from server.errors import ServerError

__all__ = ["RunningServer", "ServerConfig", "ServerError", "default_db_path", "start_server"]
