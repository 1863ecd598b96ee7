"""The 199-byte zip listing 1500 games: refused at import with the limit named; a campaign
at the limit imports and its pages still answer at once (bounded here, timed in bench/)."""

from __future__ import annotations

import io
import time
import zipfile

from flask import Flask

from companion.storage.limits import GAMES_PER_CAMPAIGN
from tests.helpers.webtools import browser


def _archive(games: int) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("campaign.txt", "campaign: big\n" + "game: 120\n" * games)
    return buf.getvalue()


def test_an_archive_of_1500_games_is_refused(app: Flask) -> None:
    c, tok = browser(app, "/campaigns")
    blob = _archive(1500)
    assert len(blob) < 400
    r = c.post("/campaigns/import", data={"csrf_token": tok, "file": (io.BytesIO(blob), "c.zip")},
               content_type="multipart/form-data")
    assert r.status_code == 400
    assert f"at most {GAMES_PER_CAMPAIGN}" in r.get_data(as_text=True)


def test_a_campaign_at_the_limit_imports_and_its_pages_answer(app: Flask) -> None:
    c, tok = browser(app, "/campaigns")
    r = c.post("/campaigns/import", data={"csrf_token": tok, "file": (
        io.BytesIO(_archive(GAMES_PER_CAMPAIGN)), "c.zip")}, content_type="multipart/form-data")
    assert r.status_code == 303, r.get_data(as_text=True)[:300]
    for url in (r.headers["Location"], r.headers["Location"] + "/history", "/campaigns"):
        started = time.perf_counter()
        assert c.get(url).status_code == 200
        assert time.perf_counter() - started < 10  # was 7.5 s a visit at 1500 games


def test_api_campaign_with_twenty_thousand_games_answers_in_linear_time(app: Flask) -> None:
    text = "campaign: x\n" + "game: 120\n" * 20_000  # 200 KB: under the 512 KB cap
    started = time.perf_counter()
    r = app.test_client().post("/api/campaign", data=text.encode(),
                               headers={"Content-Type": "text/plain"})
    assert r.status_code == 200 and len(r.get_json()["games"]) == 20_000
    assert time.perf_counter() - started < 10  # was 40 s and 2 GB at 3000 games
