"""Every page of full scenarios in each of the four languages, through the test client:
a board game with tasks completed and failed and warnings, a refused placement, a
dispute, a Duel with both modules, a campaign with unlocks. A page fails on an engine
sentence left in English (compared with the English renderer's output for the same
reasons) and, in every language, on internal ids or slugs in the visible text."""

from __future__ import annotations

import html as htmlmod
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import parse_record, replay
from companion.rules.errors import RulesError
from companion.rules.reasons import Reason, render
from companion.rules.scoring import score_text
from companion.web import create_app, records
from companion.web.db import get_db
from tests.helpers.webtools import DATA

OWNER = "languages-owner"
LANGS = ["en", "de", "es", "pt_BR"]
GAMES = ["bg_jump_fails_marker", "bg_completed_stays_completed", "bg_order_warnings",
         "bg_pool_warnings", "bg_special_not_unlocked", "bg_red_hearts", "bg_circus_open",
         "duel_m2_warnings", "duel_m1_cards_mix", "duel_warnings", "duel_m2_hearts"]
SLUGS = re.compile(
    r"EDITABLE PLACEHOLDER|PLACEHOLDER|\bbox-\d-(?:task|landscape)\b|\bunlocked: box|\bbox\d\b"
    r"|\b(?:large|master|many)-(?:forest|grain|village)\b|\bE Box\d|\bstart-box1\b"
    r"|\b(?:grain|forest|village)-tunnel\b|\b(?:balloon-launch|construction)-site\b"
    r"|\b(?:forest-cabin|harvest-festival|train-station|old-oak|great-mill|golden-heart)\b"
    r"|\bred-hearts?\b")


class Visible(HTMLParser):
    """The text a player reads: no tags, attributes, scripts, nor the record itself
    (``textarea``, ``pre``, ``code``: the notation the players type)."""

    SKIP = {"script", "style", "textarea", "pre", "code", "template"}

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in self.SKIP:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.parts.append(data)


def visible(page: str) -> str:
    v = Visible()
    v.feed(page)
    return re.sub(r"\s+", " ", htmlmod.unescape(" ".join(v.parts)))


def english_of(record: str) -> set[str]:
    """Every English sentence the engine gives for this record (sheet, warnings,
    explanations, marker states)."""
    out: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "code" in node and "params" in node and node.get("text"):
                out.add(str(node["text"]))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    try:
        walk(score_text(record))
        game = replay(parse_record(record))
        for board in [game.board, *game.boards.values()]:
            for m in board.markers:
                if m.why is not None:
                    out.add(render(m.why))
    except RulesError as err:
        out.add(err.reason)
    return {t for t in out if len(t) >= 15 and re.search("[a-z]{4,}", t)}


@pytest.fixture()
def app(tmp_path: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "lang.sqlite"),
                       "CSRF_ENABLED": False, "SECRET_KEY": "test"})


def client_in(app: Flask, lang: str) -> FlaskClient:
    c = app.test_client()
    c.set_cookie("lang", lang)
    with c.session_transaction() as s:
        s["owner"] = OWNER
    return c


def check(page: str, lang: str, english: set[str], url: str) -> None:
    text = visible(page)
    found = SLUGS.search(text)
    around = text[max(0, found.start() - 80):found.end() + 80] if found else ""
    assert not found, f"{url} [{lang}]: {found.group(0)!r} in …{around}…"
    if lang != "en":
        left = sorted(e for e in english if e in text)
        assert not left, f"{url} [{lang}]: English engine text {left[:3]}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_game_page_in_every_language(app: Flask, lang: str) -> None:
    c = client_in(app, lang)
    for name in GAMES:
        record = (DATA / f"{name}.dorf").read_text(encoding="utf-8")
        with app.app_context():
            gid = records.create_game(get_db(), record, OWNER)
        english = english_of(record)
        parsed = parse_record(record)
        first = parsed.sections[0].player if parsed.sections else None
        game = replay(parsed)
        free = (game.boards[first] if first in game.boards else game.board).frontier()[0]
        urls = [f"/games/{gid}", f"/games/{gid}/edit", f"/games/{gid}/dispute",
                f"/games/{gid}/dispute?q=9&r=9&code=GGGGGG",
                f"/games/{gid}/dispute?q=0&r=-1&code=TTTTTT",
                f"/games/{gid}/dispute?at=9,9", f"/games/{gid}/dispute?at=0,0",
                f"/games/{gid}/dispute?at={free.q},{free.r}",
                f"/games/{gid}/dispute?at=0,0&code=GGGGGG&rotation=1",
                f"/play/{gid}", f"/play/{gid}/end"]
        sheet = score_text(record)
        sheets = list(sheet["players"].values()) if sheet["game"] == "duel" else [sheet]
        player = next(iter(sheet.get("players", {})), None)
        urls += [f"/play/{gid}/map?explain={path}" + (f"&player={player}" if player else "")
                 for path in sheets[0]["explanations"]]
        shown: set[str] = set()
        for url in urls:
            r = c.get(url)
            assert r.status_code in (200, 400), (url, r.status_code)
            page = r.get_data(as_text=True)
            check(page, lang, english, url)
            text = visible(page)
            shown |= {e for e in english if e in text}
        if lang == "en":  # the comparison is with sentences the pages really show
            assert shown, name


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_placement_in_every_language(app: Flask, lang: str) -> None:
    c = client_in(app, lang)
    start = "game: board-game\n0 0 GGMTTM task=grain/4\n"
    with app.app_context():
        gid = records.create_game(get_db(), start, OWNER)
    r = c.post(f"/play/{gid}/place", data={"version": "1", "q": "0", "r": "-1",
                                            "code": "TTTTTT", "tile": "TTTTTT"})
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    why = Reason.of("rule-broken", why=Reason.of("edge-mismatch", terrain="track", edge=3,
                                                 other="grain", neighbour=(0, 0)))
    check(page, lang, {render(why), render(why["why"])}, "place")
    if lang != "en":
        assert "meets" not in visible(page)


@pytest.mark.parametrize("lang", LANGS)
def test_a_campaign_with_unlocks_in_every_language(app: Flask, lang: str) -> None:
    from companion.storage import campaigns as storage

    c = client_in(app, lang)
    r = c.post("/campaigns", data={"name": "Sunday", "players": "Ana, Rui"})
    cid = int(r.headers["Location"].rsplit("/", 1)[1])

    def version() -> str:
        with app.app_context():
            return str(storage.get_campaign(get_db(), cid)["version"])

    assert c.post(f"/campaigns/{cid}/score", data={"score": "290", "version": version()}
                  ).status_code == 303
    for path, frm in [("start-box1", "start")] * 2 + [("box1-box2", "box1")] * 5 + [
            ("box2-circus", "box2")] * 4:
        with app.app_context():
            st = storage.load_state(get_db(), cid)
        circle = next(x.circle for x in st.legal_spends() if x.path == path)
        assert c.post(f"/campaigns/{cid}/cross", data={
            "path": path, "from": frm, "circle": str(circle), "version": version()}
        ).status_code == 303
    r = c.post(f"/campaigns/{cid}/games/new", data={"version": version()})
    assert r.status_code == 303
    game_url = r.headers["Location"]
    with app.app_context():
        st = storage.load_state(get_db(), cid)
    english = {render(w) for w in st.warnings}
    for url in ["/", "/campaigns", f"/campaigns/{cid}", f"/campaigns/{cid}/history",
                game_url]:
        r = c.get(url)
        assert r.status_code == 200, url
        check(r.get_data(as_text=True), lang, english, url)
    r = c.post(f"/campaigns/{cid}/cross", data={"path": "nowhere", "from": "x",
                                                 "version": version()})
    check(r.get_data(as_text=True), lang, english, "refused cross")


@pytest.mark.parametrize("lang", LANGS)
def test_the_home_page_says_what_the_app_does_and_offers_the_three_ways_in(
        app: Flask, lang: str) -> None:
    c = client_in(app, lang)
    page = c.get("/").get_data(as_text=True)
    assert 'class="welcome"' in page and 'class="what"' in page
    for href in ('href="/games/new"', 'href="/games/new?then=end"',
                 'href="/games/new?then=photo"', 'href="/campaigns"'):
        assert href in page, href
    if lang != "en":
        assert "Record as you play" not in page
    form = c.get("/games/new?then=photo").get_data(as_text=True)
    assert 'name="then" value="photo"' in form
    r = c.post("/games/new", data={"kind": "board-game", "players": "Ana", "then": "photo"})
    assert r.status_code == 303 and r.headers["Location"].endswith("/photos/new")
    r = c.post("/games/new", data={"kind": "board-game", "players": "Ana", "then": "end"})
    assert r.headers["Location"].endswith("/end")


def test_campaign_games_are_labelled_and_link_back(app: Flask) -> None:
    from companion.storage import campaigns as storage

    c = client_in(app, "en")
    r = c.post("/campaigns", data={"name": "Sunday", "players": "Ana, Rui"})
    cid = int(r.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        version = str(storage.get_campaign(get_db(), cid)["version"])
    r = c.post(f"/campaigns/{cid}/games/new", data={"version": version})
    gid = int(r.headers["Location"].rsplit("/", 1)[1])
    link = f'<a class="game-campaign" href="/campaigns/{cid}">Campaign game: Sunday</a>'
    assert link in c.get("/").get_data(as_text=True)
    page = c.get(f"/games/{gid}").get_data(as_text=True)
    assert f'<a href="/campaigns/{cid}">Campaign game: Sunday</a>' in page


MILL = "game: board-game\n0 0 GGGGGG task=grain/4 mill\n" + "".join(
    f"{q} {r} GGGGGG\n" for q, r in [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)])


def new_campaign(app: Flask, c: FlaskClient) -> tuple[int, Any]:
    from companion.storage import campaigns as storage

    r = c.post("/campaigns", data={"name": "Sunday", "players": "Ana, Rui"})
    cid = int(r.headers["Location"].rsplit("/", 1)[1])

    def version() -> str:
        with app.app_context():
            return str(storage.get_campaign(get_db(), cid)["version"])

    return cid, version


@pytest.mark.parametrize("lang", LANGS)
def test_the_great_mill_proposal_in_every_language(app: Flask, lang: str) -> None:
    from companion.rules import check_great_mill

    c = client_in(app, lang)
    cid, version = new_campaign(app, c)
    assert c.post(f"/campaigns/{cid}/upload", data={"record": MILL, "version": version()}
                  ).status_code == 303
    page = c.get(f"/campaigns/{cid}").get_data(as_text=True)
    assert 'class="mill-proposal"' in page
    english = check_great_mill(MILL).explanation
    assert (english in visible(page)) is (lang == "en")
    check(page, lang, {english}, "mill proposal")
    if lang != "en":
        assert "edges" not in visible(page) and "neighbours" not in visible(page)


@pytest.mark.parametrize("lang", LANGS)
def test_did_you_mean_in_every_language(app: Flask, lang: str) -> None:
    c = client_in(app, lang)
    cid, version = new_campaign(app, c)
    assert c.post(f"/campaigns/{cid}/score", data={"score": "290", "version": version()}
                  ).status_code == 303
    r = c.post(f"/campaigns/{cid}/achieve", data={"achievement": "construction-sit",
                                                   "version": version()})
    text = visible(r.get_data(as_text=True))
    assert "construction-site?" in text, text[:600]
    assert ("did you mean" in text) is (lang == "en")


def scan_error_messages() -> list[str]:
    """Every message the scanner raises ``ScanError`` with (its f-strings filled with 1)."""
    import ast

    import companion.vision

    out: list[str] = []
    for path in Path(companion.vision.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "ScanError" and node.args):
                arg = node.args[0]
                if isinstance(arg, ast.Constant):
                    out.append(str(arg.value))
                elif isinstance(arg, ast.JoinedStr):
                    out.append("".join(str(v.value) if isinstance(v, ast.Constant) else "1"
                                       for v in arg.values))
    return out


def test_every_scanner_refusal_has_a_code_and_words() -> None:
    from companion.vision.errors import CODES, UNKNOWN, ScanError
    from companion.web.reasons import SCAN_TEMPLATES

    assert set(SCAN_TEMPLATES) == set(CODES)
    messages = scan_error_messages()
    assert len(messages) >= 15
    unknown = [m for m in messages if ScanError(m).code == UNKNOWN]
    assert not unknown, f"ScanError messages without a code: {unknown}"


@pytest.mark.parametrize("lang", ["de", "es", "pt_BR"])
def test_scanner_refusals_are_translated(app: Flask, lang: str) -> None:
    from companion.vision.errors import ScanError
    from companion.web.reasons import say_scan_error

    with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
        for message in scan_error_messages():
            said = say_scan_error(ScanError(message))
            assert said and said != message and not re.search(
                r"\b(?:the|not|tiles|photo|image)\b", said), (message, said)


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_photo_in_every_language(app: Flask, lang: str) -> None:
    import io

    from PIL import Image

    c = client_in(app, lang)
    with app.app_context():
        gid = records.create_game(get_db(), "game: board-game\n", OWNER)
    out = io.BytesIO()
    Image.new("RGB", (300, 200)).save(out, "PNG")
    r = c.post(f"/games/{gid}/photos", data={"photo": (io.BytesIO(out.getvalue()), "x.png")},
               content_type="multipart/form-data")
    assert r.status_code == 422
    text = visible(r.get_data(as_text=True))
    english = "no tiles recognised: the photo is too dark"  # a black image
    assert (english in text) is (lang == "en"), text[-300:]
