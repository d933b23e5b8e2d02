"""The player's settings (the ``o`` window): switches, the trick pause and the language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from client.i18n import LANGUAGES, N_, install

__all__ = ["ASCII_LANGUAGES", "Settings"]

# the languages whose words survive the --ascii filter (German umlauts become ae, oe, ue,
# Dutch accents their base letter); Japanese and Greek would turn to question marks, so
# with ASCII on they are shown in English (the menu still names the chosen language)
ASCII_LANGUAGES = ("en", "de", "nl")


@dataclass
class Settings:
    """The player's settings; :meth:`change` is the one way the settings window alters
    them. :meth:`apply_language` installs the language they call for (call it once they
    are made; :meth:`change` calls it again). ``on_language`` (the ``spades`` command sets
    it to :func:`client.saved_settings.save_language`) hears each language the player
    chooses in the window, so that the next run starts in it."""

    auto_play_one: bool = True
    ascii_cards: bool = False
    confirm_before_play: bool = True
    trick_pause: float = 1.0  # seconds a finished trick stays on the table (0: none)
    language: str = "en"  # one of client.i18n.LANGUAGES
    on_language: Callable[[str], None] | None = field(default=None, repr=False, compare=False)

    ITEMS: tuple[tuple[str, str], ...] = (
        ("auto_play_one", N_("Auto Play One (play a forced card by itself)")),
        ("ascii_cards", N_("Card style: ASCII letters (CDHS) instead of ♣♦♥♠")),
        ("confirm_before_play", N_("Confirm before play (a typed card waits for Enter)")),
        ("trick_pause", N_("Trick pause: a finished trick stays on the table")),
        ("language", N_("Language")),
    )
    PAUSES: tuple[float, ...] = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)

    def change(self, name: str, direction: int = 1) -> None:
        """Toggle a switch, or step the trick pause by ``direction`` through PAUSES, or
        the language through :data:`~client.i18n.LANGUAGES`."""
        if name == "trick_pause":
            steps = self.PAUSES
            at = min(range(len(steps)), key=lambda i: abs(steps[i] - self.trick_pause))
            self.trick_pause = steps[(at + direction) % len(steps)]
            return
        if name == "language":
            at = LANGUAGES.index(self.language) if self.language in LANGUAGES else 0
            self.language = LANGUAGES[(at + direction) % len(LANGUAGES)]
            self.apply_language()
            if self.on_language is not None:
                self.on_language(self.language)
            return
        setattr(self, name, not getattr(self, name))
        if name == "ascii_cards":
            self.apply_language()

    def shown_language(self) -> str:
        """The language the words are drawn in: the chosen one, or English when ASCII is
        on and the chosen language is not written in Latin letters."""
        if self.ascii_cards and self.language not in ASCII_LANGUAGES:
            return "en"
        return self.language

    def apply_language(self) -> str:
        """Install :meth:`shown_language`'s catalogue; its code."""
        return install(self.shown_language())
