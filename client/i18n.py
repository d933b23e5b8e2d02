"""The terminal client's words in the player's language.

Every player-facing string of the terminal client goes through these functions, so that
``pybabel extract`` finds it (keywords ``_``, ``ngettext`` and ``N_``, see ``babel.cfg``)
and the catalogue of the chosen language translates it::

    from client.i18n import _, ngettext, N_

    _("Your turn")
    ngettext("{n} trick", "{n} tricks", n).format(n=n)
    pgettext("score sheet", "bid")  # the same English, a word of its own (3 columns)
    LABEL = N_("Target score")      # marked where it is written, translated where drawn: _(LABEL)

    install(choose(requested="ja"))   # --lang, then the setting, then LANGUAGE/LC_ALL/LANG
    language()                        # "ja"

The catalogues are ``client/locale/<code>/LC_MESSAGES/spades.po`` (the source of truth,
edited by translators) compiled to ``spades.mo`` beside them; ``python3 -m
client.i18n_build`` regenerates the compiled forms (see its docstring). Plural forms
follow each catalogue's ``Plural-Forms`` header (Japanese has one form, the others two).

Until :func:`install` is called the words are English. Raises nothing: an unknown
language, or a missing compiled catalogue, falls back to English.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "N_",
    "_",
    "choose",
    "install",
    "language",
    "ngettext",
    "pgettext",
]

DOMAIN: Final = "spades"
LOCALE_DIR: Final = Path(__file__).parent / "locale"
# the languages with a catalogue, in the order the settings cycle through them
LANGUAGES: Final[tuple[str, ...]] = ("en", "de", "ja", "nl", "el")
# each language's name in itself (the menus show these, never translated)
LANGUAGE_NAMES: Final[dict[str, str]] = {
    "en": "English",
    "de": "Deutsch",
    "ja": "日本語",
    "nl": "Nederlands",
    "el": "Ελληνικά",
}
# the environment variables a terminal names its language in, the strongest first
_ENVIRONMENT: Final = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def _known(code: str | None) -> str | None:
    """``code`` (``ja``, ``ja_JP.UTF-8``, ``de-AT``) as one of :data:`LANGUAGES`, or None."""
    if not code:
        return None
    base = code.split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0].lower()
    return base if base in LANGUAGES else None


def choose(
    requested: str | None = None,
    setting: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> str:
    """The language to use: ``requested`` (``--lang``), else ``setting``, else the first
    known language the environment names (``LANGUAGE`` may list several, ``de:en``; a
    ``C`` or ``POSIX`` locale means English), else ``"en"``."""
    for code in (requested, setting):
        found = _known(code)
        if found is not None:
            return found
    env = os.environ if environ is None else environ
    for variable in _ENVIRONMENT:
        value = env.get(variable, "")
        if not value:
            continue
        if value in ("C", "POSIX") or value.startswith("C."):
            return "en"
        for part in value.split(":"):
            found = _known(part)
            if found is not None:
                return found
    return "en"


def install(code: str) -> str:
    """Use the catalogue of language ``code`` (``"en"``, ``"de"``, ...) from now on; the
    code in use is returned (``"en"`` for a language without a catalogue)."""
    global _translations, _language
    known = _known(code) or "en"
    _translations = gettext.translation(
        DOMAIN, localedir=str(LOCALE_DIR), languages=[known], fallback=True
    )
    _language = known
    return known


def language() -> str:
    """The code of the language in use."""
    return _language


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _translations.gettext(message)


def N_(message: str) -> str:
    """``message`` itself: marks a string for the catalogue where it is defined (a table
    of labels) so that ``_(label)`` can translate it where it is drawn."""
    return message


def pgettext(context: str, message: str) -> str:
    """``message`` in the language in use, as it reads in ``context`` (a narrow column
    may want a shorter word than the same English elsewhere)."""
    return _translations.pgettext(context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the language in use."""
    return _translations.ngettext(singular, plural, n)
