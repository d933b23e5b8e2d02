"""``spades replay RECORD``: a finished game, hand by hand.

The record (as :func:`engine.game_record` writes it) is re-played with
:func:`engine.replay`, which checks that every action applies and the outcome matches;
then each hand is shown on one page: both hands as they stood when play began, the draft
and the blind-nil choices, the bids, all 13 tricks, the score and the shuffle check.
Page with ←/→ (or PgUp/PgDn, Home/End); ``a`` runs ``spades analyze`` on the game (the
seat asked for); q quits. ``--print`` writes every page to
standard output instead.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prompt_toolkit.application import Application, run_in_terminal
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import Output

from client.cardwords import card_text
from client.i18n import _, language
from client.model import hand_order
from client.render import STYLE, fragments_text
from client.rules import preset_text
from client.text import safe_text, to_ascii
from engine import (
    Card,
    Commit,
    Deal,
    GameState,
    HandResult,
    Phase,
    RecordError,
    game_record,
    parse_action,
    replay,
    verify,
)

__all__ = ["HandPage", "load_pages", "render_page", "run_replay"]


@dataclass
class HandPage:
    """What one page shows: one hand of the game."""

    number: int
    first_drafter: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    kept: tuple[int, int] = (0, 0)
    discarded: tuple[int, int] = (0, 0)
    blind: tuple[bool | None, bool | None] = (None, None)
    exchanged: tuple[int | None, int | None] = (None, None)
    tricks: list[tuple[int, Card, Card, int]] = field(default_factory=list)
    result: HandResult | None = None
    verified: bool = False


def load_pages(record: dict[str, Any]) -> tuple[GameState, list[HandPage]]:
    """Check ``record`` by replaying it and cut it into one page per hand.

    Raises :class:`~engine.errors.RecordError` when the record does not replay.
    """
    try:
        final = replay(record)
    except RecordError:
        # a server may add fields of its own (a forfeit, say): check what the engine writes
        final = replay(record, check=False)
        mine = game_record(final)
        if any(record.get(key) != value for key, value in mine.items()):
            raise
    state = GameState(final.rules)
    pages: list[HandPage] = []
    for seat, text in record["actions"]:
        action = parse_action(text)
        phase_before = state.phase
        state.apply(seat, action)
        if isinstance(action, Deal | Commit):  # a hand starts (a Shuffle draws its stock)
            pages.append(HandPage(state.hand_number, state.first_drafter or 0))
            continue
        page = pages[-1]
        if phase_before is not Phase.PLAY and state.phase is Phase.PLAY:
            views = (state.view_for(0), state.view_for(1))
            page.hands = (views[0].hand, views[1].hand)
            page.kept = (len(views[0].draft_kept), len(views[1].draft_kept))
            page.discarded = (len(views[0].draft_discarded), len(views[1].draft_discarded))
            page.blind = views[0].blind_nil
            page.exchanged = views[0].exchange_counts
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER) and page.result is None:
            view = state.view_for(None)
            page.tricks = [(t.leader, t.cards[0], t.cards[1], t.winner) for t in view.tricks]
            page.result = state.hand_results[-1]
            result = page.result
            page.verified = verify(result.commitment, result.seed, result.entropy)
    return final, pages


def _card(card: Card, ascii_only: bool) -> str:
    """``card`` in the letters of the language in use (German ``D♠``, ASCII ``DP``)."""
    return card_text(card, language(), ascii_only)


def _cards(cards: tuple[Card, ...], ascii_only: bool) -> str:
    return " ".join(_card(card, ascii_only) for card in hand_order(cards)) or "—"


def render_page(
    state: GameState,
    pages: list[HandPage],
    index: int,
    ascii_only: bool = False,
    *,
    key_hints: bool = True,
) -> StyleAndTextTuples:
    """One hand's page as formatted text (``key_hints=False``: without the paging keys'
    status line, for ``--print``)."""
    page = pages[index]
    out: StyleAndTextTuples = []

    def line(text: str, style: str = "") -> None:
        out.append((style, text + "\n"))

    heading = _(
        " Replay · hand {hand} of {hands} · rules: {rules} · first drafter: seat {seat}"
    ).format(
        hand=page.number,
        hands=len(pages),
        rules=preset_text(state.rules.preset_name() or "") or _("custom"),
        seat=page.first_drafter,
    )
    line(heading, "class:title")
    line("")
    for seat in (0, 1):
        parts = [
            _("Seat {seat}: kept {kept}, discarded {discarded}").format(
                seat=seat, kept=page.kept[seat], discarded=page.discarded[seat]
            )
        ]
        if page.blind[seat]:
            parts.append(_("BLIND NIL"))
        exch = page.exchanged[seat]
        if exch:
            parts.append(_("exchanged {n}").format(n=exch))
        line(" " + " · ".join(parts))
        line("   " + _("hand at play: {cards}").format(cards=_cards(page.hands[seat], ascii_only)))
    line("")
    line(" " + _("Tricks (leader's card first):"), "class:head")
    rows = []
    for number, (leader, first, second, winner) in enumerate(page.tricks, 1):
        rows.append(
            f" {number:>2}. s{leader} {_card(first, ascii_only):>3}  "
            f"s{1 - leader} {_card(second, ascii_only):>3} → s{winner}"
        )
    half = (len(rows) + 1) // 2
    for i in range(half):
        right = rows[i + half] if i + half < len(rows) else ""
        line(f"{rows[i]:<36}{right}")
    line("")
    result = page.result
    if result is not None:
        for seat in (0, 1):
            bid = result.bids[seat]
            bid_text = (
                _("blind nil") if result.blind_nil[seat] else (_("nil") if bid == 0 else str(bid))
            )
            score = _(
                "Seat {seat}: bid {bid}, took {tricks}, {points} points → {score} (bags {bags})"
            )
            if result.bag_penalties[seat]:
                score = _(
                    "Seat {seat}: bid {bid}, took {tricks}, {points} points, bag penalty "
                    "x{penalties} → {score} (bags {bags})"
                )
            words = score.format(
                seat=seat,
                bid=bid_text,
                tricks=result.tricks[seat],
                points=f"{result.points[seat]:+d}",
                penalties=result.bag_penalties[seat],
                score=result.scores[seat],
                bags=result.bags[seat],
            )
            line(" " + words, "class:head")
        mark = ("OK" if ascii_only else "✓") if page.verified else ("FAILED" if ascii_only else "✗")
        words = (
            _(
                " shuffle verified: the seed matches its commitment, and every card of this "
                "hand was replayed from the seed and both entropy values: {mark}"
            )
            if page.verified
            else _(" shuffle NOT verified: the seed does not match its commitment: {mark}")
        )
        line(words.format(mark=mark), "class:good" if page.verified else "class:bad")
    else:
        line(" " + _("(this hand did not finish)"))
    if index == len(pages) - 1 and state.is_over:
        champion = state.winner
        if champion is None:
            line(" " + _("Game over."), "class:turn")
        else:  # the winner's score first
            over = _("Game over: seat {seat} wins {score} to {other}.").format(
                seat=champion,
                score=state.scores[champion],
                other=state.scores[1 - champion],
            )
            line(" " + over, "class:turn")
    if key_hints:
        status = _("←/→ previous/next hand · Home/End first/last · a analysis · q quit")
        out.append(("class:status", " " + status))
    return out


def run_replay(
    path: str,
    *,
    print_only: bool = False,
    ascii_only: bool = False,
    input: Input | None = None,
    output: Output | None = None,
) -> int:
    """Show the record at ``path``; 0 on success, 1 if it cannot be read or replayed."""
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        state, pages = load_pages(record)
    except (OSError, ValueError, RecordError, KeyError, TypeError) as error:
        # the file and its error may carry anything: never print them raw
        words = _("spades replay: cannot replay {path}: {error}")
        print(safe_text(words.format(path=path, error=error)))
        return 1
    if not pages:
        print(safe_text(_("spades replay: {path} holds no hand").format(path=path)))
        return 1
    if print_only:
        try:
            for index in range(len(pages)):
                printed = render_page(state, pages, index, ascii_only, key_hints=False)
                print(safe_text(fragments_text(printed), newlines=True))
                print()
            sys.stdout.flush()
        except BrokenPipeError:
            # the reader left early (`| head`): stop quietly; point stdout at nothing so
            # the interpreter's final flush does not raise again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    where = [0]
    bindings = KeyBindings()

    def move(step: int) -> None:
        where[0] = min(max(where[0] + step, 0), len(pages) - 1)

    @bindings.add(Keys.Left)
    @bindings.add(Keys.PageUp)
    @bindings.add("p")
    def _previous(event: KeyPressEvent) -> None:
        move(-1)

    @bindings.add(Keys.Right)
    @bindings.add(Keys.PageDown)
    @bindings.add(" ")
    @bindings.add("n")
    def _next(event: KeyPressEvent) -> None:
        move(+1)

    @bindings.add(Keys.Home)
    def _first(event: KeyPressEvent) -> None:
        where[0] = 0

    @bindings.add(Keys.End)
    def _last(event: KeyPressEvent) -> None:
        where[0] = len(pages) - 1

    @bindings.add("a")
    def _analyse(event: KeyPressEvent) -> None:
        from client.analyze import show_analysis

        run_in_terminal(lambda: show_analysis(record, ascii_only=ascii_only), in_executor=True)

    @bindings.add("q")
    @bindings.add(Keys.Escape)
    @bindings.add(Keys.ControlC)
    def _quit(event: KeyPressEvent) -> None:
        event.app.exit()

    def page() -> StyleAndTextTuples:
        fragments = render_page(state, pages, where[0], ascii_only)
        clean = to_ascii if ascii_only else str
        return [(style, clean(safe_text(text, newlines=True))) for style, text, *_ in fragments]

    control = FormattedTextControl(page)
    app: Application[None] = Application(
        layout=Layout(HSplit([Window(control)])),
        key_bindings=bindings,
        style=STYLE,
        full_screen=True,
        input=input,
        output=output,
    )
    app.run()
    return 0
