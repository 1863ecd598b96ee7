"""Who may see or change a campaign: the creator's cookie identity and share links.

Representation: the owner is the browser identity of ``companion.web.access.owner_id()``
(signed session cookie, no accounts), stored in ``campaigns.owner``. Opening a share link
``/c/TOKEN`` adds ``{campaign id as str: "view" | "edit"}`` to ``session["campaign_grants"]``
(kept apart from the games' grants). ``load_campaign(cid, need)`` returns the campaign row
and the access level (``"owner"``, ``"edit"``, ``"view"``) or raises ``CampaignDenied``
(a friendly 403 page) / aborts with 404. The games of a campaign are reached through the
campaign: ``grant_game`` gives this browser the same level on one game when it follows a
link from the campaign page.
"""

from __future__ import annotations

from typing import Any

from flask import abort, session

from companion.storage import campaigns as storage
from companion.storage.errors import NotFoundError
from companion.web import access, repo

KEY = "campaign_grants"
LEVELS = access.LEVELS


class CampaignDenied(Exception):
    """This browser may not see (or change) the campaign."""


def grants() -> dict[str, str]:
    value = session.get(KEY)
    return dict(value) if isinstance(value, dict) else {}


def grant(campaign_id: int, level: str) -> None:
    current = grants()
    if LEVELS.get(current.get(str(campaign_id), ""), -1) < LEVELS[level]:
        current[str(campaign_id)] = level
        session[KEY] = current
        session.permanent = True


def shared_ids() -> list[int]:
    return [int(k) for k in grants() if k.isdigit()]


def access_to(campaign: dict[str, Any]) -> str | None:
    if campaign.get("owner") and campaign["owner"] == session.get("owner"):
        return "owner"
    return grants().get(str(campaign["id"]))


def load_campaign(campaign_id: int, need: str = "view") -> tuple[dict[str, Any], str]:
    """The campaign row and this browser's access; 404 if missing, 403 if not allowed."""
    try:
        campaign = storage.get_campaign(repo.get_db(), campaign_id)
    except NotFoundError:
        abort(404)
    level = access_to(campaign)
    if level is None or LEVELS[level] < LEVELS[need]:
        raise CampaignDenied(need)
    return campaign, level


def grant_game(game_id: int, level: str) -> None:
    """Let this browser open a game of a campaign it may see (edit stays edit)."""
    access.grant(game_id, "edit" if access.can_edit(level) else "view")


def can_edit(level: str | None) -> bool:
    return access.can_edit(level)
