"""Disputes answered by the engine ("may this tile go here?", "what happens to my
tasks?") on any position of a game, and the searchable rules page with its rulings."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import (
    RULINGS,
    Board,
    Hex,
    canonical,
    catalogue,
    fit,
    parse_record,
    replay,
    rotate,
)
from companion.web import records
from companion.web.db import get_db
from companion.web.disputes.views import board_at, rule_on
from tests.helpers.webtools import HX

OWNER = "disputes-owner"
# grain/4 task tile at the centre; three more grain tiles would complete it
GAME = """game: board-game
0 0 GGGGGG task=grain/4
0 -1 MMMGMM
1 -1 MGGMGG flag=grain
"""


@pytest.fixture()
def owner() -> str:
    return OWNER


@pytest.fixture()
def game_id(app: Flask) -> int:
    with app.app_context():
        return records.create_game(get_db(), GAME, OWNER)


def current_board() -> Board:
    return replay(parse_record(GAME)).board


def test_rule_on_matches_engine_and_leaves_board_unchanged() -> None:
    board = current_board()
    before = (dict(board.tiles), [(m.state, m.turn) for m in board.markers])
    for at, code in ((Hex(1, 0), "MMMMMG"), (Hex(1, 0), "TMMMMM"), (Hex(0, 0), "GGGGGG"),
                     (Hex(5, 5), "GGGGGG")):
        ruling = rule_on(board, "board-game", at, code, 0, None)
        placement = parse_record(f"game: board-game\n{at.q} {at.r} {code}\n").placements[0]
        assert ruling.reason == board.why_illegal(placement)
        assert ruling.legal == (ruling.reason is None)
    assert (dict(board.tiles), [(m.state, m.turn) for m in board.markers]) == before


def test_completing_marker_is_reported() -> None:
    board = current_board()
    assert board.territory_size(Hex(0, 0), "G") == 3
    ruling = rule_on(board, "board-game", Hex(1, 0), "GGGGGG", 0, None)
    assert ruling.legal
    assert [(c.task, c.at, c.state) for c in ruling.changes] == [
        ("grain/4", "(0, 0)", "completed")]
    assert "exactly 4" in ruling.changes[0].reason
    far = rule_on(board, "board-game", Hex(0, -2), "MMMMMM", 0, None)
    assert far.legal and not far.changes
    assert [(c.task, c.state) for c in far.still_active] == [("grain/4", "active")]
    assert "3 of 4" in far.still_active[0].reason


def test_new_task_marker_status_is_reported() -> None:
    ruling = rule_on(current_board(), "board-game", Hex(1, 0), "GGGGGG", 0, "grain/6")
    assert ruling.legal
    assert [(c.task, c.new) for c in ruling.still_active] == [("grain/6", True)]


def test_task_tile_refused_when_its_marker_cannot_be_met() -> None:
    board = current_board()
    board.push(parse_record("game: board-game\n1 0 GGGGGG\n").placements[0])
    board.push(parse_record("game: board-game\n0 1 GGGGGG\n").placements[0])
    ruling = rule_on(board, "board-game", Hex(-1, 1), "GGGGGG", 0, "grain/4")
    assert not ruling.legal and "would fail at once" in (ruling.reason or "")
    assert 0 not in ruling.legal_rotations


def test_board_at_earlier_position() -> None:
    record = parse_record(GAME)
    assert len(board_at(record, None, 1).tiles) == 1
    assert len(board_at(record, None, None).tiles) == 3


def test_dispute_page_legal_and_illegal(client: FlaskClient, game_id: int) -> None:
    base = f"/games/{game_id}/dispute"
    ok = client.get(f"{base}?q=1&r=0&code=MMMMMG&rotation=0")
    assert ok.status_code == 200 and b"Yes, this tile may go here." in ok.data
    bad = client.get(f"{base}?q=1&r=0&code=TMMMMM&rotation=0", headers=HX)
    assert bad.status_code == 200 and b"No, this tile may not go here:" in bad.data
    assert b"<html" not in bad.data
    reason = current_board().why_illegal(parse_record(
        "game: board-game\n1 0 TMMMMM\n").placements[0])
    assert reason and reason.replace("'", "&#39;") in bad.get_data(as_text=True)
    far = client.get(f"{base}?q=9&r=9&code=GGGGGG")
    assert b"touches no placed tile" in far.data
    rotated = client.get(f"{base}?q=1&r=0&code=MMMMMG&rotation=3").get_data(as_text=True)
    assert f"<code>1 0 {rotate('MMMMMG', 3)}</code>" in rotated


def test_dispute_at_earlier_turn(client: FlaskClient, game_id: int) -> None:
    html = client.get(f"/games/{game_id}/dispute?q=0&r=-1&code=MMMGMM&turn=1").get_data(
        as_text=True)
    assert "Yes, this tile may go here." in html and "after 1 placement" in html


def test_dispute_bad_input_is_one_line(client: FlaskClient, game_id: int) -> None:
    r = client.get(f"/games/{game_id}/dispute?q=a&r=0&code=GGGGGG")
    assert r.status_code == 400 and b"two whole numbers" in r.data
    r = client.get(f"/games/{game_id}/dispute?q=1&r=0&code=GGGGGX")
    assert r.status_code == 400 and b"Traceback" not in r.data
    r = client.get(f"/games/{game_id}/dispute?q=1&r=0&code=GGGGGG&task=forest/9")
    assert r.status_code == 400


def test_dispute_needs_access(app: Flask, game_id: int) -> None:
    assert app.test_client().get(f"/games/{game_id}/dispute").status_code == 404


def test_rules_page_shows_every_ruling_with_switch(client: FlaskClient) -> None:
    html = client.get("/rules").get_data(as_text=True)
    for rid, ruling in RULINGS.items():
        assert f'id="{rid}"' in html
        if ruling.switchable:
            assert f"<code>rulings: {ruling.switch}</code>" in html
    assert html.count("cannot be switched off") == sum(
        not r.switchable for r in RULINGS.values())


def test_rules_search_filters_sections(client: FlaskClient) -> None:
    everything = client.get("/rules").get_data(as_text=True)
    flags = client.get("/rules?q=flag").get_data(as_text=True)
    assert len(re.findall(r'class="rule-section"', flags)) < len(
        re.findall(r'class="rule-section"', everything))
    assert "yellow flag" in flags and "Placing a tile" not in flags
    hill = client.get("/rules?q=hill distance").get_data(as_text=True)
    assert 'id="R-5"' in hill and 'id="R-2"' not in hill
    none = client.get("/rules?q=zzzqqq")
    assert b"Nothing matches" in none.data
    frag = client.get("/rules?q=flag", headers=HX)
    assert b"<html" not in frag.data and b"yellow flag" in frag.data


def test_free_spaces_are_links_keeping_the_tile(client: FlaskClient, game_id: int) -> None:
    html = client.get(f"/games/{game_id}/dispute?q=1&r=0&code=TMMMMM&rotation=2").get_data(
        as_text=True)
    links = dict(re.findall(r'<a class="slot[^"]*" href="([^"]+)" data-q="(-?\d+)"', html))
    frontier = current_board().frontier()
    assert len(links) == len(frontier)
    for link in links:
        assert "code=TMMMMM" in link and "rotation" not in link
    assert {link.rsplit("at=", 1)[1] for link in links} == {f"{h.q},{h.r}" for h in frontier}
    assert re.search(r'class="slot[^"]* selected" href="[^"]*at=1,0"', html)


def _picks(html: str) -> list[tuple[str, str]]:
    """(code, link) of every tile of the picker, in order."""
    return [(code, link.replace("&amp;", "&")) for code, link in re.findall(
        r'<li data-code="([A-Z]{6})"(?: class="perfect")?><a href="([^"]+)"', html)]


def test_tapping_a_hex_shows_the_recorders_picker(client: FlaskClient, game_id: int) -> None:
    from companion.rules import load_position
    from companion.web.play.views import picker

    html = client.get(f"/games/{game_id}/dispute?at=1,0").get_data(as_text=True)
    assert "Tiles that fit here" in html
    position = load_position(GAME)
    expected = picker(position, position.board(), Hex(1, 0))
    shown = _picks(html)
    assert [c for c, _link in shown] == [p.code for p in expected]  # best match first
    assert expected[0].fit.perfect
    for (code, link), p in zip(shown, expected, strict=True):
        assert link.endswith(f"code={code}&rotation={p.fit.rotation}")
    on_map = {canonical(p.code) for p in current_board().history}
    placed_once = {canonical(t.code) for t in catalogue()
                   if sum(canonical(u.code) == canonical(t.code) for u in catalogue()) == 1}
    assert not {canonical(c) for c, _link in shown} & on_map & placed_once


def test_tapping_a_tile_answers_with_rotate_buttons(client: FlaskClient, game_id: int) -> None:
    html = client.get(f"/games/{game_id}/dispute?at=1,0").get_data(as_text=True)
    code, link = _picks(html)[0]
    answer = client.get(link).get_data(as_text=True)
    assert "Yes, this tile may go here." in answer
    assert "Tiles that fit here" not in answer
    buttons = re.findall(r'<a class="rot([^"]*)" data-rot="(\d)"\s+href="([^"]+)"', answer)
    assert len(buttons) == len({rotate(code, k) for k in range(6)})
    assert any("current" in cls for cls, _k, _h in buttons)
    grain = client.get(f"/games/{game_id}/dispute?at=1,0&code=GGGGGG").get_data(as_text=True)
    assert "grain/4 at (0, 0): completed" in grain
    buttons = re.findall(r'<a class="rot([^"]*)" data-rot="(\d)"\s+href="([^"]+)"', grain)
    assert [int(k) for _c, k, _h in buttons] == [0]  # GGGGGG has one rotation
    turned = client.get(f"/games/{game_id}/dispute?at=1,0&code=TMMMMM&rotation=0").get_data(
        as_text=True)
    assert "No, this tile may not go here:" in turned
    buttons = re.findall(r'<a class="rot([^"]*)" data-rot="(\d)"\s+href="([^"]+)"', turned)
    assert len(buttons) == 6
    legal = [int(k) for cls, k, _h in buttons if "legal" in cls]
    assert legal and all(f"code=TMMMMM&amp;rotation={k}" in h for _c, k, h in buttons)
    ok = client.get(f"/games/{game_id}/dispute?at=1,0&code=TMMMMM&rotation={legal[0]}")
    assert b"Yes, this tile may go here." in ok.data
    assert re.search(rf'class="rot legal current" data-rot="{legal[0]}"', ok.get_data(
        as_text=True))
    assert b'class="rot-step"' in ok.data


def test_typed_tile_gets_its_best_rotation(client: FlaskClient, game_id: int) -> None:
    html = client.get(f"/games/{game_id}/dispute?at=1,0&code=mmmmmg").get_data(as_text=True)
    best = fit(current_board(), Hex(1, 0), "MMMMMG")
    assert best is not None
    assert f"<code>1 0 {rotate('MMMMMG', best.rotation)}</code>" in html
    assert "Yes, this tile may go here." in html


def test_did_that_task_fail_with_the_picker(client: FlaskClient, game_id: int) -> None:
    base = f"/games/{game_id}/dispute"
    html = client.get(f"{base}?at=1,0&code=GGGGGG&rotation=0").get_data(as_text=True)
    assert 'name="task"' in html and 'name="code" value="GGGGGG"' in html
    task = client.get(f"{base}?at=1,0&code=GGGGGG&rotation=0&task=grain/6").get_data(
        as_text=True)
    assert "Still open" in task and "grain/6 at (1, 0)" in task
    fails = client.get(f"{base}?at=1,0&code=GGGGGG&rotation=0&task=grain/1")
    assert fails.status_code == 400


def test_a_tile_the_box_holds_no_more_of_is_flagged(client: FlaskClient, app: Flask) -> None:
    text = "game: board-game\n0 0 GGMTTM task=grain/4\n"
    with app.app_context():
        gid = records.create_game(get_db(), text, OWNER)
    html = client.get(f"/games/{gid}/dispute?at=0,1&code=TTMGGM").get_data(as_text=True)
    assert 'data-flag="tile-over-box"' in html
    assert "the box holds no more copies of it" in html
    picked = client.get(f"/games/{gid}/dispute?at=0,1").get_data(as_text=True)
    assert canonical("GGMTTM") not in {canonical(c) for c, _link in _picks(picked)}


DUEL = """game: duel
modules: 2
player: ana
0 0 GGGGGG task=grain/4
1 0 VVVVVV special=school
player: ben
0 0 GGGGGG task=grain/4
"""


def test_duel_picks_recent_patterns_and_types_other_tiles(client: FlaskClient,
                                                          app: Flask) -> None:
    with app.app_context():
        gid = records.create_game(get_db(), DUEL, OWNER)
    base = f"/games/{gid}/dispute"
    html = client.get(f"{base}?player=ben&at=1,0").get_data(as_text=True)
    assert [c for c, _link in _picks(html)] == ["GGGGGG", "VVVVVV"]  # best match first
    assert f'href="/games/{gid}/dispute?player=ana"' in html
    other = client.get(f"{base}?player=ana&at=-1,0&code=VVVVVV").get_data(as_text=True)
    assert "Yes, this tile may go here." in other
    typed = client.get(f"{base}?player=ana&at=0,1").get_data(as_text=True)
    assert 'class="other-tile"' in typed
    assert 'name="code"' in typed and 'name="at" value="0,1"' in typed


def _pick_items(html: str) -> list[str]:
    section = re.search(r'<section class="picker".*?</section>', html, re.S)
    assert section, "no picker"
    return re.findall(r'<li data-code="[A-Z]{6}"[^>]*>.*?</li>', section.group(0), re.S)


def test_the_picker_is_the_recorders(client: FlaskClient, game_id: int) -> None:
    """The same tiles, order, badges and counts as the recorder's picker on that hex (the
    shared templates/_tile_picker.html); only the links differ."""
    recorder = _pick_items(client.get(f"/play/{game_id}?at=1,0").get_data(as_text=True))
    dispute = _pick_items(client.get(f"/games/{game_id}/dispute?at=1,0").get_data(
        as_text=True))

    def without_links(items: list[str]) -> list[str]:
        return [re.sub(r'href="[^"]*"', "", re.sub(r"\s+", " ", i)) for i in items]

    assert recorder and without_links(dispute) == without_links(recorder)


def test_a_taken_hex_says_so(client: FlaskClient, game_id: int) -> None:
    html = client.get(f"/games/{game_id}/dispute?at=0,0").get_data(as_text=True)
    assert "This space already holds a tile." in html
    asked = client.get(f"/games/{game_id}/dispute?at=0,0&code=GGGGGG").get_data(as_text=True)
    assert "No, this tile may not go here:" in asked


def test_a_duel_landscape_tile_beyond_the_box_is_flagged(client: FlaskClient,
                                                          app: Flask) -> None:
    from companion.rules.hexgrid import distance, within

    near = [Hex(0, 0), *sorted(within(Hex(0, 0), 5),
                               key=lambda h: (distance(h, Hex(0, 0)), h.q, h.r))]
    text = ("game: duel\nplayer: a\n" + "".join(f"{h.q} {h.r} MMMMMM\n" for h in near[:42])
            + "player: b\n0 0 MMMMMM\n")
    with app.app_context():
        gid = records.create_game(get_db(), text, OWNER)
    h = near[42]
    html = client.get(f"/games/{gid}/dispute?player=a&at={h.q},{h.r}&code=MMMMMM").get_data(
        as_text=True)
    assert "Yes, this tile may go here." in html
    assert (f"Tile MMMMMM at ({h.q}, {h.r}): the box holds only 42 landscape tiles per "
            "player.") in html
    ben = client.get(f"/games/{gid}/dispute?player=b&at=1,0&code=MMMMMM").get_data(
        as_text=True)
    assert "box-flags" not in ben
