"""The ``companion`` command line (notation.md section 6): parse, then dispatch.

Each command lives in its own module of ``companion.commands`` (``NAME``, ``HELP``,
``add_arguments``, ``run``); this module only builds the parser from them and calls the
chosen one's ``run``, whose return value is the exit status.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from companion.commands import COMMANDS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Dorfromantik table companion: score records, scan photos, keep campaigns.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_arguments(sub.add_parser(command.NAME, help=command.HELP))
        sub.choices[command.NAME].set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status: int = args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    raise SystemExit(main())
