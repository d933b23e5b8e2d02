"""The server's TLS context (``--certfile``/``--keyfile``).

context = tls_context(config)     # None without a certificate; StartupError if unloadable
"""

from __future__ import annotations

import ssl

from server.config import ServerConfig
from server.errors import StartupError

__all__ = ["tls_context"]


def tls_context(config: ServerConfig) -> ssl.SSLContext | None:
    """The server's TLS context (TLS 1.2 or later), or ``None`` without a certificate.

    Raises :class:`StartupError` when the certificate or key cannot be loaded.
    """
    if config.certfile is None:
        if config.keyfile is not None:
            raise StartupError("--keyfile needs --certfile")
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(config.certfile, config.keyfile)
    except (OSError, ssl.SSLError) as error:
        raise StartupError(f"cannot load the TLS certificate {config.certfile}: {error}") from None
    return context
