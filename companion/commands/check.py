"""``companion check RECORD``: validate a record only.

Prints ``ok`` (and each warning as ``warning: ...`` on standard error) and exits 0, or
exits 1 with one line ``line N: reason`` on standard error (notation.md section 5).
"""

from __future__ import annotations

import argparse
import sys

from companion.commands.console import InputError, read_text, refuse
from companion.rules import RulesError, parse_record, replay

NAME = "check"
HELP = "validate a record only"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record")


def run(args: argparse.Namespace) -> int:
    try:
        game = replay(parse_record(read_text(args.record)))
    except InputError as err:
        return refuse(f"companion: {err}")
    except RulesError as err:
        return refuse(str(err))
    for w in game.warnings:
        print(f"warning: {w}", file=sys.stderr)
    print("ok")
    return 0
