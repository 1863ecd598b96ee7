"""Campaign pages through the test client: every route plain and with ``HX-Request``,
spending by circles (legal only, stale -> 409, undo until confirmed), unlock moments,
achievements and the Great Mill proposal, the next game's ``unlocked:`` header and set-up
reminders, history numbers, share links, export/import round trip, CSRF."""

from __future__ import annotations

import argparse
import io
import json
import re
import threading
import zipfile
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.commands import campaign as campaign_cli
from companion.rules import (
    PATHS,
    TOTAL_CIRCLES,
    campaign_stats,
    load_campaign,
    parse_record,
    setup_reminders,
    unlocked_header,
)
from companion.storage import campaigns as storage
from companion.storage.games import get_game
from companion.web.db import get_db
from tests.helpers.webtools import HX, csrf_token

MILL = "game: board-game\n0 0 GGGGGG task=grain/4 mill\n" + "".join(
    f"{q} {r} GGGGGG\n" for q, r in [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)])
SMALL = "game: board-game\n0 0 GGGGGG task=grain/4\n0 -1 MMMGMM\n"


class Browser:
    """A test client with its own cookie identity that sends its CSRF token."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.c: FlaskClient = app.test_client()
        self.token = csrf_token(self.c, "/campaigns")

    def get(self, url: str, htmx: bool = False) -> Any:
        return self.c.get(url, headers=HX if htmx else {})

    def post(self, url: str, htmx: bool = False, **data: Any) -> Any:
        return self.send(url, data, htmx)

    def send(self, url: str, data: dict[str, Any], htmx: bool = False) -> Any:
        return self.c.post(url, data={"csrf_token": self.token, **data},
                           headers=HX if htmx else {})

    def new_campaign(self, name: str = "Sunday", players: str = "Ana, Rui") -> int:
        r = self.post("/campaigns", name=name, players=players)
        assert r.status_code == 303, r.data
        found = re.search(r"/campaigns/(\d+)$", r.headers["Location"])
        assert found
        return int(found.group(1))


def version(app: Flask, cid: int) -> int:
    with app.app_context():
        return int(storage.get_campaign(get_db(), cid)["version"])


def state(app: Flask, cid: int) -> Any:
    with app.app_context():
        return storage.load_state(get_db(), cid)


def add_score(b: Browser, cid: int, score: int) -> None:
    r = b.post(f"/campaigns/{cid}/score", score=str(score), version=version(b.app, cid))
    assert r.status_code == 303, r.data


def cross(b: Browser, cid: int, path: str, from_hex: str, htmx: bool = False,
          ver: int | None = None) -> Any:
    st = state(b.app, cid)
    circle = next((c.circle for c in st.legal_spends()
                   if c.path == path and c.from_hex == from_hex), 0)
    return b.send(f"/campaigns/{cid}/cross", {
        "path": path, "from": from_hex, "circle": str(circle),
        "version": str(ver if ver is not None else version(b.app, cid))}, htmx)


@pytest.fixture()
def b(app: Flask) -> Browser:
    return Browser(app)


# ---------------------------------------------------------------- pages, plain and htmx
def test_every_page_plain_is_a_full_page_and_htmx_a_fragment(b: Browser) -> None:
    cid = b.new_campaign()
    add_score(b, cid, 140)
    r = b.post(f"/campaigns/{cid}/games/new")
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    for url in ("/campaigns", f"/campaigns/{cid}", f"/campaigns/{cid}/history",
                f"/campaigns/{cid}/games/{gid}"):
        full = b.get(url)
        frag = b.get(url, htmx=True)
        assert full.status_code == frag.status_code == 200, url
        assert "<html" in full.get_data(as_text=True)
        assert "<html" not in frag.get_data(as_text=True)
        assert "HX-Request" in full.headers["Vary"] and "HX-Request" in frag.headers["Vary"]
        assert "campaign.css" in full.get_data(as_text=True)


def test_track_drawn_like_the_pad(b: Browser) -> None:
    cid = b.new_campaign()
    html = b.get(f"/campaigns/{cid}").get_data(as_text=True)
    track = html[html.index("<svg class=\"track\""):html.index("</svg>", html.index("data-track"))]
    assert track.count('<circle class="c') == TOTAL_CIRCLES == 123
    for p in PATHS:
        assert track.count(f'data-path="{p.id}"') == p.circles
    assert len(re.findall(r'<circle class="c[^"]* heart', track)) == 3
    assert len(re.findall(r'<g class="hex ', track)) == 15
    for name in ("Start", "Warehouse", "Circus", "Signalman", "Deer", "Shepherdess", "Castle",
                 "Hill", "Farm", "Clouds"):
        assert f">{name}<" in track
    start = re.search(r'<g class="hex kind-start[^"]*"', track)
    assert start is not None and "reached" in start.group(0)
    assert "cross-link" not in track  # no game yet: nothing to spend


def test_circle_links_lead_to_their_buttons_without_javascript(b: Browser) -> None:
    cid = b.new_campaign()
    add_score(b, cid, 290)
    for path, frm in [("start-box1", "start")] * 2 + [("box1-box2", "box1")] * 5:
        cross(b, cid, path, frm)
    html = b.get(f"/campaigns/{cid}").get_data(as_text=True)
    anchors = re.findall(r'<a class="cross-link" href="#([^"]+)" data-cross="([^"]+)"', html)
    assert sorted(a for a, _ in anchors) == ["cross-box2-circus-box2",
                                            "cross-box2-warehouse-box2"]
    for anchor, target in anchors:
        assert anchor == target
        form = re.search(rf'<form id="{anchor}" class="cross-form"[^>]*>(.*?)</form>', html,
                         re.S)
        assert form is not None and 'name="version"' in form.group(1)


def test_spending_by_circles_and_box1_unlock_moment(app: Flask, b: Browser) -> None:
    cid = b.new_campaign()
    add_score(b, cid, 140)  # Actress: 4 crosses
    page = b.get(f"/campaigns/{cid}").get_data(as_text=True)
    assert 'data-cross="cross-start-box1-start"' in page
    assert page.count("data-cross=") == len(state(app, cid).legal_spends()) == 1
    r = cross(b, cid, "start-box1", "start")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/campaigns/{cid}")
    r = cross(b, cid, "start-box1", "start", htmx=True)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    content = state(app, cid).content
    assert 'class="moment kind-box fresh"' in html and "Open Box 1" in html
    assert content.boxes["box1"].contents not in html and "PLACEHOLDER" not in html
    assert "The card in Box 1 tells you what this brings" in html
    assert "the task tiles of Box 1" in html and "box-1-task" not in html
    assert re.search(r'<g class="hex kind-box reached" data-hex="box1"', html)
    assert len(re.findall(r'<circle class="c crossed[^>]*data-path=', html)) == 2
    assert state(app, cid).reached == ["box1"]
    # the plain redirect names what was just unlocked
    r = cross(b, cid, "box1-box2", "box1")
    assert r.headers["Location"].endswith(f"/campaigns/{cid}")
    assert "2 changes not confirmed" not in b.get(f"/campaigns/{cid}").get_data(as_text=True)


def test_stale_spend_is_409_with_the_current_sheet(app: Flask, b: Browser) -> None:
    cid = b.new_campaign()
    add_score(b, cid, 140)
    old = version(app, cid)
    assert cross(b, cid, "start-box1", "start", ver=old).status_code == 303
    for htmx in (False, True):
        r = cross(b, cid, "start-box1", "start", htmx=htmx, ver=old)
        assert r.status_code == 409
        html = r.get_data(as_text=True)
        assert f'data-version="{version(app, cid)}"' in html
        assert "changed this campaign" in html
    assert state(app, cid).crosses_spent == 1


def test_illegal_circle_refused_and_nothing_changes(app: Flask, b: Browser) -> None:
    cid = b.new_campaign()
    before = version(app, cid)
    r = b.send(f"/campaigns/{cid}/cross", {"path": "start-box1", "circle": "0",
                                           "version": before, "from": "start"})
    assert r.status_code == 422  # no game yet: no cross
    add_score(b, cid, 140)
    v = version(app, cid)
    for path, frm, circle in (("box2-circus", "box2", "0"), ("start-box1", "start", "1"),
                              ("nowhere", "start", "0"), ("start-box1", "box1", "1")):
        r = b.send(f"/campaigns/{cid}/cross", {"path": path, "circle": circle, "version": v,
                                               "from": frm}, htmx=True)
        assert r.status_code == 422, (path, frm, circle)
        assert "Not done" in r.get_data(as_text=True)
    assert version(app, cid) == v and state(app, cid).crosses_spent == 0
    assert b.post(f"/campaigns/{cid}/cross", path="start-box1").status_code == 400


def test_undo_until_confirmed_and_pending_survives_reload(app: Flask, b: Browser) -> None:
    cid = b.new_campaign()
    add_score(b, cid, 140)
    cross(b, cid, "start-box1", "start")
    cross(b, cid, "start-box1", "start")
    page = b.get(f"/campaigns/{cid}").get_data(as_text=True)  # a reload
    assert "2 changes not confirmed" in page and ">Undo<" in page
    r = b.post(f"/campaigns/{cid}/undo", htmx=True, version=version(app, cid))
    assert r.status_code == 200 and state(app, cid).crosses_spent == 1
    assert state(app, cid).reached == []
    r = b.post(f"/campaigns/{cid}/confirm", version=version(app, cid))
    assert r.status_code == 303
    assert ">Undo<" not in b.get(f"/campaigns/{cid}").get_data(as_text=True)
    r = b.post(f"/campaigns/{cid}/undo", version=version(app, cid))
    assert r.status_code == 422 and state(app, cid).crosses_spent == 1
    assert b.post(f"/campaigns/{cid}/confirm", version="1").status_code == 409


def test_achievement_ticked_by_hand_and_great_mill_proposed(app: Flask, b: Browser) -> None:
    cid = b.new_campaign()
    r = b.post(f"/campaigns/{cid}/upload", record=MILL, version=version(app, cid))
    assert r.status_code == 303, r.data
    page = b.get(f"/campaigns/{cid}").get_data(as_text=True)
    assert "Great Mill met in game 1" in page
    r = b.post(f"/campaigns/{cid}/achieve", htmx=True, achievement="great-mill",
               version=version(app, cid))
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "Great Mill met" not in html and 'data-unlock="great-mill"' in html
    assert state(app, cid).achieved == ["great-mill"]
    r = b.post(f"/campaigns/{cid}/achieve", achievement="construction-site",
               version=version(app, cid))
    assert r.status_code == 303
    html = b.get(f"/campaigns/{cid}").get_data(as_text=True)
    assert "New score row: Construction Site" in html
    r = b.post(f"/campaigns/{cid}/achieve", achievement="circus", version=version(app, cid))
    assert r.status_code == 422  # a track hex is reached, not ticked


def test_no_mill_proposal_when_the_record_does_not_meet_it(app: Flask, b: Browser) -> None:
    cid = b.new_campaign()
    assert b.post(f"/campaigns/{cid}/upload", record=SMALL,
                  version=version(app, cid)).status_code == 303
    assert "Great Mill met" not in b.get(f"/campaigns/{cid}").get_data(as_text=True)
    r = b.post(f"/campaigns/{cid}/upload", record="game: duel\nplayer: a\nplayer: b\n",
               version=version(app, cid))
    assert r.status_code == 400
    r = b.post(f"/campaigns/{cid}/upload", record="game: board-game\n0 0 QQ\n",
               version=version(app, cid))
    assert r.status_code == 400 and "line 2" in r.get_data(as_text=True)


def test_next_game_has_the_unlocked_header_and_reminders(app: Flask, b: Browser) -> None:
    cid = b.new_campaign()
    add_score(b, cid, 290)  # Diplomat: 12 crosses
    for path, frm in [("start-box1", "start")] * 2 + [("box1-box2", "box1")] * 5 + [
            ("box2-circus", "box2")] * 4:
        assert cross(b, cid, path, frm).status_code == 303
    st = state(app, cid)
    assert "circus" in st.reached
    r = b.post(f"/campaigns/{cid}/games/new", htmx=True)
    assert r.status_code == 204
    target = r.headers["HX-Redirect"]
    gid = int(target.rsplit("/", 1)[1])
    with app.app_context():
        record = get_game(get_db(), gid)["record"]
    assert f"unlocked: {unlocked_header(st)}" in record
    assert parse_record(record).players == ["Ana", "Rui"]
    html = b.get(target).get_data(as_text=True)
    assert "unlocked: " not in html and "box-1-task" not in html
    assert "Box 1, Box 2, Circus" in html
    for line in setup_reminders(st):
        label, _, _value = line.partition(": ")
        assert f"<strong>{label}:</strong> " in html
    # the recorder of that game opens for this browser (granted through the campaign)
    r = b.get(f"/campaigns/{cid}/games/{gid}/open")
    assert r.status_code == 303
    assert b.get(r.headers["Location"]).status_code == 200


def test_finish_a_campaign_game_typed_or_scored(app: Flask, b: Browser) -> None:
    cid = b.new_campaign()
    gid = int(b.post(f"/campaigns/{cid}/games/new").headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        gv = get_game(get_db(), gid)["version"]
    r = b.post(f"/campaigns/{cid}/games/{gid}/finish", score="123", version=gv)
    assert r.status_code == 303
    st = state(app, cid)
    assert [g.score for g in st.games] == [123] and st.games[0].title == "Coachman"
    r = b.get(f"/campaigns/{cid}/games/{gid}")  # finished: its sheet
    assert r.status_code == 303 and r.headers["Location"] == f"/games/{gid}"
    add_score(b, cid, 77)
    with app.app_context():
        paper = storage.finished_games(get_db(), cid)[1]["id"]
    r = b.get(f"/campaigns/{cid}/games/{paper}/open")  # a total without a record
    assert r.headers["Location"] == f"/campaigns/{cid}/history"
    gid2 = int(b.post(f"/campaigns/{cid}/games/new").headers["Location"].rsplit("/", 1)[1])
    r = b.post(f"/campaigns/{cid}/games/{gid2}/finish", htmx=True, score="", version="1")
    assert r.status_code == 400  # the bare header cannot be scored: type the total
    assert b.post(f"/campaigns/{cid}/games/{gid2}/finish", score="x",
                  version="1").status_code == 400
    assert b.post(f"/campaigns/{cid}/games/{gid2}/finish", score="130",
                  version="7").status_code == 409


def test_history_numbers_and_chart(app: Flask, b: Browser) -> None:
    cid = b.new_campaign()
    for score in (78, 152, 131):
        add_score(b, cid, score)
    stats = campaign_stats(state(app, cid))
    for htmx in (False, True):
        html = b.get(f"/campaigns/{cid}/history", htmx=htmx).get_data(as_text=True)
        assert html.count('<g class="bar') == 3
        assert html.count('<g class="bar best"') == 1
        assert f"<strong data-best>{stats['best']['score']}</strong>" in html
        assert f"<strong data-average>{stats['average']}</strong>" in html
        for g in stats["games"]:
            assert g["title"] in html
        assert 'class="average"' in html


def test_list_share_links_and_strangers(app: Flask, b: Browser) -> None:
    cid = b.new_campaign("Lakeside")
    cid2 = b.new_campaign("Friday")
    listing = b.get("/campaigns").get_data(as_text=True)
    assert "Lakeside" in listing and "Friday" in listing
    stranger = Browser(app)
    assert "Lakeside" not in stranger.get("/campaigns").get_data(as_text=True)
    assert stranger.get(f"/campaigns/{cid}").status_code == 404  # as if missing
    assert stranger.get(f"/campaigns/{cid}.zip").status_code == 404
    add_score(b, cid, 140)
    assert stranger.post(f"/campaigns/{cid}/score", score="100",
                         version=version(app, cid)).status_code == 404
    page = b.get(f"/campaigns/{cid}").get_data(as_text=True)
    view, edit = re.findall(r'class="share-link" readonly value="http://[^/]+(/c/[^"]+)"', page)
    viewer = Browser(app)
    assert viewer.get(view).status_code == 303
    assert viewer.get(f"/campaigns/{cid}").status_code == 200
    assert "cross-link" not in viewer.get(f"/campaigns/{cid}").get_data(as_text=True)
    assert cross(viewer, cid, "start-box1", "start").status_code == 403
    assert viewer.get(f"/campaigns/{cid2}").status_code == 404
    editor = Browser(app)
    editor.get(edit)
    assert cross(editor, cid, "start-box1", "start").status_code == 303
    assert "Lakeside" in editor.get("/campaigns").get_data(as_text=True)
    assert b.get("/c/not-a-token").status_code == 404
    assert b.get("/campaigns/999").status_code == 404


def test_csrf_required_on_every_form(app: Flask, b: Browser) -> None:
    cid = b.new_campaign()
    v = version(app, cid)
    for url in (f"/campaigns/{cid}/score", f"/campaigns/{cid}/cross", f"/campaigns/{cid}/undo",
                f"/campaigns/{cid}/confirm", f"/campaigns/{cid}/achieve",
                f"/campaigns/{cid}/games/new", "/campaigns"):
        r = b.c.post(url, data={"version": v, "score": "100", "name": "x"})
        assert r.status_code == 400, url
    assert version(app, cid) == v


def test_new_campaign_validation(b: Browser) -> None:
    r = b.post("/campaigns", name="a#b", players="")
    assert r.status_code == 400 and "error" in r.get_data(as_text=True)
    r = b.post("/campaigns", htmx=True, name="ok", players="Ana, Ana")
    assert r.status_code == 400
    r = b.post("/campaigns", htmx=True, name="", players="")
    assert r.status_code == 204 and r.headers["HX-Redirect"].startswith("/campaigns/")


def test_export_import_round_trip_through_the_routes(app: Flask, b: Browser) -> None:
    cid = b.new_campaign("Round trip", "Ana, Rui")
    add_score(b, cid, 140)
    cross(b, cid, "start-box1", "start")
    cross(b, cid, "start-box1", "start")
    b.post(f"/campaigns/{cid}/upload", record=MILL, version=version(app, cid))
    b.post(f"/campaigns/{cid}/achieve", achievement="great-mill", version=version(app, cid))
    r = b.get(f"/campaigns/{cid}.zip")
    assert r.status_code == 200 and r.mimetype == "application/zip"
    with zipfile.ZipFile(io.BytesIO(r.data)) as zf:
        assert "campaign.txt" in zf.namelist() and "games/002.dorf" in zf.namelist()
    text = b.get(f"/campaigns/{cid}.txt").get_data(as_text=True)
    other = Browser(app)
    r = other.c.post("/campaigns/import", data={
        "csrf_token": other.token, "file": (io.BytesIO(r.data), "campaign.zip")},
        content_type="multipart/form-data")
    assert r.status_code == 303, r.data
    new_id = int(r.headers["Location"].rsplit("/", 1)[1])
    assert new_id != cid
    assert other.get(f"/campaigns/{new_id}.txt").get_data(as_text=True) == text
    assert load_campaign(text).to_json() == state(app, new_id).to_json()
    assert other.get(f"/campaigns/{new_id}").status_code == 200
    r = other.c.post("/campaigns/import", data={
        "csrf_token": other.token, "file": (io.BytesIO(b"not a zip"), "x.zip")},
        content_type="multipart/form-data")
    assert r.status_code == 400 and "not a zip file" in r.get_data(as_text=True)


def test_api_campaign_good_and_bad(b: Browser, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    text = "campaign: Sunday\ngame: 140\nspend: start-box1 2, box1-box2 2\n"
    r = b.c.post("/api/campaign", data=text, content_type="text/plain")  # no CSRF token
    assert r.status_code == 200
    (tmp_path / "c.txt").write_text(text)
    assert campaign_cli.run(argparse.Namespace(file=str(tmp_path / "c.txt"), json=True)) == 0
    assert r.get_json() == json.loads(capsys.readouterr().out)  # = companion campaign --json
    assert r.get_json()["reached"] == ["box1"]
    r = b.c.post("/api/campaign", data="game: 140\nspend: start-box1 9\n",
                 content_type="text/plain")
    assert r.status_code == 400
    assert r.get_json()["error"].startswith("line 2: ")
    assert r.get_json()["line"] == 2


@pytest.mark.parametrize("lang", ["en", "pt_BR", "es", "de"])
def test_pages_in_every_language(app: Flask, lang: str) -> None:
    b = Browser(app)
    b.c.set_cookie("lang", lang)
    cid = b.new_campaign()
    add_score(b, cid, 140)
    cross(b, cid, "start-box1", "start")
    cross(b, cid, "start-box1", "start")
    for url in ("/campaigns", f"/campaigns/{cid}", f"/campaigns/{cid}/history"):
        r = b.get(url)
        assert r.status_code == 200
        assert f'lang="{lang.replace("_", "-")}"' in r.get_data(as_text=True)
    html = b.get(f"/campaigns/{cid}").get_data(as_text=True)
    expected = {"en": "Spend the crosses", "de": "Kreuze", "es": "cruces", "pt_BR": "cruzes"}
    assert expected[lang].lower() in html.lower()


@pytest.mark.parametrize("htmx", [False, True])
def test_every_write_route_plain_and_htmx(app: Flask, htmx: bool) -> None:
    """Plain forms get POST-redirect-GET (303); htmx gets the new sheet (200) or, when the
    page changes, an empty 204 with ``HX-Redirect``."""
    b = Browser(app)
    r = b.post("/campaigns", htmx=htmx, name="Routes", players="Ana")
    assert r.status_code == (204 if htmx else 303)
    cid = int((r.headers.get("HX-Redirect") or r.headers["Location"]).rsplit("/", 1)[1])

    def ok(r: Any) -> None:
        assert r.status_code == (200 if htmx else 303), r.data
        if htmx:
            html = r.get_data(as_text=True)
            assert 'id="campaign"' in html and "<html" not in html
            assert r.headers["HX-Replace-Url"] == f"/campaigns/{cid}"
            assert r.headers["X-Campaign-Version"] == str(version(app, cid))
        else:
            assert r.headers["Location"].startswith(f"/campaigns/{cid}")

    ok(b.post(f"/campaigns/{cid}/score", htmx=htmx, score="140", version=version(app, cid)))
    ok(b.post(f"/campaigns/{cid}/upload", htmx=htmx, record=SMALL, version=version(app, cid)))
    ok(cross(b, cid, "start-box1", "start", htmx=htmx))
    ok(b.post(f"/campaigns/{cid}/undo", htmx=htmx, version=version(app, cid)))
    ok(cross(b, cid, "start-box1", "start", htmx=htmx))
    ok(b.post(f"/campaigns/{cid}/confirm", htmx=htmx, version=version(app, cid)))
    ok(b.post(f"/campaigns/{cid}/achieve", htmx=htmx, achievement="watchtower",
              version=version(app, cid)))
    r = b.post(f"/campaigns/{cid}/games/new", htmx=htmx)
    assert r.status_code == (204 if htmx else 303)
    target = r.headers.get("HX-Redirect") or r.headers["Location"]
    gid = int(target.rsplit("/", 1)[1])
    ok(b.post(f"/campaigns/{cid}/games/{gid}/finish", htmx=htmx, score="101", version="1"))
    scores = [g.score for g in state(app, cid).games]
    assert len(scores) == 3 and scores[0] == 140 and scores[2] == 101
    for url in (f"/campaigns/{cid}.zip", f"/campaigns/{cid}.txt",
                f"/campaigns/{cid}/games/{gid}/open"):
        assert b.get(url, htmx=htmx).status_code in (200, 303), url
    r = b.c.post("/campaigns/import", headers=HX if htmx else {}, data={
        "csrf_token": b.token, "file": (io.BytesIO(b.get(f"/campaigns/{cid}.zip").data),
                                        "c.zip")}, content_type="multipart/form-data")
    assert r.status_code == (204 if htmx else 303)


def test_the_sharing_migrations_are_applied_by_the_app(app: Flask) -> None:
    from companion.storage.migrations import applied_migrations

    with app.app_context():
        db = get_db()
        assert {2, 3} <= set(applied_migrations(db))
        columns = set(db.table("campaigns").columns_dict)
    assert {"owner", "view_token", "edit_token", "confirmed_seq"} <= columns


def test_game_of_another_campaign_is_404(app: Flask, b: Browser) -> None:
    one = b.new_campaign("One")
    two = b.new_campaign("Two")
    gid = int(b.post(f"/campaigns/{one}/games/new").headers["Location"].rsplit("/", 1)[1])
    assert b.get(f"/campaigns/{two}/games/{gid}").status_code == 404
    assert b.get(f"/campaigns/{two}/games/{gid}/open").status_code == 404
    assert b.get(f"/campaigns/{one}/games/999").status_code == 404


def test_next_game_is_started_once_per_version_even_when_posted_at_once(
        app: Flask, b: Browser) -> None:
    cid = b.new_campaign()
    add_score(b, cid, 140)
    ver = version(app, cid)
    page = b.get(f"/campaigns/{cid}").get_data(as_text=True)
    assert re.search(rf'name="version" value="{ver}">\s*<button[^>]*id="new-campaign-game"',
                     page)
    answers: list[Any] = []

    def post() -> None:
        client = app.test_client()
        with b.c.session_transaction() as theirs, client.session_transaction() as mine:
            mine.update(theirs)
        answers.append(client.post(f"/campaigns/{cid}/games/new",
                                   data={"csrf_token": b.token, "version": str(ver)}))

    threads = [threading.Thread(target=post) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    with app.app_context():
        started = storage.games_in_progress(get_db(), cid)
    assert len(started) == 1
    assert {r.status_code for r in answers} == {303}
    assert {r.headers["Location"].rsplit("/", 1)[1] for r in answers} == {str(started[0]["id"])}


def test_a_note_on_a_card_the_companion_does_not_know_is_saved_and_shown(
        app: Flask, b: Browser) -> None:
    cid = b.new_campaign()
    add_score(b, cid, 140)
    cross(b, cid, "start-box1", "start")
    cross(b, cid, "start-box1", "start")
    html = b.get(f"/campaigns/{cid}").get_data(as_text=True)
    assert 'name="unlock" value="box1"' in html and "EDITABLE PLACEHOLDER" not in html
    r = b.post(f"/campaigns/{cid}/notes", unlock="box1", text="Five task tiles, marker 4s")
    assert r.status_code == 303
    html = b.get(f"/campaigns/{cid}").get_data(as_text=True)
    assert ('<p class="content-text players-note" data-note="box1">Five task tiles, '
            'marker 4s') in html
    with app.app_context():
        assert storage.unlock_notes(get_db(), cid) == {"box1": "Five task tiles, marker 4s"}
    assert b.post(f"/campaigns/{cid}/notes", unlock="circus", text="x").status_code == 400
    assert b.post(f"/campaigns/{cid}/notes", unlock="box1", text="x" * 2001).status_code == 400
    assert b.post(f"/campaigns/{cid}/notes", unlock="box1", text="").status_code == 303
    with app.app_context():
        assert storage.unlock_notes(get_db(), cid) == {}
