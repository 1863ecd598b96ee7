"""Who may see or change a game: the creator's cookie identity and share links.

Representation: the signed session cookie carries ``owner`` (a random
``secrets.token_urlsafe`` string created on first visit; no accounts) and
``grants`` ({game id as str: "view" | "edit"}) added when a share link
``/s/TOKEN`` is opened. ``load_game(game_id, need)`` returns the game row and the
access level (``"owner"``, ``"edit"``, ``"view"``) or aborts with 404 / 403.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import abort, session

from companion.web import repo

LEVELS = {"view": 0, "edit": 1, "owner": 2}


def owner_id() -> str:
    """This browser's identity (created and kept for 400 days on first use)."""
    owner = session.get("owner")
    if not isinstance(owner, str):
        owner = secrets.token_urlsafe(18)
        session["owner"] = owner
        session.permanent = True
    return owner


def grants() -> dict[str, str]:
    value = session.get("grants")
    return dict(value) if isinstance(value, dict) else {}


def grant(game_id: int, level: str) -> None:
    current = grants()
    if LEVELS.get(current.get(str(game_id), ""), -1) < LEVELS[level]:
        current[str(game_id)] = level
        session["grants"] = current
        session.permanent = True


def access_to(game: dict[str, Any]) -> str | None:
    if game.get("owner") and game["owner"] == session.get("owner"):
        return "owner"
    return grants().get(str(game["id"]))


def load_game(game_id: int, need: str = "view") -> tuple[dict[str, Any], str]:
    """The game and this browser's access to it; 404 if missing, 403 if not allowed."""
    try:
        game = repo.get_game(repo.get_db(), game_id)
    except repo.NotFoundError:
        abort(404)
    level = access_to(game)
    if level is None or LEVELS[level] < LEVELS[need]:
        abort(403)
    return game, level


def can_edit(level: str | None) -> bool:
    return level in ("owner", "edit")
