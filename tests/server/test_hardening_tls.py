"""``spades serve --certfile --keyfile``: wss:// with a self-signed certificate made by
the openssl command line for this test, checked by a plain websockets client."""

from __future__ import annotations

import asyncio
import ssl
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from protocol import messages as m
from protocol.codec import decode_server, encode
from server import ServerError, start_server
from tests.server.helpers import TEST_CONFIG

ROOT = Path(__file__).resolve().parents[2]


def _self_signed(directory: Path) -> tuple[Path, Path]:
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
            "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


def test_the_server_speaks_wss_and_a_client_trusting_its_certificate_plays(
    tmp_path: Path,
) -> None:
    cert, key = _self_signed(tmp_path)

    async def main() -> None:
        config = replace(TEST_CONFIG, certfile=str(cert), keyfile=str(key))
        server = await start_server(config)
        try:
            assert server.url.startswith("wss://127.0.0.1:")
            trust = ssl.create_default_context(cafile=str(cert))
            async with connect(server.url, ssl=trust, compression=None) as ws:
                await ws.send(encode(m.Hello(protocol_version=1, name="tess")))
                welcome = decode_server(await ws.recv())
                assert isinstance(welcome, m.Welcome) and len(welcome.token) >= 40
                await ws.send(encode(m.Ping(nonce=7)))
                pong = decode_server(await ws.recv())
                assert isinstance(pong, m.Pong) and pong.nonce == 7
            # a client that does not trust the certificate gets no connection
            with pytest.raises(ssl.SSLCertVerificationError):
                async with connect(server.url, ssl=ssl.create_default_context()):
                    pass
            # and cleartext is not spoken on the TLS port
            plain = server.url.replace("wss://", "ws://")
            with pytest.raises(Exception):  # noqa: B017 - any handshake failure will do
                async with connect(plain, open_timeout=5):
                    pass
        finally:
            await server.close()

    asyncio.run(main())


def test_a_bad_certificate_is_one_clear_line(tmp_path: Path) -> None:
    bogus = tmp_path / "cert.pem"
    bogus.write_text("not a certificate\n")
    proc = subprocess.run(
        [sys.executable, "-m", "server", "--port", "0", "--db", ":memory:",
         "--certfile", str(bogus)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"spades server: cannot load the TLS certificate {bogus}")
    assert proc.stderr.count("\n") == 1


def test_start_server_raises_a_server_error_for_a_missing_key(tmp_path: Path) -> None:
    cert, _ = _self_signed(tmp_path)

    async def main() -> None:
        config = replace(TEST_CONFIG, certfile=str(cert), keyfile=str(tmp_path / "none.pem"))
        with pytest.raises(ServerError, match="cannot load the TLS certificate"):
            await start_server(config)

    asyncio.run(main())


def test_the_browser_address_printed_at_start_is_https_when_serving_tls() -> None:
    """With --certfile the same port speaks only TLS: the printed browser address must
    be https://, or a host who follows it gets no page."""
    from server.cli import browser_address

    tls = replace(TEST_CONFIG, host="127.0.0.1", certfile="c.pem", keyfile="k.pem")
    assert browser_address(tls, "127.0.0.1", 8766) == "https://127.0.0.1:8766/"
    plain = replace(TEST_CONFIG, host="127.0.0.1")
    assert browser_address(plain, "127.0.0.1", 8765) == "http://127.0.0.1:8765/"
    everywhere = replace(TEST_CONFIG, host="0.0.0.0", certfile="c.pem", keyfile="k.pem")
    assert browser_address(everywhere, "0.0.0.0", 443) == "https://<this machine's address>:443/"
