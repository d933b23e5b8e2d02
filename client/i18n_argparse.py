"""argparse in the player's language: ``spades --help`` and its errors, translated.

argparse takes its own words ("usage:", "options", "invalid choice: ...") from
:func:`gettext.gettext`, that is from the process-wide default domain in the languages
the environment names, not from the language the player chose with ``--lang`` or the
setting. So the ``spades`` command's parsers are made with :class:`LocalizedParser`,
which puts argparse's words through :mod:`client.i18n` at the few places argparse lets
a caller in (its formatter class, the ``-h`` action's help, :meth:`error`)::

    install("de")
    parser = LocalizedParser(prog="spades", description=_("..."))
    parser.add_argument("--seat", help=_("the seat to take"))
    parser.parse_args(["--help"])        # "Aufruf: spades ..." and "Optionen:"
    translate_error("unrecognized arguments: --x")   # "unbekannte Argumente: --x"

``LocalizedParser(english=True)`` (the server's subcommands: the server stays English)
is a plain argparse parser. An argparse message this module does not know stays
English. Raises what :class:`argparse.ArgumentParser` raises (``SystemExit`` on
``--help`` and on an error).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from typing import Any, Final, NoReturn

from prompt_toolkit.utils import get_cwidth

from client.draw import wrap
from client.i18n import N_, _

__all__ = ["LocalizedHelpFormatter", "LocalizedParser", "translate_error"]

# argparse's own section titles, marked for the catalogue
_HEADINGS: Final = {
    "positional arguments": N_("positional arguments"),
    "options": N_("options"),
}


class LocalizedHelpFormatter(argparse.HelpFormatter):
    """argparse's help layout, with its "usage:" and its section titles translated, and
    the help texts wrapped by terminal columns (a Japanese letter takes two: argparse's
    own wrapping counts letters). The option column is measured by argparse in letters,
    so the catalogues keep metavars in single-width letters."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(" ".join(text.split()), width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap(" ".join(text.split()), width))

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        # a subcommand's prog is built with prefix "" : only argparse's default is ours
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)

    def _format_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None,
    ) -> str:
        # argparse indents the usage's next lines by the prefix's letters: "使い方: " is
        # five letters but eight columns, so those lines get the three columns more, and
        # the whole is laid out three columns narrower to stay inside the terminal
        extra = get_cwidth(prefix or "") - len(prefix or "")
        if extra <= 0:
            return super()._format_usage(usage, actions, groups, prefix)
        self._width -= extra
        try:
            text = super()._format_usage(usage, actions, groups, prefix)
        finally:
            self._width += extra
        first, *rest = text.split("\n")
        return "\n".join(
            [first, *((" " * extra + line) if line.strip() else line for line in rest)]
        )

    def start_section(self, heading: str | None) -> None:
        known = _HEADINGS.get(heading or "")
        super().start_section(_(known) if known is not None else heading)


# argparse's error messages (Python 3.11 wording) and ours for them: the pattern's named
# groups fill the translation's {placeholders}
_ERRORS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (
        re.compile(r"invalid choice: (?P<value>.+) \(choose from (?P<choices>.+)\)"),
        N_("invalid choice: {value} (choose from {choices})"),
    ),
    (
        re.compile(r"the following arguments are required: (?P<names>.+)"),
        N_("the following arguments are required: {names}"),
    ),
    (
        re.compile(r"one of the arguments (?P<names>.+) is required"),
        N_("one of the arguments {names} is required"),
    ),
    (re.compile(r"unrecognized arguments: (?P<names>.+)"), N_("unrecognized arguments: {names}")),
    (re.compile(r"expected one argument"), N_("expected one argument")),
    (re.compile(r"invalid int value: (?P<value>.+)"), N_("not a whole number: {value}")),
    (re.compile(r"invalid float value: (?P<value>.+)"), N_("not a number: {value}")),
    (
        re.compile(r"not allowed with argument (?P<name>.+)"),
        N_("not allowed with argument {name}"),
    ),
    (
        re.compile(r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)"),
        N_("ambiguous option: {option} could match {matches}"),
    ),
)
_ARGUMENT: Final = re.compile(r"argument (?P<name>[^:]+): (?P<message>.+)", re.DOTALL)


def translate_error(message: str) -> str:
    """argparse's error ``message`` in the language in use (``argument --seat: invalid
    choice: ...`` included); a message it does not know, as it is."""
    about = _ARGUMENT.fullmatch(message)
    if about is not None:
        return _("argument {name}: {message}").format(
            name=about["name"], message=translate_error(about["message"])
        )
    for pattern, words in _ERRORS:
        found = pattern.fullmatch(message)
        if found is not None:
            return _(words).format(**found.groupdict())
    return message


class LocalizedParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose own words are in the language in use
    (build it after :func:`client.i18n.install`); its subcommands' parsers are too.
    ``english=True`` keeps argparse's English (the server's commands)."""

    def __init__(self, *args: Any, english: bool = False, **kwargs: Any) -> None:
        self.english = english
        if english:
            kwargs.setdefault("formatter_class", argparse.HelpFormatter)
            super().__init__(*args, **kwargs)
            return
        add_help = kwargs.pop("add_help", True)
        kwargs.setdefault("formatter_class", LocalizedHelpFormatter)
        kwargs["add_help"] = False  # argparse's -h has English help: ours is added below
        super().__init__(*args, **kwargs)
        if add_help:
            self.add_argument(
                "-h", "--help", action="help", help=_("show this help message and exit")
            )

    def error(self, message: str) -> NoReturn:
        if self.english:
            super().error(message)
        self.print_usage(sys.stderr)
        words = _("{prog}: error: {message}").format(
            prog=self.prog, message=translate_error(message)
        )
        self.exit(2, words + "\n")
