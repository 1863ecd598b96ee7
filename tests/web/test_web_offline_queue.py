"""The offline queue (static/offline.js, ``window.companionQueue``) in a real headless
Chromium (Debian's, never a downloaded one) against the app served on loopback:
two edits made while offline are kept on the phone, then sent in order when the
connection returns, the second rebased on the version the first produced."""

from __future__ import annotations

import re
from typing import Any

from tests.helpers import webtools
from tests.helpers.webtools import BROWSER, RECORD, LiveServer

pytestmark = BROWSER


def test_edits_made_offline_are_sent_in_order_when_back_online(
        live: LiveServer, page: Any) -> None:
    base = live.url
    page.goto(f"{base}/games/import")
    page.fill("#record", RECORD)
    page.click("button.primary.big")
    page.wait_for_url(re.compile(r".*/games/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    page.goto(f"{base}/games/{game_id}/edit")
    token = page.get_attribute('meta[name="csrf-token"]', "content")
    page.context.set_offline(True)
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
    webtools.shot(page, "offline-queued", full_page=False)
    page.context.set_offline(False)
    page.evaluate("window.companionQueue.flush()")
    page.wait_for_function("window.companionQueue.pending() === 0", timeout=10_000)
    row = live.game(game_id)
    assert row["version"] == 3
    assert str(row["record"]).endswith("# second\n")
