"""The ``companion`` command line, one module per command (notation.md section 6).

Representation: each command module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int`` (0 on success, 1 for a refused input with one line on standard error,
never a traceback). ``COMMANDS`` lists them in the order ``companion --help`` shows;
``companion.cli`` only builds the parser from them and dispatches. ``inputs`` reads files
and standard input with a size bound.
"""

from __future__ import annotations

from companion.commands import campaign, check, scan, score, serve

COMMANDS = (score, check, scan, campaign, serve)

__all__ = ["COMMANDS"]
