"""The owner can revoke share links: new links, the old ones open nothing, and a browser
that opened an old one loses its access (a leaked edit link stops working)."""

from __future__ import annotations

import re

from flask import Flask

from tests.helpers.webtools import browser

RECORD = "game: board-game\n0 0 GGGGGG task=grain/4\n"


def _links(page: str) -> list[str]:
    return re.findall(r'class="share-link" readonly value="https?://[^/]+(/[sc]/[^"]+)"', page)


def test_new_game_links_revoke_the_old_ones_and_their_grants(app: Flask) -> None:
    owner, tok = browser(app)
    r = owner.post("/games/import", data={"csrf_token": tok, "record": RECORD})
    game = r.headers["Location"]
    view, edit = _links(owner.get(game).get_data(as_text=True))
    friend, _ftok = browser(app)
    assert friend.get(edit).status_code == 303
    assert friend.get(game).status_code == 200
    assert "/edit" in friend.get(game).get_data(as_text=True)

    stranger, _stok = browser(app)
    assert stranger.post(f"{game}/share/new", data={"csrf_token": _stok}).status_code == 404
    assert owner.post(f"{game}/share/new", data={"csrf_token": tok}).status_code == 303

    assert friend.get(game).status_code == 404  # the grant of the old link is gone
    assert friend.get(edit).status_code == 404 and friend.get(view).status_code == 404
    new_view, new_edit = _links(owner.get(game).get_data(as_text=True))
    assert {new_view, new_edit}.isdisjoint({view, edit})
    assert friend.get(new_view).status_code == 303
    assert friend.get(game).status_code == 200
    assert friend.get(f"{game}/edit").status_code == 403  # view link: looks, not edits
    assert owner.get(game).status_code == 200  # the owner keeps the game


def test_new_campaign_links_revoke_the_old_ones(app: Flask) -> None:
    owner, tok = browser(app, "/campaigns")
    r = owner.post("/campaigns", data={"csrf_token": tok, "name": "Sunday", "players": "A"})
    campaign = r.headers["Location"]
    view, edit = _links(owner.get(campaign).get_data(as_text=True))
    friend, ftok = browser(app, "/campaigns")
    assert friend.get(edit).status_code == 303 and friend.get(campaign).status_code == 200
    assert friend.post(f"{campaign}/share/new", data={"csrf_token": ftok}).status_code == 403
    assert owner.post(f"{campaign}/share/new", data={"csrf_token": tok}).status_code == 303
    assert friend.get(campaign).status_code == 404
    assert friend.get(edit).status_code == 404
