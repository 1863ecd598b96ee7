"""The offline queue (static/offline.js, ``window.companionQueue``) in a real headless
Chromium (Debian's, never a downloaded one) against the app served on loopback:
two edits made while offline are kept on the phone, then sent in order when the
connection returns, the second rebased on the version the first produced."""

from __future__ import annotations

import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.serving import make_server

from companion.web import create_app, repo

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
RECORD = (Path(__file__).parents[1] / "data" / "bg_flags_closed_open.dorf").read_text()

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium not installed"),
]


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[Flask, str]]:
    app = create_app({"DATABASE": str(tmp_path / "db.sqlite"), "SECRET_KEY": "offline"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)


def test_edits_made_offline_are_sent_in_order_when_back_online(
        served: tuple[Flask, str], tmp_path: Path) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    app, base = served
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 390, "height": 844},
                                      service_workers="block")
        page = context.new_page()
        page.goto(f"{base}/games/import")
        page.fill("#record", RECORD)
        page.click("button.primary.big")
        page.wait_for_url(re.compile(r".*/games/\d+$"))
        game_id = int(page.url.rsplit("/", 1)[1])
        page.goto(f"{base}/games/{game_id}/edit")
        token = page.get_attribute('meta[name="csrf-token"]', "content")
        context.set_offline(True)
        statuses = []
        for note in ("# first\n", "# second\n"):
            statuses.append(page.evaluate(
                """([action, token, text]) => window.companionQueue.submit({action, method: 'POST',
                     fields: [['csrf_token', token], ['version', '1'], ['record', text]]})
                   .then(r => r.status)""",
                [f"/games/{game_id}/edit", token, RECORD + note]))
        assert statuses == ["queued", "queued"]
        assert page.evaluate("window.companionQueue.pending()") == 2
        assert page.is_visible("#queue-status")
        page.screenshot(path=str(tmp_path / "offline-queued.png"))
        context.set_offline(False)
        page.evaluate("window.companionQueue.flush()")
        page.wait_for_function("window.companionQueue.pending() === 0", timeout=10_000)
        browser.close()
    with app.app_context():
        row = repo.get_game(repo.get_db(), game_id)
    assert row["version"] == 3
    assert str(row["record"]).endswith("# second\n")
