"""``companion scan PHOTO [--json] [--debug DIR]``: read a photo of a landscape.

Prints the record the photo shows (or, with ``--json``, the ``Scan.to_json()`` object of
notation.md section 6); ``--debug DIR`` also writes annotated images there. The photo is
read with a size bound (``PHOTO_LIMIT``) before it is decoded. A refused photo prints
``companion: <reason>`` on standard error and returns 1.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.commands.console import InputError, read_bytes, refuse

NAME = "scan"
HELP = "read a photo of a landscape or of loose tiles"
PHOTO_LIMIT = 64 * 1024 * 1024
"""Largest photo file read (a 12 MP phone JPEG is 3-8 MB; the scanner has its own bound)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo")
    parser.add_argument("--json", action="store_true", help="JSON with per-edge confidences")
    parser.add_argument("--debug", metavar="DIR", help="write annotated images to DIR")


def run(args: argparse.Namespace) -> int:
    from companion.vision import ScanError, scan
    from companion.vision.scan import scan_with_debug

    try:
        photo = read_bytes(args.photo, PHOTO_LIMIT)
        if args.debug:
            result, _ = scan_with_debug(photo, args.debug)
        else:
            result = scan(photo)
    except (InputError, ScanError) as err:
        return refuse(f"companion: {err}")
    except OSError as err:
        return refuse(f"companion: cannot write debug images: {err.strerror or err}")
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        sys.stdout.write(result.record)
    return 0
