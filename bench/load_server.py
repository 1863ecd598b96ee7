"""The web app served for the load benchmark: waitress on loopback, a fresh database.

Usage: python bench/load_server.py PORT [--threads N] [--db PATH]

Runs ``companion.web.create_app`` (CSRF on, like production) with its database in
a temporary folder (or ``--db``) under waitress, until terminated. Started and
stopped by ``bench/load_tables.py``.
"""

from __future__ import annotations

import argparse
import logging
import tempfile
from pathlib import Path

from waitress import serve  # type: ignore[import-untyped]

from companion.web import create_app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("port", type=int)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="companion-load-"))
    db = args.db or str(folder / "load.sqlite")
    app = create_app({"DATABASE": db, "SECRET_KEY": "load-benchmark"})
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    serve(app, host="127.0.0.1", port=args.port, threads=args.threads,
          connection_limit=400, channel_timeout=60, ident="companion")


if __name__ == "__main__":
    main()
