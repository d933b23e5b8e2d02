"""server: the authoritative asyncio websocket server."""
