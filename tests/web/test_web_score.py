"""The score page and ``POST /api/score``: the sheet laid out like the pads, every
number openable, tiles behind a number marked for the map, bad records refused with
their line while the text is kept."""

from __future__ import annotations

import io
import re

from flask.testing import FlaskClient

from companion.rules import score_text
from companion.web.games.sheet import duel_rows, pad_rows, tiles_attr
from tests.helpers.webtools import DATA, HX, RECORD, csrf_token

PAD_ORDER = ["B1", "B2", "B3", "B4", "B5", "S1", "C1", "C2", "C3", "D1", "D2", "S2",
             "S3", "H"]


def token(client: FlaskClient) -> str:
    return csrf_token(client, "/score")


def post_score(client: FlaskClient, text: str, headers: dict[str, str] | None = None,
               **files: tuple[io.BytesIO, str]):  # type: ignore[no-untyped-def]
    data: dict[str, object] = {"csrf_token": token(client), "record": text, **files}
    return client.post("/score", data=data, headers=headers or {},
                       content_type="multipart/form-data")


def pad_values(html: str) -> dict[str, int]:
    rows = re.findall(r'<span class="pad-id">([A-Z]\d?)</span><span class="pad-label">[^<]*'
                      r'</span><span class="pad-value">(-?\d+)</span>', html)
    return {pad: int(v) for pad, v in rows if pad != "E"}


def test_score_page_shows_pad_in_order_with_engine_numbers(client: FlaskClient) -> None:
    r = post_score(client, RECORD)
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    ids = re.findall(r'<span class="pad-id">([A-Z]\d?)</span>', html)
    assert [i for i in ids if i != "E"] == PAD_ORDER
    sheet = score_text(RECORD)
    values = pad_values(html)
    assert values == {pad: sheet["pad"][pad] for pad in PAD_ORDER if pad in sheet["pad"]} | {
        "S3": sheet["unlocked_total"]}
    assert html.count("<details class=\"pad-row") == len(ids)


def test_explanations_mark_the_tiles_on_the_map(client: FlaskClient) -> None:
    html = post_score(client, RECORD).get_data(as_text=True)
    sheet = score_text(RECORD)
    flags = sheet["explanations"]["flags.village"]
    expected = tiles_attr(flags)
    assert expected, "the test record must have village flag tiles"
    assert f'data-tiles="{expected}"' in html
    hexes = set(re.findall(r'<g class="tile[^"]*" data-hex="(-?\d+,-?\d+)"', html))
    assert set(expected.split()) <= hexes
    assert flags["text"].split(":")[0] in html


def test_fragment_versus_full_page(client: FlaskClient) -> None:
    full = post_score(client, RECORD)
    frag = post_score(client, RECORD, headers=HX)
    assert b"<html" in full.data and b"<html" not in frag.data
    assert b'class="pad"' in frag.data
    assert "HX-Request" in frag.headers["Vary"]


def test_bad_record_keeps_text_and_names_the_line(client: FlaskClient) -> None:
    bad = "game: board-game\n0 0 GGGGGG\n1 0 XXXXXX flag=grain\n"
    for headers in ({}, HX):
        r = post_score(client, bad, headers=headers)
        assert r.status_code == 400
        html = r.get_data(as_text=True)
        error = re.search(r'id="record-error" role="alert">([^<]*)<', html)
        assert error and error.group(1).startswith("line 3:")
        assert "1 0 XXXXXX flag=grain" in html  # the text stays in the form
        assert 'aria-invalid="true"' in html


def test_empty_form_is_refused(client: FlaskClient) -> None:
    r = post_score(client, "  ")
    assert r.status_code == 400 and b"Paste a record" in r.data


def test_upload_file_is_scored(client: FlaskClient) -> None:
    r = post_score(client, "", file=(io.BytesIO(RECORD.encode()), "game.dorf"))
    assert r.status_code == 200
    assert pad_values(r.get_data(as_text=True))["H"] == score_text(RECORD)["total"]


def test_upload_non_utf8_is_refused(client: FlaskClient) -> None:
    r = post_score(client, "", file=(io.BytesIO(b"\xff\xfe\x00bad"), "game.dorf"))
    assert r.status_code == 400 and b"UTF-8" in r.data


def test_api_score_json_and_line_error(client: FlaskClient) -> None:
    r = client.post("/api/score", data=RECORD, content_type="text/plain")
    assert r.status_code == 200
    assert r.get_json()["total"] == score_text(RECORD)["total"]
    bad = client.post("/api/score", data="game: board-game\n0 0 GGGGGQ\n",
                      content_type="text/plain")
    assert bad.status_code == 400
    assert bad.get_json()["error"].startswith("line 2:")


def test_warnings_are_shown(client: FlaskClient) -> None:
    text = (DATA / "bg_order_warnings.dorf").read_text()
    warnings = score_text(text)["warnings"]
    assert warnings
    html = post_score(client, text).get_data(as_text=True)
    assert 'class="warnings"' in html
    assert warnings[0]["text"].split(":")[0][:30].replace("'", "&#39;") in html


def test_pad_rows_include_unlocked_components() -> None:
    text = (DATA / "bg_circus_full.dorf").read_text()
    sheet = score_text(text)
    rows = pad_rows(sheet)
    e_rows = [r for r in rows if r.pad == "E"]
    assert len(e_rows) == len(sheet["unlocked"]) >= 1
    assert sum(r.value for r in e_rows) == next(r.value for r in rows if r.pad == "S3")
    assert rows[-1].pad == "H" and rows[-1].value == sheet["total"]


def test_duel_rows_side_by_side() -> None:
    def player(total: int) -> dict[str, object]:
        return {"tasks": {"forest": 4, "grain": 0, "village": 0, "track": 0, "stream": 0,
                          "wraparound": 3, "double": 6},
                "tasks_total": 13, "flags": {"forest": 0, "grain": 0, "village": 0},
                "bonus_total": 2, "longest": {"track": 2, "stream": 0},
                "module1": {"total": 8}, "module2": {"total": 1}, "total": total,
                "explanations": {"tasks.forest": {"value": 4, "text": "forest", "tiles": [[0, 0]],
                                                  "turns": [], "rulings": []}}}
    sheet = {"game": "duel", "players": {"red": player(24), "blue": player(20)},
             "winner": "red"}
    rows = duel_rows(sheet)
    labels = [str(r.label) for r in rows]
    assert labels[:7] == ["Forest", "Grain", "Village", "Track", "Stream", "Wraparound",
                          "Double task"]
    assert labels[-4:] == ["Subtotal", "Module 1: task cards", "Module 2: points of interest",
                           "Total"]
    by_label = dict(zip(labels, rows, strict=True))
    assert [c.value for c in by_label["Total"].cells] == [24, 20]
    assert [c.value for c in by_label["Subtotal"].cells] == [15, 15]
    assert [c.value for c in by_label["Module 1: task cards"].cells] == [8, 8]
    assert by_label["Forest"].cells[0].explanation is not None


def test_score_json_api_is_csrf_exempt_but_forms_are_not(client: FlaskClient) -> None:
    assert client.post("/api/score", data=RECORD).status_code == 200
    r = client.post("/score", data={"record": RECORD})
    assert r.status_code == 400 and b"expired" in r.data


def test_duel_record_side_by_side_with_winner(client: FlaskClient) -> None:
    text = (DATA / "duel_m1_race_won.dorf").read_text()
    sheet = score_text(text)
    html = post_score(client, text).get_data(as_text=True)
    players = list(sheet["players"])
    head = re.search(r'<div class="duel-head">(.*?)</div>', html, re.S)
    assert head and re.findall(r'class="duel-player[^"]*">([^<]+)<', head.group(1)) == players
    total_row = html.split('<span class="duel-label">Total</span>')[1].split("winner-line")[0]
    values = [int(v) for v in re.findall(r"<summary>(-?\d+)</summary>", total_row)]
    assert values == [sheet["players"][p]["total"] for p in players]
    assert f"Winner: {sheet['winner']}" in html
    assert html.count('<svg class="map"') == len(players)
    assert 'data-map="1"' in html and 'data-player="1"' in html
