"""Who may see or change a game or a campaign: the creator's cookie identity and share links.

Representation: the signed session cookie carries ``owner`` (a random
``secrets.token_urlsafe`` string created on first visit; no accounts) and, per kind of
thing shared, a dict ``{id as str: "LEVEL:EPOCH"}`` (level ``view`` or ``edit``, and the
row's share epoch when the link was opened; a bare ``LEVEL`` from older cookies is epoch 0)
added when a share link is opened:
``grants`` for games (``/s/TOKEN``), ``campaign_grants`` for campaigns (``/c/TOKEN``).
A row's access level is ``"owner"`` (its ``owner`` column is this browser), else the
granted level, else none. ``load_game(id, need)`` / ``load_campaign(id, need)`` return
the row and the level, or answer 404 when there is no such row *or* this browser has no
access at all (the two answer alike, so ids cannot be probed), 403 when a share link's
level is not enough (a viewer trying to edit: a friendly page; for a campaign
``CampaignDenied``, which the campaigns blueprint words itself). The games
of a campaign are reached through it: ``grant_game`` gives this browser the campaign's
level on one of its games.
"""

from __future__ import annotations

import secrets
from typing import Any, Literal

from flask import abort, session

from companion.storage import campaigns as storage_campaigns
from companion.storage import games as storage_games
from companion.storage import sharing
from companion.storage.errors import NotFoundError
from companion.web.db import get_db

Kind = Literal["game", "campaign"]
SESSION_KEYS: dict[Kind, str] = {"game": "grants", "campaign": "campaign_grants"}
LEVELS = {"view": 0, "edit": 1, "owner": 2}


class CampaignDenied(Exception):
    """This browser may not see (or change) the campaign."""


def owner_id() -> str:
    """This browser's identity (created and kept for 400 days on first use)."""
    owner = session.get("owner")
    if not isinstance(owner, str):
        owner = secrets.token_urlsafe(18)
        session["owner"] = owner
        session.permanent = True
    return owner


def grants(kind: Kind = "game") -> dict[str, str]:
    value = session.get(SESSION_KEYS[kind])
    return dict(value) if isinstance(value, dict) else {}


def _granted(value: str) -> tuple[str, int]:
    level, _sep, epoch = value.partition(":")
    return level, int(epoch) if epoch.isdigit() else 0


def grant(kind: Kind, row_id: int, level: str, epoch: int = 0) -> None:
    """Remember that this browser opened a share link of ``level`` while the row's share
    epoch was ``epoch`` (never lowers a grant of the same epoch)."""
    current = grants(kind)
    old_level, old_epoch = _granted(current.get(str(row_id), ""))
    if old_epoch != epoch or LEVELS.get(old_level, -1) < LEVELS[level]:
        current[str(row_id)] = f"{level}:{epoch}"
        session[SESSION_KEYS[kind]] = current
        session.permanent = True


TABLES: dict[Kind, sharing.Table] = {"game": "games", "campaign": "campaigns"}


def open_link(kind: Kind, token: str) -> int:
    """Follow a share link: grant this browser the link's level and return the row id;
    404 for a token that opens nothing (never existed, or revoked)."""
    found = sharing.find_token(get_db(), TABLES[kind], token) if len(token) <= 64 else None
    if found is None:
        abort(404)
    row_id, level, epoch = found
    grant(kind, row_id, level, epoch)
    return row_id


def shared_ids(kind: Kind = "game") -> list[int]:
    """The ids this browser was given a link to."""
    return [int(k) for k in grants(kind) if k.isdigit()]


def access_to(kind: Kind, row: dict[str, Any]) -> str | None:
    if row.get("owner") and row["owner"] == session.get("owner"):
        return "owner"
    found = grants(kind).get(str(row["id"]))
    if found is None:
        return None
    level, epoch = _granted(found)
    if epoch != int(row.get("share_epoch") or 0) or level not in ("view", "edit"):
        return None  # the owner issued new links since: this grant is revoked
    return level


def allowed(level: str | None, need: str) -> bool:
    return level is not None and LEVELS[level] >= LEVELS[need]


def load_game(game_id: int, need: str = "view") -> tuple[dict[str, Any], str]:
    """The game and this browser's access to it; 404 if missing or not shared with this
    browser, 403 if its share link does not allow ``need``."""
    try:
        game = storage_games.get_game(get_db(), game_id)
    except NotFoundError:
        abort(404)
    level = access_to("game", game)
    if level is None:
        abort(404)
    if not allowed(level, need):
        abort(403)
    return game, level


def load_campaign(campaign_id: int, need: str = "view") -> tuple[dict[str, Any], str]:
    """The campaign row and this browser's access; 404 if missing, ``CampaignDenied`` if
    not allowed."""
    try:
        campaign = storage_campaigns.get_campaign(get_db(), campaign_id)
    except NotFoundError:
        abort(404)
    level = access_to("campaign", campaign)
    if level is None:
        abort(404)
    if not allowed(level, need):
        raise CampaignDenied(need)
    return campaign, level


def grant_game(game_id: int, level: str) -> None:
    """Let this browser open a game of a campaign it may see (edit stays edit)."""
    game = storage_games.get_game(get_db(), game_id)
    grant("game", game_id, "edit" if can_edit(level) else "view",
          int(game.get("share_epoch") or 0))


def can_edit(level: str | None) -> bool:
    return level in ("owner", "edit")
