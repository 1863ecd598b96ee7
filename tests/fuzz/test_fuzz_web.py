"""Every form and API of the web app, through the real Flask test client, on fuzzed fields
and ids: no 500, no traceback, an answer within bounded time."""

from __future__ import annotations

import io
import time
import zipfile

from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers.fuzz_strategies import CAMPAIGN, CODE, FUZZ, HUGE, NUMBER, RECORD, TEXT

ID = st.one_of(st.integers(0, 5).map(str), HUGE, st.integers(2**62, 2**70).map(str))
FIELD = st.one_of(NUMBER, CODE, st.text(max_size=40),
                  st.sampled_from(["forest", "grain", "village", "track", "stream", "red",
                                   "board-game", "duel", "start-box1", "great-mill", "pt_BR"]))

# (method, url with {game}/{campaign}/{id} slots, the fields the route reads)
ROUTES: list[tuple[str, str, tuple[str, ...]]] = [
    ("POST", "/play/{game}/place", ("q", "r", "code", "tile", "task", "value", "version",
                                     "player", "flag", "special")),
    ("POST", "/play/{game}/undo", ("version",)),
    ("POST", "/play/{game}/redo", ("version",)),
    ("POST", "/play/{game}/completed", ("type", "value", "version")),
    ("POST", "/play/{game}/completed/remove", ("index", "version")),
    ("GET", "/play/{game}", ("tile", "at", "code", "player", "task", "q", "r", "new")),
    ("GET", "/play/{game}/end", ("tile", "at", "explain")),
    ("GET", "/play/{game}/map", ("explain",)),
    ("GET", "/games/{game}/dispute", ("q", "r", "code", "task", "turn", "player")),
    ("POST", "/games/{game}/edit", ("record", "version")),
    ("POST", "/games/{game}/finish", ("version", "finished")),
    ("POST", "/games/{game}/photos/review/tile", ("q", "r", "code", "version", "task",
                                                   "flag")),
    ("POST", "/games/{game}/photos/review/delete", ("q", "r", "version")),
    ("POST", "/games/{game}/photos/confirm", ("version", "game_version")),
    ("POST", "/games/new", ("kind", "players", "cards", "modules")),
    ("POST", "/score", ("record",)),
    ("POST", "/language", ("lang", "next")),
    ("POST", "/campaigns", ("name", "players")),
    ("POST", "/campaigns/{campaign}/cross", ("path", "from", "version")),
    ("POST", "/campaigns/{campaign}/achieve", ("achievement", "version")),
    ("POST", "/campaigns/{campaign}/score", ("score", "version")),
    ("POST", "/campaigns/{campaign}/undo", ("version",)),
    ("POST", "/campaigns/{campaign}/confirm", ("version",)),
    ("POST", "/campaigns/{campaign}/games/new", ("version",)),
    ("GET", "/campaigns/{campaign}", ()),
    ("GET", "/campaigns/{campaign}/history", ()),
]
ID_ROUTES = ["/games/{id}", "/games/{id}.dorf", "/play/{id}", "/campaigns/{id}",
             "/campaigns/{id}.txt", "/campaigns/{id}.zip", "/games/{id}/photos/{id}.jpg",
             "/campaigns/{id}/games/{id}", "/games/{id}/dispute", "/s/{id}", "/c/{id}"]


def _check(response_status: int, started: float) -> None:
    assert response_status < 500, response_status
    assert time.monotonic() - started < 10.0


@FUZZ
@given(st.sampled_from(ROUTES), st.data())
def test_forms_never_fail_with_500(client: FlaskClient, game_id: int, campaign_id: int,
                                   route: tuple[str, str, tuple[str, ...]],
                                   data: st.DataObject) -> None:
    method, url, fields = route
    url = url.format(game=game_id, campaign=campaign_id)
    values = {name: data.draw(FIELD, label=name) for name in fields
              if data.draw(st.booleans(), label=f"send {name}")}
    if "record" in fields and data.draw(st.booleans(), label="a real record"):
        values["record"] = data.draw(RECORD, label="record")
    started = time.monotonic()
    if method == "GET":
        r = client.get(url, query_string=values)
    else:
        r = client.post(url, data=values, headers={"HX-Request": "true"}
                        if data.draw(st.booleans(), label="htmx") else {})
    _check(r.status_code, started)
    assert b"Traceback" not in r.data


@FUZZ
@given(st.sampled_from(ID_ROUTES), ID)
def test_any_id_in_a_url_is_not_found_or_refused(client: FlaskClient, url: str,
                                                 some_id: str) -> None:
    started = time.monotonic()
    r = client.get(url.format(id=some_id))
    _check(r.status_code, started)


@FUZZ
@given(TEXT)
def test_api_score(client: FlaskClient, text: str) -> None:
    started = time.monotonic()
    r = client.post("/api/score", data=text.encode("utf-8"),
                    headers={"Content-Type": "text/plain"})
    _check(r.status_code, started)
    assert r.is_json


@FUZZ
@given(CAMPAIGN)
def test_api_campaign(client: FlaskClient, text: str) -> None:
    started = time.monotonic()
    r = client.post("/api/campaign", data=text.encode("utf-8"),
                    headers={"Content-Type": "text/plain"})
    _check(r.status_code, started)


@FUZZ
@given(TEXT)
def test_game_import(client: FlaskClient, text: str) -> None:
    started = time.monotonic()
    r = client.post("/games/import", data={"record": text})
    _check(r.status_code, started)


PHOTO_HEADERS = [b"\xff\xd8\xff\xe0\x00\x10JFIF\x00", b"\x89PNG\r\n\x1a\n",
                 b"RIFF\x00\x00\x00\x00WEBPVP8 ", b"\x00\x00\x00\x18ftypheic", b"GIF89a"]


@FUZZ
@given(st.sampled_from(PHOTO_HEADERS), st.binary(max_size=2000))
def test_photo_uploads_with_a_photo_header_and_garbage(client: FlaskClient, game_id: int,
                                                      header: bytes, rest: bytes) -> None:
    for url in ("/api/scan", f"/games/{game_id}/photos"):
        started = time.monotonic()
        r = client.post(url, data={"photo": (io.BytesIO(header + rest), "table.jpg")},
                        content_type="multipart/form-data")
        _check(r.status_code, started)
        assert r.status_code in (400, 413, 422, 503), r.status_code


def _zip(entries: list[tuple[str, bytes]], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        for name, content in entries:
            z.writestr(name, content)
    return buf.getvalue()


def _crafted_zips() -> list[bytes]:
    good = _zip([("campaign.txt", b"campaign: x\ngame: 120\n"), ("games/1.dorf", b"game: x")])
    bad_crc = bytearray(good)
    at = bad_crc.find(b"campaign.txt") + len("campaign.txt")
    bad_crc[at + 2] ^= 0xFF  # a byte of the stored data: the CRC no longer matches
    unknown = bytearray(_zip([("campaign.txt", b"game: 100\n")], zipfile.ZIP_STORED))
    unknown[8:10] = (99).to_bytes(2, "little")  # compression method 99 in the local header
    central = unknown.find(b"PK\x01\x02")
    unknown[central + 10:central + 12] = (99).to_bytes(2, "little")
    encrypted = bytearray(_zip([("campaign.txt", b"game: 100\n")]))
    encrypted[6] |= 1  # the "encrypted" flag bit
    central = encrypted.find(b"PK\x01\x02")
    encrypted[central + 8] |= 1
    deep = _zip([("/".join(["d"] * 200) + "/campaign.txt", b"game: 100\n")])
    many = _zip([(f"games/{i}.dorf", b"game: board-game\n0 0 MMMMMM\n") for i in range(3000)])
    empty = b"PK\x05\x06" + b"\0" * 18
    return [bytes(bad_crc), bytes(unknown), bytes(encrypted), deep, many, empty,
            good[: len(good) // 2]]


def test_crafted_zips_are_refused_politely(client: FlaskClient) -> None:
    for blob in _crafted_zips():
        started = time.monotonic()
        r = client.post("/campaigns/import", data={"file": (io.BytesIO(blob), "c.zip")},
                        content_type="multipart/form-data")
        _check(r.status_code, started)


@FUZZ
@given(st.binary(max_size=3000))
def test_any_bytes_as_a_zip(client: FlaskClient, blob: bytes) -> None:
    started = time.monotonic()
    r = client.post("/campaigns/import", data={"file": (io.BytesIO(b"PK\x03\x04" + blob),
                                                        "c.zip")},
                    content_type="multipart/form-data")
    _check(r.status_code, started)
