"""CSRF on every form, request size limits (friendly 413), friendly 400/403/500 pages
without stack traces, language choice (Accept-Language, the footer switch)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app, records
from companion.web.db import get_db
from tests.helpers.webtools import HX, RECORD, csrf_token


def token(client: FlaskClient) -> str:
    return csrf_token(client)


def forms(app: Flask, client: FlaskClient) -> list[str]:
    with client.session_transaction() as s:
        owner = s.get("owner")
    with app.app_context():
        game_id = records.create_game(get_db(), RECORD, str(owner))
    return ["/score", "/games/new", "/games/import", f"/games/{game_id}/edit",
            f"/games/{game_id}/finish", "/language"]


def test_every_form_refuses_a_missing_or_wrong_token(app: Flask, client: FlaskClient) -> None:
    token(client)
    for url in forms(app, client):
        for data in ({}, {"csrf_token": "forged"}):
            r = client.post(url, data={**data, "record": RECORD, "version": "1",
                                       "lang": "de"})
            assert r.status_code == 400, url
            assert b"expired or came from another site" in r.data
        r = client.post(url, data={"record": RECORD}, headers={**HX, "X-CSRF-Token": "nope"})
        assert r.status_code == 400 and b"<html" not in r.data


def test_a_token_from_another_browser_is_refused(app: Flask) -> None:
    a, b = app.test_client(), app.test_client()
    tok_a = token(a)
    token(b)
    assert b.post("/score", data={"csrf_token": tok_a, "record": RECORD}).status_code == 400
    assert a.post("/score", data={"csrf_token": tok_a, "record": RECORD}).status_code == 200


def test_htmx_header_token_is_accepted(client: FlaskClient) -> None:
    tok = token(client)
    r = client.post("/score", data={"record": RECORD}, headers={**HX, "X-CSRF-Token": tok})
    assert r.status_code == 200


def test_every_page_form_carries_the_token(client: FlaskClient) -> None:
    for url in ("/", "/score", "/games/new", "/games/import"):
        html = client.get(url).get_data(as_text=True)
        for form in re.findall(r'<form[^>]*method="post".*?</form>', html, re.S):
            assert 'name="csrf_token"' in form, url


def test_too_large_record_gets_friendly_413(app: Flask, client: FlaskClient) -> None:
    tok = token(client)
    huge = "# " + "x" * (app.config["RECORD_MAX_BYTES"] + 10) + "\n"
    for headers in ({}, HX):
        r = client.post("/score", data={"csrf_token": tok, "record": huge}, headers=headers)
        assert r.status_code == 413
        assert b"too large" in r.data and b"Traceback" not in r.data
        assert (b"<html" in r.data) == (not headers)
    r = client.post("/api/score", data=huge, content_type="text/plain")
    assert r.status_code == 413


def test_server_error_page_has_no_trace(tmp_path: Path) -> None:
    app = create_app({"TESTING": False, "DATABASE": str(tmp_path / "e.sqlite"),
                      "SECRET_KEY": "test", "PROPAGATE_EXCEPTIONS": False})

    def broken() -> str:
        raise RuntimeError("secret internals")

    app.add_url_rule("/broken", "broken", broken)
    r = app.test_client().get("/broken")
    assert r.status_code == 500
    assert b"Something went wrong" in r.data
    assert b"secret internals" not in r.data and b"Traceback" not in r.data


def test_language_from_accept_language(client: FlaskClient) -> None:
    cases = {"de-DE,de;q=0.9": "Deine Partien", "pt-BR": "Suas partidas",
             "pt-PT": "Suas partidas", "es-AR,es;q=0.8": "Tus partidas",
             "fr-FR": "Your games", "": "Your games"}
    for header, heading in cases.items():
        html = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
        assert f"<h2>{heading}</h2>" in html, header


def test_language_switch_sets_cookie_and_returns(client: FlaskClient) -> None:
    tok = token(client)
    r = client.post("/language", data={"csrf_token": tok, "lang": "es", "next": "/rules?q=flag"})
    assert r.status_code == 303 and r.headers["Location"] == "/rules?q=flag"
    assert "lang=es" in r.headers["Set-Cookie"]
    html = client.get("/rules", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "<h1>Reglas</h1>" in html and 'lang="es"' in html
    r = client.post("/language", data={"csrf_token": tok, "lang": "pt_BR",
                                       "next": "https://evil.example/"})
    assert r.headers["Location"] == "/"
    assert "Regras" in client.get("/rules").get_data(as_text=True)
    assert client.post("/language", data={"csrf_token": tok, "lang": "xx"}).status_code == 400


def test_rules_page_translated_and_searchable_in_each_language(client: FlaskClient) -> None:
    for lang, word, title in (("de", "Fahne", "Der Wertungsblock des Brettspiels"),
                              ("es", "bandera", "La hoja de puntuación del juego de mesa"),
                              ("pt-BR", "bandeira", "A folha de pontuação do jogo de tabuleiro")):
        html = client.get(f"/rules?q={word}", headers={"Accept-Language": lang}).get_data(
            as_text=True)
        assert title in html, lang
        assert "Placing a tile" not in html


@pytest.mark.parametrize("url", ["/games/{}", "/games/{}.dorf", "/play/{}", "/campaigns/{}",
                                 "/campaigns/{}.txt", "/games/1/photos/{}.jpg"])
@pytest.mark.parametrize("number", [str(2**63), str(2**64), "9" * 5000])
def test_an_id_beyond_a_row_id_is_not_found(client: FlaskClient, url: str, number: str) -> None:
    assert client.get(url.format(number)).status_code == 404


@pytest.mark.parametrize("version", [str(2**63), "9" * 5000, "-" + "9" * 30])
def test_a_version_beyond_any_number_is_a_bad_request(client: FlaskClient,
                                                      version: str) -> None:
    token = csrf_token(client)
    r = client.post("/games/new", data={"kind": "board-game", "players": "Ana",
                                        "csrf_token": token})
    game = r.headers["Location"].rstrip("/").split("/")[-1]
    r = client.post(f"/play/{game}/undo", data={"version": version, "csrf_token": token})
    assert r.status_code == 400
