"""Hardening 4: the handshake pacer finds the next share in a few steps, whatever the
number of shares waiting (server/net/pacing.py). It asked every waiting share whether it
held a connection at every release: a step per share, for each upgrade let through."""

from __future__ import annotations

import asyncio

from server.net.pacing import HandshakePacer


def test_finding_the_next_share_asks_a_few_shares_not_every_waiting_one() -> None:
    async def scenario() -> tuple[int, int, list[str]]:
        asked = 0
        held = {f"198.51.100.{n}": 1 for n in range(250)}  # every share holds a connection

        def holds(share: str) -> int:
            nonlocal asked
            asked += 1
            return held.get(share, 0)

        pacer = HandshakePacer(holds, lambda address: address, per_turn=1)
        order: list[str] = []

        async def upgrade(address: str) -> None:
            await pacer.turn(address)
            order.append(address)

        waiting = [asyncio.create_task(upgrade(share)) for share in held for _ in range(2)]
        await asyncio.sleep(0)  # all 500 wait; then a share holding nothing comes
        newcomer = asyncio.create_task(upgrade("203.0.113.9"))
        await asyncio.gather(*waiting, newcomer)
        return asked, pacer.released, order

    asked, released, order = asyncio.run(scenario())
    assert released == 501
    # once per upgrade that comes and at most once more per release (the old scan: some
    # 250 shares asked at each of the 501 releases, over 60,000 questions)
    assert asked <= 501 + 2 * 501
    assert order.index("203.0.113.9") <= 2  # the newcomer still goes first
    assert len(set(order)) == 251


def test_a_newcomer_that_comes_to_hold_a_connection_goes_back_in_turn() -> None:
    async def scenario() -> list[str]:
        held = {"a": 1, "b": 0}
        pacer = HandshakePacer(lambda share: held[share], lambda address: address, per_turn=1)
        order: list[str] = []

        async def upgrade(address: str) -> None:
            await pacer.turn(address)
            order.append(address)
            if address == "b":
                held["b"] = 1  # its first upgrade opened a connection

        tasks = [asyncio.create_task(upgrade("a")) for _ in range(3)]
        tasks += [asyncio.create_task(upgrade("b")) for _ in range(3)]
        await asyncio.gather(*tasks)
        return order

    # b first (it held nothing), then the shares in turn: b no longer jumps the queue
    assert asyncio.run(scenario()) == ["b", "a", "b", "a", "b", "a"]
