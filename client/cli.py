"""The ``spades`` command.

``spades`` with no arguments plays a game against the bot on this machine (an embedded
server on a free loopback port, in this process); the subcommands are listed by
``spades --help``::

    spades [--rules P] [--level L] [--name N] [--ascii] [--lang de|en|el|ja|nl]
    spades play [URL] [--name N] [--create [--rules P] [--private] [--bot L] | --join CODE
                | --watch CODE]
    spades replay RECORD [--print] [--lang CODE]
    spades analyze RECORD [--seat N] [--level L] [--all] [--lang CODE]
    spades serve ...            (the server, see spades serve --help)
    spades bot URL --table CODE (a bot client, client/bot_client.py)
    spades backup PATH [--db STORE]      (a consistent copy of a live server's store)
    spades restore BACKUP [--db STORE]   (put a copy back, the server stopped)
    spades demo [--lang CODE]   (two bots play a game, printed)

Everything the player reads, the help and argparse's own words included, is in the
language of ``--lang``, else the one the settings window saved
(:mod:`client.saved_settings`), else the environment's (:func:`client.i18n.choose`);
the server's commands keep their English help.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from typing import Any, Literal, cast

import engine
from client.bot_client import add_bot_arguments, run_bot
from client.i18n import LANGUAGES, N_, _, choose, install
from client.i18n_argparse import LocalizedParser
from client.model import ClientModel, Intent, Settings
from client.saved_settings import load_language, save_language
from client.tokens import load_token, save_token
from engine.bot import LEVELS

__all__ = ["DEFAULT_URL", "build_parser", "main"]

DEFAULT_URL = "ws://127.0.0.1:8765/"
LANG_HELP = N_(
    "the language of the game, for this run (default: the one last chosen in the settings "
    "window (o), else from LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"
)
BOT_DELAY_ENV = "SPADES_BOT_DELAY"
BOT_LEVEL_ENV = "SPADES_BOT_LEVEL"


def _default_name() -> str:
    try:
        name = getpass.getuser()
    except Exception:  # no user database entry (containers)
        name = ""
    return (name or "player")[:24]


def _server_cli() -> Any | None:
    return _server_module("server.cli")


def _server_module(name: str) -> Any | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def build_parser() -> argparse.ArgumentParser:
    """The ``spades`` command's parser, its words in the language installed now."""
    parser = LocalizedParser(
        prog="spades",
        description=_(
            "Two-handed Spades over the network. With no command: play the bot on this "
            "machine at once."
        ),
    )
    version = f"spades {engine.__version__}"
    parser.add_argument(
        "--version",
        action="version",
        version=version,
        help=_("show the program's version and exit"),
    )
    parser.add_argument(
        "--rules",
        default="classic",
        choices=sorted(engine.PRESETS),
        help=_("rule preset for the game against the bot (default: classic)"),
    )
    parser.add_argument(
        "--level", default=None, choices=LEVELS, help=_("the bot's level (default: normal)")
    )
    name = _("NAME")
    parser.add_argument("--name", default=None, metavar=name, help=_("your name at the table"))
    parser.add_argument(
        "--ascii", action="store_true", help=_("letters (CDHS) instead of unicode suit symbols")
    )
    parser.add_argument("--lang", default=None, choices=LANGUAGES, help=_(LANG_HELP))
    parser.add_argument("--bot-delay", type=float, default=None, help=argparse.SUPPRESS)
    commands = parser.add_subparsers(dest="command", metavar=_("COMMAND"))

    play = commands.add_parser("play", help=_("connect to a server: lobby, or create/join/watch"))
    play.add_argument(
        "url",
        nargs="?",
        default=DEFAULT_URL,
        metavar="URL",
        help=_("server address (default: {url})").format(url=DEFAULT_URL),
    )
    play.add_argument("--name", default=None, metavar=name, help=_("your name at the table"))
    play.add_argument("--ascii", action="store_true", help=_("letters instead of suit symbols"))
    _language_argument(play)
    table = play.add_mutually_exclusive_group()
    code = _("CODE")
    table.add_argument("--create", action="store_true", help=_("create a table and sit at it"))
    table.add_argument("--join", metavar=code, help=_("join the table with this code"))
    table.add_argument("--watch", metavar=code, help=_("watch the table with this code"))
    play.add_argument(
        "--rules",
        default="classic",
        choices=sorted(engine.PRESETS),
        help=_("with --create: the rule preset"),
    )
    play.add_argument("--private", action="store_true", help=_("with --create: a private table"))
    play.add_argument(
        "--bot",
        default=None,
        choices=LEVELS,
        metavar=_("LEVEL"),
        help=_("with --create: the bot takes the other seat at this level ({levels})").format(
            levels=", ".join(LEVELS)
        ),
    )
    play.add_argument(
        "--cafile",
        metavar=_("PATH"),
        default=None,
        help=_(
            "with a wss:// address: a PEM file of the CA (or the certificate itself) to "
            "trust, for a server with a self-signed certificate"
        ),
    )
    play.add_argument(
        "--new-session",
        action="store_true",
        help=_("do not resume the seats of your last session at this server"),
    )
    play.add_argument(
        "--seat",
        type=int,
        choices=(0, 1),
        default=None,
        help=_("the seat to take (default: any)"),
    )

    record = _("RECORD")
    record_help = _("a record JSON file (as spades serve stores them)")
    replay = commands.add_parser("replay", help=_("show a finished game's record hand by hand"))
    replay.add_argument("record", metavar=record, help=record_help)
    replay.add_argument(
        "--print",
        action="store_true",
        dest="print_only",
        help=_("print every hand instead of paging"),
    )
    replay.add_argument("--ascii", action="store_true", help=_("letters instead of suit symbols"))
    _language_argument(replay)

    analyze = commands.add_parser(
        "analyze",
        help=_("judge every decision of one seat in a game record: where the points went"),
    )
    analyze.add_argument("record", metavar=record, help=record_help)
    analyze.add_argument(
        "--seat",
        type=int,
        choices=(0, 1),
        default=0,
        help=_("the seat to analyse (default: 0)"),
    )
    analyze.add_argument(
        "--level",
        default="normal",
        choices=("easy", "normal", "hard"),
        help=_("how many deals each decision is judged on (default: normal)"),
    )
    analyze.add_argument("--all", action="store_true", dest="every", help=_("list every decision"))
    analyze.add_argument("--ascii", action="store_true", help=_("letters instead of suit symbols"))
    _language_argument(analyze)

    _server_commands(commands)

    demo = commands.add_parser("demo", help=_("watch two bots play a game in the terminal"))
    demo.add_argument(
        "--rules",
        default="classic",
        choices=sorted(engine.PRESETS),
        help=_("the rule preset (default: classic)"),
    )
    demo.add_argument(
        "--level", default="easy", choices=LEVELS, help=_("the bots' level (default: easy)")
    )
    demo.add_argument(
        "--seed", type=int, default=None, metavar=_("SEED"), help=_("make the game reproducible")
    )
    _language_argument(demo)
    return parser


def _language_argument(command: argparse.ArgumentParser) -> None:
    # SUPPRESS: a subcommand that is not given --lang leaves the main parser's alone
    command.add_argument("--lang", default=argparse.SUPPRESS, choices=LANGUAGES, help=_(LANG_HELP))


def _server_commands(commands: Any) -> None:
    """The server's commands (serve, bot, backup, restore, admin): their one-line help in
    the player's language, their own help English (the server stays English)."""
    server_cli = _server_cli()
    serve = commands.add_parser("serve", help=_("run the server"), english=True)
    if server_cli is not None:
        server_cli.add_serve_arguments(serve)
    add_bot_arguments(
        commands.add_parser(
            "bot", help=_("fill a seat with the bot over the network"), english=True
        )
    )
    backup_cli = _server_module("server.backup")
    backup = commands.add_parser(
        "backup", help=_("copy a live server's store, consistently"), english=True
    )
    restore = commands.add_parser(
        "restore", help=_("put a backup back as the store (server stopped)"), english=True
    )
    if backup_cli is not None:
        backup_cli.add_backup_arguments(backup)
        backup_cli.add_restore_arguments(restore)
    admin = commands.add_parser(
        "admin",
        help=_("moderate a running server: tables, players, close, kick, ban, mute, reports"),
        english=True,
    )
    admin_cli = _server_module("server.admin")
    if admin_cli is not None:
        admin_cli.add_admin_arguments(admin)


def _quiet_logging() -> None:
    """The full-screen client owns the terminal: nothing may write log lines to it."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.addHandler(logging.NullHandler())
    root.setLevel(logging.CRITICAL)
    logging.getLogger("websockets").setLevel(logging.CRITICAL)


def _level(value: str | None) -> Literal["easy", "normal", "hard"]:
    level = value or os.environ.get(BOT_LEVEL_ENV) or "normal"
    if level not in LEVELS:
        level = "normal"
    return cast(Literal["easy", "normal", "hard"], level)


def _bot_delay(value: float | None) -> float | None:
    if value is not None:
        return value
    text = os.environ.get(BOT_DELAY_ENV)
    try:
        return float(text) if text else None
    except ValueError:
        return None


def requested_language(argv: Sequence[str]) -> str | None:
    """The ``--lang`` of ``argv`` (wherever it stands, before or after the command), read
    before the parser is built: the parser's help is written in that language. An
    unknown code is returned as it is (the parser then says it is not a choice)."""
    finder = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    finder.add_argument("--lang", default=None)
    try:
        found, _rest = finder.parse_known_args(list(argv))
    except argparse.ArgumentError:  # "--lang" with no value: the real parser says so
        return None
    value = found.lang
    return value if isinstance(value, str) else None


def _chosen_language(args: argparse.Namespace) -> str:
    """``--lang``, else the language saved by the settings window, else the environment's."""
    return choose(getattr(args, "lang", None), load_language())


def _settings(args: argparse.Namespace) -> Settings:
    """The settings the command line asks for, their language installed; a language the
    player then chooses in the settings window is saved for the next run."""
    settings = Settings(
        ascii_cards=bool(getattr(args, "ascii", False)),
        language=_chosen_language(args),
        on_language=save_language,
    )
    settings.apply_language()
    return settings


def run_local_game(args: argparse.Namespace) -> int:
    from client.session import run_local

    level = _level(args.level)
    intent = Intent(kind="create", preset=args.rules, bot=level, private=True)
    model = ClientModel(
        args.name or _default_name(),
        settings=_settings(args),
        intent=intent,
        bot_level=level,
    )
    _quiet_logging()
    try:
        asyncio.run(run_local(model, bot_delay=_bot_delay(args.bot_delay)))
    except ImportError as error:
        message = _("spades: the server is not available here ({error})")
        print(message.format(error=error), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def normalise_url(url: str) -> str:
    """``host:port`` or ``host`` means ``ws://host:port/``."""
    if "://" in url:
        return url
    host = url.rstrip("/")
    if ":" not in host and "/" not in host:
        host += ":8765"
    return f"ws://{host}" + ("" if "/" in host else "/")


def run_play(args: argparse.Namespace) -> int:
    import ssl

    from client.net import ssl_context
    from client.session import run_session

    args.url = normalise_url(args.url)
    try:
        context = ssl_context(args.url, args.cafile)
    except (ValueError, OSError, ssl.SSLError) as error:
        message = _("spades: cannot use --cafile {path}: {error}")
        print(message.format(path=args.cafile, error=error), file=sys.stderr)
        return 2

    level = _level(args.bot)
    if args.join:
        intent = Intent(kind="join", code=args.join.upper(), seat=args.seat)
    elif args.watch:
        intent = Intent(kind="watch", code=args.watch.upper())
    elif args.create:
        intent = Intent(
            kind="create", preset=args.rules, private=args.private, bot=args.bot, seat=args.seat
        )
    else:
        intent = Intent(kind="lobby")
    name = args.name or _default_name()
    model = ClientModel(
        name,
        settings=_settings(args),
        intent=intent,
        bot_level=level,
        url=args.url,
        token=None if args.new_session else load_token(args.url, name),
    )
    model.lobby.form.choose_preset(args.rules)
    model.attach(on_token=lambda token: save_token(args.url, name, token))
    _quiet_logging()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run_session(args.url, model, ssl=context))
    if model.given_up:
        message = _("spades: could not connect to {url}: {error}")
        print(message.format(url=args.url, error=model.connect_error), file=sys.stderr)
        return 1
    return 0


def needs_terminal(command: str) -> str | None:
    """Why ``command`` cannot run here (no terminal on stdin or stdout), or None."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        return None
    which = "stdin" if not sys.stdin.isatty() else "stdout"
    words = _(
        "{command}: needs an interactive terminal ({stream} is not a tty); 'spades demo' and "
        "'spades replay FILE --print' work without one"
    )
    return words.format(command=f"spades{' ' + command if command else ''}", stream=which)


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    # the help and the parser's errors are already in the player's language
    install(choose(requested_language(words), load_language()))
    parser = build_parser()
    args = parser.parse_args(words)
    command = args.command
    if command in (None, "play", "replay", "analyze", "demo"):
        _settings(args)  # --ascii may turn Japanese and Greek to English
    if command is None or command == "play":
        problem = needs_terminal(command or "")
        if problem is not None:
            print(problem, file=sys.stderr)
            return 2
    if command is None:
        return run_local_game(args)
    if command == "play":
        return run_play(args)
    if command == "replay":
        from client.replay import run_replay

        return run_replay(args.record, print_only=args.print_only, ascii_only=args.ascii)
    if command == "analyze":
        from client.analyze import run_analyze

        return run_analyze(args.record, args.seat, args.level, args.ascii, args.every)
    if command == "bot":
        return run_bot(args)
    if command == "serve":
        server_cli = _server_cli()
        if server_cli is None:
            print("spades: the server package is not available", file=sys.stderr)
            return 1
        result = server_cli.run_serve(args)
        return int(result) if isinstance(result, int) else 0
    if command == "admin":
        admin_cli = _server_module("server.admin")
        if admin_cli is None:
            print("spades: the server package is not available", file=sys.stderr)
            return 1
        return int(admin_cli.run_admin(args))
    if command in ("backup", "restore"):
        backup_cli = _server_module("server.backup")
        if backup_cli is None:
            print("spades: the server package is not available", file=sys.stderr)
            return 1
        run = backup_cli.run_backup if command == "backup" else backup_cli.run_restore
        return int(run(args))
    if command == "demo":
        from client.demo import run_demo

        return run_demo(args.rules, args.level, args.seed)
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
