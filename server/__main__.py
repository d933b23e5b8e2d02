"""``python3 -m server [--host H] [--port P] [--db PATH] ...``: run the server."""

from __future__ import annotations

import argparse
import sys

from server.cli import add_serve_arguments, run_serve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m server", description="Run the spades server.")
    add_serve_arguments(parser)
    return run_serve(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
