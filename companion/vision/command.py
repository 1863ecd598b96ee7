"""``companion scan PHOTO [--json] [--debug DIR]`` (notation.md section 6).

Prints the record the photo shows (or, with ``--json``, the ``Scan.to_json()``
object); ``--debug DIR`` also writes annotated images there. A refused photo prints
``companion: <reason>`` on standard error and returns 1.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.vision.errors import ScanError


def run(args: argparse.Namespace) -> int:
    from companion.vision.scan import scan, scan_with_debug

    try:
        if getattr(args, "debug", None):
            result, _ = scan_with_debug(args.photo, args.debug)
        else:
            result = scan(args.photo)
    except ScanError as err:
        print(f"companion: {err}", file=sys.stderr)
        return 1
    except OSError as err:
        print(f"companion: cannot write debug images: {err.strerror or err}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        sys.stdout.write(result.record)
    return 0
