"""Load benchmark: 50 simulated tables recording placements on a real server.

Usage: python bench/load_tables.py [--tables 50] [--duration 120] [--threads 8]
                                   [--think-min 1] [--think-max 3] [--ramp 10] [--port 0]

Starts ``bench/load_server.py`` (waitress, fresh SQLite database, CSRF on) in a
separate process on 127.0.0.1 and drives it with locust used as a library
(one locust user per table, in this process). Each table starts a board game
through the real "new game" form, then records it the way the phone does with
htmx: choose a catalogue tile (the page answers which hexes fit), tap a legal
hex (the page answers the rotations), place it; every 8th placement is undone
and redone. Between two taps a table waits ``think`` seconds (uniform, default
1-3 s: players tapping briskly, so a tile every 3-9 s per table, far faster than
a real game). After 45 tiles a table starts a new game. The tables arrive over
``--ramp`` seconds; statistics are reset once all are in, then ``--duration``
seconds are measured.

With ``--scans N`` (and ``--photo PATH``, default the 12 MP sample photo), N more
clients post that photo to ``/api/scan`` again and again while the tables play: each scan
must either succeed (200) or get the busy answer (503 with ``Retry-After``), and the
tables' p95 must stay under 150 ms.

Prints requests/s, failures and latency percentiles overall and per step;
asserts nothing (the target is p95 < 150 ms on the 2-core machine).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import gevent  # type: ignore[import-untyped]
from locust import HttpUser, between, task
from locust.env import Environment
from locust.stats import StatsEntry

ROOT = Path(__file__).resolve().parents[1]
HX = {"HX-Request": "true"}
LEGAL = re.compile(r'<a class="slot legal[^"]*"[^>]*data-q="(-?\d+)" data-r="(-?\d+)"')
CODE = re.compile(r'name="code" value="([A-Z]{6})"')
VERSION = re.compile(r'data-version="(\d+)"')
CSRF = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
GAME = re.compile(r'data-game="(\d+)"')
TILES_PER_GAME = 45


def landscape_codes() -> list[str]:
    from companion.rules import catalogue

    return [t.code for t in catalogue() if t.section == "landscape"]


class Table(HttpUser):
    """One table: a phone recording one game after another."""

    wait_time = between(1, 3)
    codes = landscape_codes()

    def on_start(self) -> None:
        self.rng = random.Random(id(self))
        self.new_game()

    def new_game(self) -> None:
        page = self.client.get("/games/new", name="new game form")
        found = CSRF.search(page.text)
        self.csrf = found.group(1) if found else ""
        r = self.client.post("/games/new", name="new game",
                             data={"kind": "board-game", "players": "Ana, Rui",
                                   "csrf_token": self.csrf})
        game = GAME.search(r.text)
        version = VERSION.search(r.text)
        if game is None or version is None:
            raise RuntimeError(f"new game failed: {r.status_code}")
        self.game, self.version, self.placed = int(game.group(1)), int(version.group(1)), 0

    def fragment(self, query: str, name: str) -> str:
        r = self.client.get(f"/play/{self.game}?{query}", headers=HX, name=name)
        found = VERSION.search(r.text)
        if found:
            self.version = int(found.group(1))
        return r.text

    def post(self, action: str, name: str, **fields: str) -> bool:
        data = {"csrf_token": self.csrf, "version": str(self.version), **fields}
        with self.client.post(f"/play/{self.game}/{action}", data=data, headers=HX,
                              name=name, catch_response=True) as r:
            found = VERSION.search(r.text)
            if found:
                self.version = int(found.group(1))
            if r.status_code != 200:
                r.failure(f"{action}: status {r.status_code}")
                return False
            r.success()
            return True

    @task
    def record_one_tile(self) -> None:
        if self.placed >= TILES_PER_GAME:
            self.new_game()
        code = self.rng.choice(self.codes)
        html = self.fragment(f"tile={code}", "choose tile")
        hexes = LEGAL.findall(html)
        if not hexes:
            return
        q, r = self.rng.choice(hexes)
        self.wait()
        html = self.fragment(f"tile={code}&at={q},{r}", "choose hex")
        rotated = CODE.search(html)
        if rotated is None:
            return
        self.wait()
        if self.post("place", "place", q=q, r=r, code=rotated.group(1), tile=code):
            self.placed += 1
        if self.placed % 8 == 0:
            self.wait()
            self.post("undo", "undo")
            self.wait()
            self.post("redo", "redo")


class Scanner(HttpUser):
    """One phone photographing the table, again and again (``--scans`` of them at once)."""

    wait_time = between(0.5, 1.0)
    photo = b""
    outcomes: dict[str, int] = {}

    @task
    def scan(self) -> None:
        with self.client.post("/api/scan", files={"photo": ("table.jpg", self.photo)},
                              name="scan", catch_response=True) as r:
            if r.status_code == 200:
                key = "scanned"
            elif r.status_code == 503 and r.headers.get("Retry-After"):
                key = "busy (503 + Retry-After)"
            else:
                key = f"other {r.status_code}: {r.text[:80]}"
                r.failure(key)
            if key == "scanned" or key.startswith("busy"):
                r.success()
            Scanner.outcomes[key] = Scanner.outcomes.get(key, 0) + 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not start on port {port}")


def report(env: Environment, seconds: float, args: argparse.Namespace) -> None:
    total = env.stats.total
    print(f"\n{args.tables} tables, {seconds:.0f} s, think {args.think_min}-{args.think_max} s, "
          f"waitress {args.threads} threads, {os.cpu_count()} CPUs, "
          f"load average before {args.load_before}")
    print(f"{'step':<16}{'requests':>9}{'fail':>6}{'req/s':>8}{'p50':>7}{'p95':>7}{'p99':>7}"
          f"{'max':>7}  (ms)")
    rows = sorted((s for s in env.stats.entries.values() if s.num_requests),
                  key=lambda s: s.name)
    for s in [*rows, total]:
        name = "ALL" if s is total else s.name
        print(f"{name:<16}{s.num_requests:>9}{s.num_failures:>6}"
              f"{s.num_requests / seconds:>8.1f}"
              f"{s.get_response_time_percentile(0.5):>7.0f}"
              f"{s.get_response_time_percentile(0.95):>7.0f}"
              f"{s.get_response_time_percentile(0.99):>7.0f}{s.max_response_time:>7.0f}")
    tables = StatsEntry(env.stats, "tables", "")
    for s in rows:
        if s.name != "scan":
            tables.extend(s)
    p95 = tables.get_response_time_percentile(0.95)
    print(f"\ntables: requests/s {tables.num_requests / seconds:.1f}   p95 {p95:.0f} ms   "
          f"failures {tables.num_failures}   target p95 < 150 ms: "
          f"{'met' if p95 < 150 else 'NOT met'}")
    if args.scans:
        print(f"scans ({args.scans} clients): " + ", ".join(
            f"{k} x{v}" for k, v in sorted(Scanner.outcomes.items())))
    for err in env.stats.errors.values():
        print(f"error x{err.occurrences}: {err.method} {err.name}: {err.error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--duration", type=float, default=120.0, help="seconds (default 120)")
    parser.add_argument("--threads", type=int, default=8, help="waitress worker threads")
    parser.add_argument("--think-min", type=float, default=1.0)
    parser.add_argument("--think-max", type=float, default=3.0)
    parser.add_argument("--ramp", type=float, default=10.0,
                        help="seconds over which the tables arrive (not measured)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--scans", type=int, default=0,
                        help="clients posting a photo to /api/scan meanwhile")
    parser.add_argument("--photo", default=str(ROOT / "sample_photos" /
                                               "wood-12mp-tilted-25.jpg"))
    args = parser.parse_args()
    args.load_before = " ".join(f"{x:.2f}" for x in os.getloadavg())
    port = args.port or free_port()
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "load_server.py"), str(port),
         "--threads", str(args.threads)], cwd=ROOT)
    try:
        wait_for(port)
        Table.host = f"http://127.0.0.1:{port}"
        Table.wait_time = between(args.think_min, args.think_max)
        classes: list[type[HttpUser]] = [Table]
        if args.scans:
            Scanner.host, Scanner.fixed_count = Table.host, args.scans
            Scanner.photo = Path(args.photo).read_bytes()
            classes.append(Scanner)
        env = Environment(user_classes=classes)
        runner = env.create_local_runner()
        users = args.tables + args.scans
        runner.start(users, spawn_rate=users / max(args.ramp, 0.1))
        gevent.sleep(args.ramp + 2)  # tables arrive over the ramp, then measure
        env.stats.reset_all()
        Scanner.outcomes.clear()
        started = time.monotonic()
        gevent.sleep(args.duration)
        runner.quit()
        report(env, time.monotonic() - started, args)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
