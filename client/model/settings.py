"""The player's settings (the ``o`` window): switches and the trick pause."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Settings"]


@dataclass
class Settings:
    """The player's settings; :meth:`change` is the one way the settings window alters them."""

    auto_play_one: bool = True
    ascii_cards: bool = False
    confirm_before_play: bool = True
    trick_pause: float = 1.0  # seconds a finished trick stays on the table (0: none)

    ITEMS: tuple[tuple[str, str], ...] = (
        ("auto_play_one", "Auto Play One (play a forced card by itself)"),
        ("ascii_cards", "Card style: ASCII letters (CDHS) instead of ♣♦♥♠"),
        ("confirm_before_play", "Confirm before play (a typed card waits for Enter)"),
        ("trick_pause", "Trick pause: a finished trick stays on the table"),
    )
    PAUSES: tuple[float, ...] = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)

    def change(self, name: str, direction: int = 1) -> None:
        """Toggle a switch, or step the trick pause by ``direction`` through PAUSES."""
        if name == "trick_pause":
            steps = self.PAUSES
            at = min(range(len(steps)), key=lambda i: abs(steps[i] - self.trick_pause))
            self.trick_pause = steps[(at + direction) % len(steps)]
            return
        setattr(self, name, not getattr(self, name))
