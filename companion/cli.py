"""The ``companion`` command line (notation.md section 6).

Each subcommand's work lives in its own module under ``companion.commands``
(or ``companion.vision.command``); this module only parses arguments. Every
handler returns the exit status: 0 on success, 1 for a refused input with a
one-line reason on standard error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Dorfromantik table companion: score records, scan photos, keep campaigns.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("score", help="validate and score a record (file path or - for stdin)")
    p.add_argument("record")
    p.add_argument("--json", action="store_true", help="print the sheet as JSON")
    p.add_argument("--explain", action="store_true", help="explain every number in plain words")

    p = sub.add_parser("check", help="validate a record only")
    p.add_argument("record")

    p = sub.add_parser("scan", help="read a photo of a landscape or of loose tiles")
    p.add_argument("photo")
    p.add_argument("--json", action="store_true", help="JSON with per-edge confidences")
    p.add_argument("--debug", metavar="DIR", help="write annotated images to DIR")

    p = sub.add_parser("campaign", help="replay a campaign record and print the campaign sheet")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="print the campaign sheet as JSON")

    p = sub.add_parser("serve", help="run the web app")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command in ("score", "check"):
            from companion.commands.score import run

            return run(args)
        if args.command == "scan":
            from companion.vision.command import run as run_scan

            return run_scan(args)
        if args.command == "campaign":
            from companion.commands.campaign import run as run_campaign

            return run_campaign(args)
        if args.command == "serve":
            from companion.web import create_app

            app = create_app()
            print(f"Companion running at http://{args.host}:{args.port}/", flush=True)
            app.run(host=args.host, port=args.port)
            return 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    raise AssertionError(f"unhandled command {args.command}")


def read_input(path: str) -> str:
    """Read a record from a path, or standard input for ``-``; raise ``OSError`` kindly."""
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as fh:
        return fh.read()


if __name__ == "__main__":
    raise SystemExit(main())
