"""The map recorder (companion/web/play/) through the Flask test client.

Every route is requested plain (full page, POST-redirect-GET) and with
``HX-Request: true`` (the ``#play`` fragment alone). Games live in a real SQLite
file in a temporary instance folder; the record text stored is read back to see
what each action did.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import parse_record
from companion.storage.games import get_game
from companion.web import create_app, records
from companion.web.db import get_db
from tests.helpers.webtools import HX

OWNER = "owner-of-the-test-games"


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "play.sqlite"),
                      "CSRF_ENABLED": False, "SECRET_KEY": "test"})
    yield app


@pytest.fixture()
def owner() -> str:
    return OWNER


def new_game(app: Flask, text: str, owner: str = OWNER) -> int:
    with app.app_context():
        return records.create_game(get_db(), text, owner)


def stored(app: Flask, game_id: int) -> tuple[str, int]:
    with app.app_context():
        row = get_game(get_db(), game_id)
        return str(row["record"]), int(row["version"])


def lines(app: Flask, game_id: int) -> list[str]:
    text, _ = stored(app, game_id)
    return [ln for ln in text.splitlines() if ln[:1].isdigit() or ln[:1] == "-"]


def error_of(html: str) -> str:
    found = re.findall(r'class="error"[^>]*>([^<]*)<', html)
    return found[0] if found else ""


START = "game: board-game\n0 0 GGMTTM task=grain/4\n"


def place(client: FlaskClient, game_id: int, version: int, q: int, r: int, code: str,
          headers: dict[str, str] | None = None, **extra: str):  # type: ignore[no-untyped-def]
    data = {"version": str(version), "q": str(q), "r": str(r), "code": code, "tile": code,
            **extra}
    return client.post(f"/play/{game_id}/place", data=data, headers=headers or {})


# ------------------------------------------------------------------ pages
def test_recorder_page_full_and_fragment(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START)
    full = client.get(f"/play/{gid}")
    frag = client.get(f"/play/{gid}", headers=HX)
    assert full.status_code == frag.status_code == 200
    assert b"<html" in full.data and b"<html" not in frag.data
    assert frag.data.lstrip().startswith(b"<section id=\"play\"")
    assert "HX-Request" in full.headers.get("Vary", "")
    html = frag.data.decode()
    # the placed tile: a <g class="tile"> with data attributes and six terrain wedges
    tile = re.search(r'<g class="tile[^"]*" data-q="0" data-r="0"[^>]*>(.*?)</g>', html, re.S)
    assert tile is not None
    assert len(re.findall(r'<use href="#pw\d" class="w t-([FGVTSM])"', tile.group(1))) == 6
    # the six free hexes around it are dashed links
    assert len(re.findall(r'<a class="slot', html)) == 6


def test_choosing_a_tile_highlights_legal_hexes_and_rotations(
        app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START)
    html = client.get(f"/play/{gid}?tile=TMMMMM", headers=HX).data.decode()
    legal = set(re.findall(r'<a class="slot legal[^"]*"[^>]*data-q="(-?\d+)" data-r="(-?\d+)"',
                           html))
    # TMMMMM must put its track against the track edges 3 (S) or 4 (SW) of GGMTTM,
    # or keep it away from the tile; every free hex has some legal rotation
    assert ("0", "1") in legal and ("-1", "1") in legal
    html = client.get(f"/play/{gid}?tile=TMMMMM&at=0,1", headers=HX).data.decode()
    rots = re.findall(r'class="rot( legal)?( current)?" data-rot="(\d)"', html)
    legal_rots = {int(k) for is_legal, _, k in rots if is_legal}
    assert legal_rots == {0}  # only the track up (edge 0) meets the track of the tile above
    # the default rotation is the first legal one, and the form places exactly that code
    assert 'name="code" value="TMMMMM"' in html


def test_catalogue_filter_matches_any_rotation(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START)
    html = client.get(f"/play/{gid}?f=TTM", headers=HX).data.decode()
    codes = re.findall(r'<li data-code="([A-Z]{6})"', html)
    assert codes, "some catalogue tiles show TTM"
    assert all("TTM" in c + c[:5] for c in codes)
    # the box holds GGMTTM once and it lies on the map: not offered again
    assert "GGMTTM" not in codes and "VVMTTM" in codes
    empty = new_game(app, "game: board-game\n")
    html = client.get(f"/play/{empty}?f=TTM", headers=HX).data.decode()
    assert "GGMTTM" in re.findall(r'<li data-code="([A-Z]{6})"', html)


def test_painting_six_edges_chooses_that_tile(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START)
    query = "&".join(f"e{i}={c}" for i, c in enumerate("TMMMMM"))
    html = client.get(f"/play/{gid}?at=0,1&{query}", headers=HX).data.decode()
    assert '<span class="code">TMMMMM</span>' in html


# ---------------------------------------------------------------- placing
@pytest.mark.parametrize("headers", [{}, HX])
def test_place_appends_a_line(app: Flask, client: FlaskClient, headers: dict[str, str]) -> None:
    gid = new_game(app, START)
    r = place(client, gid, 1, 0, 1, "TMMMMM", headers, flag="", task_type="", task_value="")
    if headers:
        assert r.status_code == 200 and r.headers["HX-Push-Url"] == f"/play/{gid}"
        assert b'data-q="0" data-r="1"' in r.data and b"<html" not in r.data
    else:
        assert r.status_code == 303 and r.headers["Location"].endswith(f"/play/{gid}")
    assert lines(app, gid) == ["0 0 GGMTTM task=grain/4", "0 1 TMMMMM"]
    assert stored(app, gid)[1] == 2


def test_place_with_attributes(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START)
    r = place(client, gid, 1, 0, -1, "GGMMFM", task_type="forest", task_value="5",
              flag="grain", heart="1", sheep="2", crossing="1")
    assert r.status_code == 303
    assert lines(app, gid)[-1] == "0 -1 GGMMFM task=forest/5 flag=grain heart sheep=2 crossing=1"


@pytest.mark.parametrize("headers", [{}, HX])
def test_illegal_placement_is_explained_and_changes_nothing(
        app: Flask, client: FlaskClient, headers: dict[str, str]) -> None:
    gid = new_game(app, START)
    r = place(client, gid, 1, 0, 1, "GGGGGG", headers)
    assert r.status_code == 422
    why = error_of(r.data.decode())
    # which edge, which terrain it meets, and the rule
    assert "edge 0 (N)" in why and "meets track" in why
    assert "A track edge may only meet a track edge" in why
    assert stored(app, gid) == (START, 1)
    assert (b"<html" in r.data) == (not headers)


def test_task_tile_that_would_fail_at_once_is_refused(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, "game: board-game\n0 0 GGGGGG\n1 -1 GGGGGG\n0 -1 GGGGGG\n-1 0 GGGGGG\n")
    r = place(client, gid, 1, 1, 0, "GGGGGG", task_type="grain", task_value="4")
    assert r.status_code == 422
    assert "would fail at once" in error_of(r.data.decode())


def test_bad_marker_value_is_refused_in_one_line(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START)
    r = place(client, gid, 1, 0, 1, "TMMMMM", task_type="track", task_value="7")
    assert r.status_code == 422
    assert "no track marker shows 7" in error_of(r.data.decode())


def test_stale_version_is_told_and_shown_the_current_map(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START)
    assert place(client, gid, 1, 0, 1, "TMMMMM").status_code == 303
    r = place(client, gid, 1, 1, -1, "MMMMMM")  # made from version 1, now 2
    assert r.status_code == 409
    assert "changed this game" in error_of(r.data.decode())
    assert lines(app, gid)[-1] == "0 1 TMMMMM"


def test_view_only_access_cannot_place(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START, owner="someone-else")
    assert client.get(f"/play/{gid}").status_code == 404  # not shared: as if missing
    assert place(client, gid, 1, 0, 1, "TMMMMM").status_code == 404
    assert client.get("/play/9999").status_code == 404


# ------------------------------------------------------------ undo / redo
@pytest.mark.parametrize("headers", [{}, HX])
def test_undo_and_redo_without_limit(app: Flask, client: FlaskClient,
                                     headers: dict[str, str]) -> None:
    gid = new_game(app, START)
    moves = [(0, 1, "TMMMMM"), (1, -1, "MMMMMM"), (-1, 0, "MMMMMM"), (0, -1, "MMMMMM")]
    for q, r, code in moves:
        assert place(client, gid, stored(app, gid)[1], q, r, code).status_code == 303
    full = lines(app, gid)
    for n in range(len(full)):
        res = client.post(f"/play/{gid}/undo", data={"version": stored(app, gid)[1]},
                          headers=headers)
        assert res.status_code == (200 if headers else 303)
        assert lines(app, gid) == full[: len(full) - n - 1]
    html = client.get(f"/play/{gid}", headers=HX).data.decode()
    assert f"Redo ({len(full)})" in html
    for n in range(len(full)):
        res = client.post(f"/play/{gid}/redo", data={"version": stored(app, gid)[1]},
                          headers=headers)
        assert res.status_code == (200 if headers else 303)
        assert lines(app, gid) == full[: n + 1]
    res = client.post(f"/play/{gid}/redo", data={"version": stored(app, gid)[1]})
    assert res.status_code == 422 and "Nothing to redo" in error_of(res.data.decode())


def test_a_new_placement_clears_redo(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START)
    place(client, gid, 1, 0, 1, "TMMMMM")
    client.post(f"/play/{gid}/undo", data={"version": 2})
    assert "Redo (1)" in client.get(f"/play/{gid}").data.decode()
    place(client, gid, 3, 1, -1, "MMMMMM")
    html = client.get(f"/play/{gid}").data.decode()
    assert "Redo (" not in html
    assert client.post(f"/play/{gid}/redo", data={"version": 4}).status_code == 422


# --------------------------------------------------------------- markers
def test_marker_status_is_live(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, "game: board-game\n0 0 GGGGGG task=grain/4\n")
    html = client.get(f"/play/{gid}", headers=HX).data.decode()
    assert re.search(r'<li class="marker active".*?<span class="size">1/4</span>', html, re.S)
    place(client, gid, 1, 0, 1, "GGGGGG")
    place(client, gid, 2, 1, -1, "GGGGGG")
    html = client.get(f"/play/{gid}", headers=HX).data.decode()
    assert re.search(r'<span class="size">3/4</span>', html)
    place(client, gid, 3, 1, 0, "GGGGGG")
    html = client.get(f"/play/{gid}", headers=HX).data.decode()
    assert re.search(r'<li class="marker completed".*?completed at turn 4', html, re.S)


# ---------------------------------------------------------- end of game
@pytest.mark.parametrize("headers", [{}, HX])
def test_end_of_game_entry(app: Flask, client: FlaskClient, headers: dict[str, str]) -> None:
    gid = new_game(app, "game: board-game\n")
    page = client.get(f"/play/{gid}/end", headers=headers)
    assert page.status_code == 200
    # the base box has forest 4, 5, 6 (a 7 only once the campaign unlocked something)
    assert 'data-type="forest" data-value="6"' in page.data.decode()
    assert 'data-type="forest" data-value="7"' not in page.data.decode()
    # final map in any order: the second tile is placed where it touches the first
    v = stored(app, gid)[1]
    assert place(client, gid, v, 0, 0, "GGGGGG", headers, mode="end",
                 task_type="grain").status_code in (200, 303)
    v = stored(app, gid)[1]
    assert place(client, gid, v, 2, 0, "MMMMMM", headers, mode="end").status_code == 422
    for kind, value in (("forest", 5), ("forest", 5), ("stream", 4)):
        r = client.post(f"/play/{gid}/completed", headers=headers,
                        data={"version": stored(app, gid)[1], "type": kind, "value": value})
        assert r.status_code in (200, 303)
    record = parse_record(stored(app, gid)[0])
    assert [t.text() for t in record.completed] == ["forest/5", "forest/5", "stream/4"]
    # the box has two forest 5s: a third is refused and the button is disabled
    r = client.post(f"/play/{gid}/completed", data={"version": stored(app, gid)[1],
                                                   "type": "forest", "value": 5})
    assert r.status_code == 422 and "no forest marker of 5 is left" in error_of(r.data.decode())
    html = client.get(f"/play/{gid}/end").data.decode()
    assert re.search(r'data-type="forest" data-value="5" disabled', html)
    assert "sum 14" in html
    r = client.post(f"/play/{gid}/completed/remove", headers=headers,
                    data={"version": stored(app, gid)[1], "index": 0})
    assert r.status_code in (200, 303)
    assert [t.text() for t in parse_record(stored(app, gid)[0]).completed] == [
        "forest/5", "stream/4"]


def test_completed_value_that_the_box_lacks_is_refused(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, "game: board-game\n")
    r = client.post(f"/play/{gid}/completed", data={"version": 1, "type": "track", "value": 7})
    assert r.status_code == 422
    assert parse_record(stored(app, gid)[0]).completed == []


# ------------------------------------------------------------------ duel
DUEL = "game: duel\nplayer: red\nplayer: blue\n"


@pytest.mark.parametrize("headers", [{}, HX])
def test_duel_turns_offer_the_same_tile(app: Flask, client: FlaskClient,
                                        headers: dict[str, str]) -> None:
    gid = new_game(app, DUEL)
    html = client.get(f"/play/{gid}", headers=headers).data.decode()
    assert "Turn 1: red places" in html
    assert html.count('class="hexmap"') == 2
    r = place(client, gid, 1, 0, 0, "FFFFSS", headers, player="red", task_type="forest",
              task_value="4")
    assert r.status_code in (200, 303)
    html = client.get(f"/play/{gid}?at=0,0", headers=headers).data.decode()
    assert "Turn 1: blue places" in html
    # blue is offered red's tile of this turn, task marker included
    assert '<span class="code">FFFFSS</span>' in html
    assert re.search(r'<input type="radio" name="task_type" value="forest" checked', html)
    assert re.search(r'name="task_value" value="4" class="marker-value current"', html)
    r = place(client, gid, 2, 0, 0, "SFFFFS", headers, player="blue", task_type="forest",
              task_value="4")
    assert r.status_code in (200, 303)
    html = client.get(f"/play/{gid}", headers=headers).data.decode()
    assert "Turn 2: red places" in html
    record = parse_record(stored(app, gid)[0])
    assert [len(s.placements) for s in record.sections] == [1, 1]
    # undo takes back the most recent placement: blue's
    client.post(f"/play/{gid}/undo", data={"version": stored(app, gid)[1]})
    record = parse_record(stored(app, gid)[0])
    assert [len(s.placements) for s in record.sections] == [1, 0]


# ----------------------------------------------------------- explanations
@pytest.mark.parametrize("headers", [{}, HX])
def test_explained_map_highlights_the_tiles(app: Flask, client: FlaskClient,
                                            headers: dict[str, str]) -> None:
    text = ("game: board-game\n0 0 GGGGGG task=grain/4\n0 1 GGGGGG\n1 -1 MMMMMM\n"
            "1 0 GGGGGG\n-1 1 GGGGGG\n")
    gid = new_game(app, text)
    r = client.get(f"/play/{gid}/map?explain=tasks.grain", headers=headers)
    assert r.status_code == 200
    html = r.data.decode()
    lit = set(re.findall(r'<g class="tile hl[^"]*" data-q="(-?\d+)" data-r="(-?\d+)"', html))
    assert lit == {("0", "0")}
    assert "grain/4" in html


def test_a_record_that_no_longer_replays_gets_one_line(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, "game: board-game\n0 0 GGMTTM\n0 1 GGGGGG\n")  # stored unchecked
    r = client.get(f"/play/{gid}")
    assert r.status_code == 422
    assert "line 3: " in r.data.decode() and "Traceback" not in r.data.decode()


# ----------------------------------------------------------------- picker
@pytest.mark.parametrize("headers", [{}, HX])
def test_a_tapped_hex_offers_the_tiles_that_fit_best_first(
        app: Flask, client: FlaskClient, headers: dict[str, str]) -> None:
    gid = new_game(app, START)
    html = client.get(f"/play/{gid}?at=1,-1", headers=headers).data.decode()
    picks = re.findall(r'<li data-code="([A-Z]{6})"( class="perfect")?><a href="([^"]+)"', html)
    codes = [c for c, _, _ in picks]
    assert codes and "GGMTTM" not in codes  # on the map already: the box holds it once
    assert not any(c in codes for c in ("MVMMFF", "GGMMVM"))  # Box 2, Box 1: not unlocked
    # best edge matches first: the grain edge of (0, 0) meets grain in the first tiles
    assert picks[0][1] == ' class="perfect"'
    # one tap on a tile chooses it in its best rotation at that hex: then Place
    href = picks[0][2].replace("&amp;", "&")
    assert "at=1%2C-1" in href and f"tile={codes[0]}" in href and "rot=" in href
    html = client.get(href, headers=headers).data.decode()
    assert 'class="place-form"' in html and 'class="primary place"' in html
    code = re.search(r'name="code" value="([A-Z]{6})"', html).group(1)  # type: ignore[union-attr]
    assert code[4] == "G"  # edge 4 of (1, -1) touches the grain edge 1 of (0, 0)


def test_task_tiles_take_type_chips_and_marker_value_buttons(
        app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START)
    html = client.get(f"/play/{gid}?at=0,-1&tile=GGGGTT", headers=HX).data.decode()
    assert "<select name=\"task_type\"" not in html and "<select name=\"task_value\"" not in html
    assert re.findall(r'name="task_type" value="(\w+)"', html) == ["grain", "track"]
    # the base box has grain markers 4, 5, 6 only: no 7 offered
    assert re.findall(r'name="task_value" value="(\d)"', html) == ["4", "5", "6"]
    r = place(client, gid, 1, 0, -1, "GGGGTT", task_type="grain", task_value="6")
    assert r.status_code == 303 and lines(app, gid)[-1] == "0 -1 GGGGTT task=grain/6"
    # a value without a type is refused, not silently dropped
    r = place(client, gid, 2, 1, -1, "GGGGTT", task_value="5")
    assert r.status_code == 422 and "task type" in error_of(r.data.decode())
    box2 = new_game(app, "game: board-game\nunlocked: box2\n")
    html = client.get(f"/play/{box2}?at=0,0&tile=GGGGGG", headers=HX).data.decode()
    assert re.findall(r'name="task_value" value="(\d)"', html) == ["4", "5", "6", "7"]


def test_duel_picker_offers_recent_patterns_and_painting(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, DUEL)
    place(client, gid, 1, 0, 0, "FFFFSS", player="red", task_type="forest", task_value="4")
    place(client, gid, 2, 0, 0, "FFFFSS", player="blue", task_type="forest", task_value="4")
    html = client.get(f"/play/{gid}?at=0,1&player=red", headers=HX).data.decode()
    assert re.findall(r'<li data-code="([A-Z]{6})"', html) == ["FFFFSS"]  # the recent pattern
    assert 'class="paint"' in html and 'class="catalogue-box"' not in html


@pytest.mark.parametrize(("text", "words"), [
    (START + "0 1 TTMGGM\n", "the box holds no more copies"),
    (START + "1 -1 MVMMFF\n", "comes from a box not unlocked"),
    ("game: board-game\n0 0 FFFFFF task=forest/7\n", "holds no such marker"),
    ("game: board-game\n0 0 MMMMMM special=circus\n", "is not unlocked in this game"),
])
def test_impossible_states_are_flagged_while_recording(
        app: Flask, client: FlaskClient, text: str, words: str) -> None:
    gid = new_game(app, text)
    html = client.get(f"/play/{gid}", headers=HX).data.decode()
    flags = re.search(r'<ul class="box-flags".*?</ul>', html, re.S)
    assert flags is not None and words in flags.group(0)
    assert client.get(f"/play/{new_game(app, START)}", headers=HX).data.decode().count(
        "box-flags") == 0


def test_specials_offered_are_the_unlocked_ones(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, "game: board-game\nunlocked: circus\n")
    html = client.get(f"/play/{gid}?at=0,0&tile=MMMMMM", headers=HX).data.decode()
    special = re.search(r'<select name="special">.*?</select>', html, re.S)
    assert special is not None
    assert re.findall(r'<option value="([\w-]+)"', special.group(0)) == ["circus"]


def test_the_picker_puts_the_stack_due_first(app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, "game: board-game\n")
    html = client.get(f"/play/{gid}?at=0,0", headers=HX).data.decode()
    picks = re.search(r'<ul class="catalogue picks">(.*?)</ul>', html, re.S)
    assert picks is not None
    items = re.findall(r'<li data-code="[A-Z]{6}"[^>]*><a [^>]*>(.*?)</a></li>', picks.group(1),
                       re.S)
    tasks = ["badge-task" in item for item in items]
    assert tasks[0] and tasks == sorted(tasks, reverse=True)  # the first turns: task tiles
    assert "draws a task tile" in html


def test_a_chosen_tile_the_box_lacks_is_flagged_before_placing(
        app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START)
    html = client.get(f"/play/{gid}?at=1,-1&tile=MVMMFF", headers=HX).data.decode()
    chosen = re.search(r'<ul class="box-flags chosen-flags".*?</ul>', html, re.S)
    assert chosen is not None and "comes from a box not unlocked" in chosen.group(0)
    html = client.get(f"/play/{gid}?at=1,-1&tile=TTMGGM", headers=HX).data.decode()
    assert "the box holds no more copies" in html
    html = client.get(f"/play/{gid}?at=1,-1&tile=GGGGGG", headers=HX).data.decode()
    assert "box-flags" not in html


def test_a_duel_landscape_beyond_the_box_says_why_on_the_recorder(
        app: Flask, client: FlaskClient) -> None:
    """The recorder's flags come from the shared partial (templates/_tile_picker.html):
    a flag with a coded reason says it, in the page's language."""
    from companion.rules.hexgrid import Hex, distance, within

    near = [Hex(0, 0), *sorted(within(Hex(0, 0), 5),
                               key=lambda h: (distance(h, Hex(0, 0)), h.q, h.r))]
    h = near[42]
    text = ("game: duel\nplayer: a\n" + "".join(f"{x.q} {x.r} MMMMMM\n" for x in near[:43])
            + "player: b\n" + "".join(f"{x.q} {x.r} MMMMMM\n" for x in near[:42]))
    gid = new_game(app, text)
    html = client.get(f"/play/{gid}", headers=HX).data.decode()
    flags = re.search(r'<ul class="box-flags" role="alert">.*?</ul>', html, re.S)
    assert flags is not None
    assert (f"Tile MMMMMM at ({h.q}, {h.r}): the box holds only 42 landscape tiles per "
            "player.") in flags.group(0)
    assert f'data-tiles="{h.q},{h.r}" data-flag="tile-over-box"' in flags.group(0)
    # the tile b would place beyond the box is flagged before it is placed
    chosen = client.get(f"/play/{gid}?player=b&at={h.q},{h.r}&tile=MMMMMM",
                        headers=HX).data.decode()
    before = re.search(r'<ul class="box-flags chosen-flags".*?</ul>', chosen, re.S)
    assert before is not None and "the box holds only 42 landscape tiles" in before.group(0)
    client.set_cookie("lang", "de")
    german = client.get(f"/play/{gid}", headers=HX).data.decode()
    assert (f"Plättchen MMMMMM bei ({h.q}, {h.r}): die Schachtel enthält nur 42 "
            "Landschaftsplättchen je Spieler.") in german


def test_the_recorder_and_the_dispute_page_share_the_picker_markup(
        app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START)
    play = client.get(f"/play/{gid}?at=1,-1", headers=HX).data.decode()
    dispute = client.get(f"/games/{gid}/dispute?at=1,-1").data.decode()

    def items(html: str) -> list[str]:
        picks = re.search(r'<ul class="catalogue picks">(.*?)</ul>', html, re.S)
        assert picks is not None
        return re.findall(r'<li data-code="([A-Z]{6})"', picks.group(1))

    assert items(play) and items(play) == items(dispute)
    rotated = client.get(f"/play/{gid}?at=1,-1&tile=GGMTTM", headers=HX).data.decode()
    assert rotated.count(' data-rot="') == 6 and 'aria-label="Rotate right"' in rotated
