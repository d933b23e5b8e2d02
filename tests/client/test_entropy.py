"""The client mixes its own entropy into every shuffle (protocol 1.1) and says so in the
end-of-hand window once the revealed shuffle is shown to have used it."""

from __future__ import annotations

import asyncio

import pytest

from client.model import ClientModel, Intent, Overlay
from client.render import fragments_text, render_overlay
from client.session import start_embedded_server
from engine import verify
from protocol import messages as m
from tests.client.test_live import autoplay, connected, until


@pytest.mark.timeout(60)
def test_the_end_of_hand_window_says_the_shuffle_used_our_entropy() -> None:
    async def run() -> None:
        server = await start_embedded_server(bot_delay=0.0)
        try:
            model = ClientModel("alice", intent=Intent(kind="create", bot="easy"))
            async with connected(server.url, model):
                await until(lambda: bool(model.results), [model])
                result = model.results[0]
                sent = [msg for msg in model.sent if isinstance(msg, m.Entropy)]
                assert sent and sent[0].hand_number == 1
                assert model.my_entropy[1].hex() == sent[0].value
                assert result.entropy == (model.my_entropy[1], b"")  # the bot sends none
                assert verify(result.commitment, result.seed, result.entropy)
                assert model.entropy_included[1]
                # the game log says it too, not only the window
                assert any(
                    line.startswith("Hand 1:") and "your entropy included ✓" in line
                    for line in model.log
                )
                model.overlay = Overlay.RESULT
                screen = fragments_text(render_overlay(model))
                assert "shuffle verified, your entropy included ✓" in screen
                # a result whose entropy is not ours gets the plain check, never the claim
                model.entropy_included[1] = False
                screen = fragments_text(render_overlay(model))
                assert "your entropy included" not in screen
                assert "shuffle verified ✓" in screen
                autoplay(model)
        finally:
            await server.close()

    asyncio.run(run())
