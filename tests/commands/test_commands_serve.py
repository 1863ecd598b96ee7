"""``companion serve``: waitress serves the app, and the phone's URL and QR code are printed."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import segno

from companion.commands.serve import local_addresses, phone_urls, terminal_qr


def test_listening_everywhere_offers_the_lan_addresses_then_loopback() -> None:
    urls = phone_urls("0.0.0.0", 5000)
    assert urls[-1] == "http://127.0.0.1:5000/"
    lan = [a for a in local_addresses() if not a.startswith("127.")]
    assert urls[:-1] == [f"http://{a}:5000/" for a in lan]


def test_a_named_host_is_the_only_url() -> None:
    assert phone_urls("192.168.1.20", 8000) == ["http://192.168.1.20:8000/"]


def test_the_terminal_qr_code_draws_the_qr_matrix() -> None:
    url = "http://192.168.1.20:5000/"
    art = terminal_qr(url).splitlines()
    matrix = [[bool(v) for v in row] for row in segno.make(url, error="m").matrix_iter(border=2)]
    assert len(art) == (len(matrix) + 1) // 2
    for i, line in enumerate(art):
        top = matrix[2 * i]
        bottom = matrix[2 * i + 1] if 2 * i + 1 < len(matrix) else [False] * len(top)
        # a dark module is blank (the terminal's dark), a light one is drawn
        assert [c in "\u2588\u2580" for c in line] == [not t for t in top]
        assert [c in "\u2588\u2584" for c in line] == [not b for b in bottom]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_answers_pages_under_waitress(tmp_path: Path) -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.strip() == f"Companion running at http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as resp:
                    assert resp.status == 200
                    assert resp.headers["Server"] == "companion"
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
