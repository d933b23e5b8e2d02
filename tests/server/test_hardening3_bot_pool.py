"""Issue 25 (hardening 3), item 3: the bot pool is shared fairly among addresses.

Before, each address had one decision at a time but the worker pool took decisions in
the order they came: eight addresses keeping hard bots thinking put eight decisions ahead
of an honest player's every easy move (the shares suite's ``tables`` phase: the honest
bot's reply 1.3 s against 0.6 s). Now at most one decision per worker is handed out, and
the address that used the workers least lately goes next.
"""

from __future__ import annotations

import asyncio

from engine import Action, PlayerView
from server.bots import BotRunner, FairTurns


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_share_that_used_the_workers_least_goes_first() -> None:
    async def main() -> list[str]:
        clock = Clock()
        turns = FairTurns(1, clock=clock)
        order: list[str] = []

        async def job(share: str, seconds: float) -> None:
            await turns.enter(share)
            order.append(share)
            for _ in range(3):  # the work: the honest share asks meanwhile
                await asyncio.sleep(0)
            clock.now += seconds
            turns.leave(share, seconds)

        # the attacker holds the worker and has three more queued; the honest share's
        # one decision comes last but goes next
        tasks = [asyncio.create_task(job("attacker", 1.0)) for _ in range(4)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(job("honest", 0.01)))
        await asyncio.gather(*tasks)
        return order

    assert asyncio.run(main()) == ["attacker", "honest", "attacker", "attacker", "attacker"]


def test_fair_turns_take_turns_between_busy_shares_and_bound_the_holders() -> None:
    async def main() -> tuple[list[str], int]:
        clock = Clock()
        turns = FairTurns(2, clock=clock)
        order: list[str] = []
        most = 0

        async def job(share: str) -> None:
            nonlocal most
            await turns.enter(share)
            most = max(most, turns.busy)
            order.append(share)
            await asyncio.sleep(0)
            clock.now += 1.0
            turns.leave(share, 1.0)

        tasks = [asyncio.create_task(job(s)) for s in ["a"] * 4 + ["b"] * 4]
        await asyncio.gather(*tasks)
        return order, most

    order, most = asyncio.run(main())
    assert most == 2
    # a's first two got the free workers; then b until it has used as much, then turns
    assert order[:2] == ["a", "a"]
    assert order[2:4] == ["b", "b"]
    assert sorted(order[4:]) == ["a", "a", "b", "b"]


def test_a_cancelled_waiter_gives_its_turn_to_the_next() -> None:
    async def main() -> list[str]:
        turns = FairTurns(1)
        order: list[str] = []
        await turns.enter("holder")
        gone = asyncio.create_task(turns.enter("gone"))
        stays = asyncio.create_task(turns.enter("stays"))
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.sleep(0)
        turns.leave("holder", 0.5)
        await stays
        order.append("stays")
        assert turns.busy == 1
        turns.leave("stays", 0.1)
        assert turns.busy == 0 and not turns.waiting
        return order

    assert asyncio.run(main()) == ["stays"]


def test_usage_fades_by_half_every_half_life() -> None:
    clock = Clock()
    turns = FairTurns(1, clock=clock)
    turns.busy = 1
    turns.leave("a", 8.0)
    clock.now += FairTurns.HALF_LIFE
    assert turns.usage("a") == 4.0
    assert turns.usage("never") == 0.0


def test_bot_decisions_wait_for_a_fair_turn_by_the_tables_share() -> None:
    """A runner of one worker: while one share's decision runs, a second share's
    decision comes before the first share's next one."""

    async def main() -> list[str]:
        runner = BotRunner(0)
        order: list[str] = []
        entered = runner.turns.enter

        async def noting(share: str) -> None:
            await entered(share)
            order.append(share)

        runner.turns.enter = noting  # type: ignore[method-assign]

        async def decide(view: PlayerView, level: str, seed: int) -> Action:
            await asyncio.sleep(0.01)
            return "x"  # type: ignore[return-value]

        runner._decide = decide  # type: ignore[method-assign]
        view: PlayerView = None  # type: ignore[assignment]
        first = asyncio.create_task(runner.decide(view, "hard", 1, "198.51.100.7"))
        await asyncio.sleep(0)
        second = asyncio.create_task(runner.decide(view, "hard", 2, "198.51.100.7"))
        await asyncio.sleep(0)
        honest = asyncio.create_task(runner.decide(view, "easy", 3, "203.0.113.5"))
        await asyncio.gather(first, second, honest)
        runner.close()
        return order

    assert asyncio.run(main()) == ["198.51.100.7", "203.0.113.5", "198.51.100.7"]
