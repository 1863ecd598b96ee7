"""Games: new game, import, download round trip, share links (view vs edit), strangers
refused, optimistic concurrency (stale edit -> 409 with the current state), finishing."""

from __future__ import annotations

import io
import re

from flask import Flask
from flask.testing import FlaskClient

from companion.rules import parse_record
from companion.storage.games import get_game
from companion.web.db import get_db
from tests.helpers.webtools import HX, RECORD, browser


def stored(app: Flask, game_id: int) -> dict[str, object]:
    with app.app_context():
        return get_game(get_db(), game_id)


def import_game(c: FlaskClient, tok: str, text: str = RECORD, finished: bool = True) -> int:
    data = {"csrf_token": tok, "record": text}
    if finished:
        data["finished"] = "1"
    r = c.post("/games/import", data=data)
    assert r.status_code == 303, r.data
    found = re.search(r"/games/(\d+)$", r.headers["Location"])
    assert found
    return int(found.group(1))


def test_new_board_game(app: Flask) -> None:
    c, tok = browser(app)
    r = c.post("/games/new", data={"csrf_token": tok, "kind": "board-game",
                                   "players": "Ana, Rui"})
    assert r.status_code == 303
    game_id = int(re.findall(r"\d+", r.headers["Location"])[-1])
    record = parse_record(str(stored(app, game_id)["record"]))
    assert record.game == "board-game" and record.players == ["Ana", "Rui"]
    assert stored(app, game_id)["status"] == "in_progress"
    assert "Ana, Rui" in c.get("/").get_data(as_text=True)


def test_new_duel_with_modules_and_cards(app: Flask) -> None:
    c, tok = browser(app)
    r = c.post("/games/new", data={"csrf_token": tok, "kind": "duel", "players": "red, blue",
                                   "modules": ["1", "2"], "cards": ["large-forest",
                                                                    "many-village"]})
    assert r.status_code == 303
    game_id = int(re.findall(r"\d+", r.headers["Location"])[-1])
    record = parse_record(str(stored(app, game_id)["record"]))
    assert record.is_duel and record.modules == [1, 2]
    assert record.cards == ["large-forest", "many-village"]
    assert [s.player for s in record.sections] == ["red", "blue"]


def test_new_game_errors_keep_the_form(app: Flask) -> None:
    c, tok = browser(app)
    r = c.post("/games/new", data={"csrf_token": tok, "kind": "duel", "players": "solo",
                                   "modules": ["1"]})
    assert r.status_code == 400 and b"two to four" in r.data and b'value="solo"' in r.data
    r = c.post("/games/new", data={"csrf_token": tok, "kind": "duel", "players": "a, b",
                                   "cards": ["large-forest"]}, headers=HX)
    assert r.status_code == 400 and b"Module 1" in r.data and b"<html" not in r.data


def test_new_game_with_htmx_redirects_by_header(app: Flask) -> None:
    c, tok = browser(app)
    r = c.post("/games/new", data={"csrf_token": tok, "kind": "board-game"}, headers=HX)
    assert r.status_code == 204 and r.headers["HX-Redirect"]


def test_import_and_download_round_trip(app: Flask) -> None:
    c, tok = browser(app)
    game_id = import_game(c, tok)
    page = c.get(f"/games/{game_id}").get_data(as_text=True)
    assert 'class="pad"' in page
    r = c.get(f"/games/{game_id}.dorf")
    assert r.status_code == 200 and r.mimetype == "text/plain"
    assert f'filename="game-{game_id}.dorf"' in r.headers["Content-Disposition"]
    assert r.get_data(as_text=True) == RECORD
    # upload the downloaded file again: the same record and sheet
    r2 = c.post("/games/import", data={"csrf_token": tok, "finished": "1",
                                       "file": (io.BytesIO(r.data), "again.dorf")},
                content_type="multipart/form-data")
    assert r2.status_code == 303
    again = int(re.findall(r"\d+", r2.headers["Location"])[-1])
    assert stored(app, again)["record"] == RECORD
    assert stored(app, again)["sheet"] == stored(app, game_id)["sheet"]
    assert stored(app, again)["status"] == "finished"


def test_import_bad_record_keeps_text(app: Flask) -> None:
    c, tok = browser(app)
    bad = "game: board-game\n0 0 GGGGGG\n5 5 GGGGGG\n"
    r = c.post("/games/import", data={"csrf_token": tok, "record": bad})
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "line 3:" in html and "5 5 GGGGGG" in html


def test_strangers_are_refused_and_share_links_grant(app: Flask) -> None:
    owner, tok = browser(app)
    game_id = import_game(owner, tok, finished=False)
    row = stored(app, game_id)
    stranger, stok = browser(app)
    assert stranger.get(f"/games/{game_id}").status_code == 404  # as a missing id answers
    assert stranger.get(f"/games/{game_id}.dorf").status_code == 404
    missing = stranger.get("/games/999999").get_data(as_text=True)
    assert "not shared with you" in missing
    assert "not shared with you" in stranger.get(f"/games/{game_id}").get_data(as_text=True)

    # the view link: may look and download, may not edit
    r = stranger.get(f"/s/{row['view_token']}")
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/games/{game_id}")
    page = stranger.get(f"/games/{game_id}").get_data(as_text=True)
    assert "read only" in page and f"/games/{game_id}/edit" not in page
    assert stranger.get(f"/games/{game_id}/edit").status_code == 403
    r = stranger.post(f"/games/{game_id}/edit", data={"csrf_token": stok, "version": "1",
                                                      "record": RECORD})
    assert r.status_code == 403
    assert "share-link" not in page  # only the owner sees the links

    # the edit link: may edit
    editor, etok = browser(app)
    editor.get(f"/s/{row['edit_token']}")
    assert editor.get(f"/games/{game_id}/edit").status_code == 200
    r = editor.post(f"/games/{game_id}/edit", data={"csrf_token": etok, "version": "1",
                                                    "record": RECORD + "# edited\n"})
    assert r.status_code == 303
    assert stored(app, game_id)["version"] == 2

    owner_page = owner.get(f"/games/{game_id}").get_data(as_text=True)
    assert str(row["view_token"]) in owner_page and str(row["edit_token"]) in owner_page


def test_tokens_are_unguessable(app: Flask) -> None:
    c, tok = browser(app)
    a, b = import_game(c, tok), import_game(c, tok)
    tokens = [stored(app, g)[k] for g in (a, b) for k in ("view_token", "edit_token")]
    assert len(set(tokens)) == 4 and all(len(str(t)) >= 20 for t in tokens)


def test_stale_edit_gets_409_with_current_state(app: Flask) -> None:
    c, tok = browser(app)
    game_id = import_game(c, tok, finished=False)
    first = c.post(f"/games/{game_id}/edit", data={"csrf_token": tok, "version": "1",
                                                   "record": RECORD + "# phone one\n"})
    assert first.status_code == 303
    for headers in ({}, HX):
        late = c.post(f"/games/{game_id}/edit", data={"csrf_token": tok, "version": "1",
                                                      "record": RECORD + "# phone two\n"},
                      headers=headers)
        assert late.status_code == 409
        html = late.get_data(as_text=True)
        assert "changed this game" in html and "version 2" in html
        assert ("<html" in html) == (not headers)
        assert late.headers["X-Game-Version"] == "2"
    assert str(stored(app, game_id)["record"]).endswith("# phone one\n")


def test_edit_with_bad_record_keeps_text_and_data(app: Flask) -> None:
    c, tok = browser(app)
    game_id = import_game(c, tok, finished=False)
    r = c.post(f"/games/{game_id}/edit", data={"csrf_token": tok, "version": "1",
                                               "record": "game: chess\n"})
    assert r.status_code == 400 and b"game: chess" in r.data and b"line 1" in r.data
    assert stored(app, game_id)["record"] == RECORD and stored(app, game_id)["version"] == 1


def test_edit_htmx_answers_with_game_fragment(app: Flask) -> None:
    c, tok = browser(app)
    game_id = import_game(c, tok, finished=False)
    r = c.post(f"/games/{game_id}/edit", data={"csrf_token": tok, "version": "1",
                                               "record": RECORD}, headers=HX)
    assert r.status_code == 200 and b"<html" not in r.data
    assert r.headers["HX-Push-Url"] == f"/games/{game_id}"
    assert r.headers["X-Game-Version"] == "2"


def test_finish_game(app: Flask) -> None:
    c, tok = browser(app)
    game_id = import_game(c, tok, finished=False)
    stale = c.post(f"/games/{game_id}/finish", data={"csrf_token": tok, "version": "7"})
    assert stale.status_code == 409
    r = c.post(f"/games/{game_id}/finish", data={"csrf_token": tok, "version": "1"})
    assert r.status_code == 303
    row = stored(app, game_id)
    assert row["status"] == "finished" and row["score"] == row["sheet"]["total"]  # type: ignore[index]
    html = c.get("/").get_data(as_text=True)
    assert f"/games/{game_id}" in html.split("<h2>Finished</h2>")[1]


def test_missing_version_is_a_bad_request(app: Flask) -> None:
    c, tok = browser(app)
    game_id = import_game(c, tok, finished=False)
    r = c.post(f"/games/{game_id}/edit", data={"csrf_token": tok, "record": RECORD})
    assert r.status_code == 400 and b"Traceback" not in r.data
