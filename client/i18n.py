"""The terminal client's words in the player's language.

Every player-facing string of the terminal client goes through these functions, so that
``pybabel extract`` finds it (keywords ``_`` and ``ngettext``) and the catalogue of the
chosen language translates it::

    from client.i18n import _, ngettext

    _("Your turn")
    ngettext("{n} trick", "{n} tricks", n).format(n=n)

``install(language)`` picks the catalogue; until it is called the words are English.
Raises nothing: an unknown language falls back to English.
"""

from __future__ import annotations

import gettext

__all__ = ["_", "install", "language", "ngettext"]

_translations: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def install(code: str) -> None:
    """Use the catalogue of language ``code`` (``"en"``, ``"de"``, ...) from now on."""
    global _translations, _language
    _language = code
    _translations = gettext.NullTranslations()


def language() -> str:
    """The code of the language in use."""
    return _language


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the language in use."""
    return _translations.ngettext(singular, plural, n)
