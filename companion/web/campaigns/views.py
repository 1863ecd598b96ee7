"""What the campaign pages show, as plain data for the templates (translated here).

Representation: ``campaign_context(db, campaign, level)`` replays the stored campaign and
returns one dict for ``campaigns/_campaign.html``: the sheet (``CampaignState``), the track
drawing, the legal crossings (each with its button id), the *unlock moments* of the last
game (``Moment``: what to take out of which box, the content text, the changes in play,
ticked on the sheet), the set-up reminders of the next game (``Reminder`` label + value;
from ``companion.rules.reminder_items``, labels translated), the
achievements that may be ticked by hand, the Great Mill proposal (``MillProposal``) when
the last finished game's record meets it, the games in progress and the history numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sqlite_utils
from flask import url_for
from flask_babel import gettext as _

from companion.rules import (
    PATH_BY_ID,
    RED_HEART,
    CampaignState,
    Crossing,
    Effects,
    RulesError,
    campaign_stats,
    check_great_mill,
    reminder_items,
    unlocked_header,
)
from companion.storage import campaigns as storage
from companion.web import access
from companion.web.campaigns.chart import score_chart
from companion.web.campaigns.track import cross_id, draw_track
from companion.web.names import (
    box_name,
    hex_name,
    piece_name,
    special_name,
    terrain_name,
    unlock_name,
)
from companion.web.reasons import say
from companion.web.settings import public_url

GREAT_MILL = "great-mill"


@dataclass(frozen=True)
class Moment:
    id: str
    kind: str  # box | track | achieved | heart
    name: str
    take: str
    text: str
    changes: list[str]
    placeholder: bool
    where: str = ""
    note: str = ""


@dataclass(frozen=True)
class Reminder:
    label: str
    value: str


@dataclass(frozen=True)
class Offer:
    """One legal circle as a button: its id, the path's two hex names and where it starts."""

    crossing: Crossing
    id: str
    label: str
    left: int


@dataclass(frozen=True)
class MillProposal:
    game: int
    explanation: str


@dataclass
class Summary:
    games: int
    last: dict[str, Any] | None
    available: int
    pending: int
    notes: list[str] = field(default_factory=list)


def row_name(row_id: str) -> str:
    """A score row id as the pad names it, translated: ``red-hearts`` -> ``Red hearts``."""
    return special_name(row_id)


def markers_text(markers: Any) -> str:
    """``{"forest": [4, 7]}`` -> ``forest 4, 7`` in the player's language."""
    return "; ".join(f"{terrain_name(kind)} {', '.join(str(n) for n in nums)}"
                     for kind, nums in dict(markers).items())


def _names(text: str, name: Any) -> str:
    return ", ".join(name(part.strip()) for part in text.split(",") if part.strip())


def reminder_value(code: str, value: str, state: CampaignState) -> str:
    """A reminder's value with every id shown by its name."""
    if code in ("score-rows", "special-tiles"):
        return _names(value, special_name)
    if code == "tiles":
        return _names(value, unlock_name)
    if code == "markers":
        return "; ".join(
            f"{terrain_name(kind)} {nums.replace(',', ', ')}"
            for kind, _sep, nums in (part.strip().partition(" ") for part in value.split(";")))
    if code == "pieces":
        return _names(value, piece_name)
    if code == "achievement-cards":
        return ", ".join(unlock_name(u) for u in state.unlock_log
                         if u in state.content.achievements)
    return value


def effect_lines(effects: Effects, base: dict[str, tuple[int, ...]] | None = None) -> list[str]:
    """What an unlock changes in the next games, one translated line each."""
    lines: list[str] = []
    if effects.score_rows:
        lines.append(_("New score row: %(rows)s",
                       rows=", ".join(row_name(r) for r in effects.score_rows)))
    if effects.special_tiles:
        lines.append(_("Special tile to shuffle in: %(tiles)s",
                       tiles=", ".join(row_name(t) for t in effects.special_tiles)))
    if effects.tiles:
        lines.append(_("Tiles added to the pile: %(tiles)s",
                       tiles=", ".join(unlock_name(t) for t in effects.tiles)))
    if effects.markers:
        lines.append(_("Task markers added: %(markers)s",
                       markers=markers_text(effects.markers)))
    if effects.pieces:
        lines.append(_("Pieces: %(pieces)s",
                       pieces=", ".join(piece_name(p) for p in effects.pieces)))
    return lines


def moment_for(state: CampaignState, unlock_id: str,
               notes: dict[str, str] | None = None) -> Moment:
    """What an unlock brings. The content file's texts are English and, where marked
    placeholder, not the card's words: a placeholder is never shown; the page says where
    the card is and shows the players' own note (``notes``) instead."""
    content = state.content
    note = (notes or {}).get(unlock_id, "")
    if unlock_id == RED_HEART:
        return Moment(unlock_id, "heart", unlock_name(unlock_id),
                      _("Take a red heart: it joins the tiles of every next game."), "",
                      effect_lines(content.red_heart), False, note=note)
    if unlock_id in content.boxes:
        box = content.boxes[unlock_id]
        name = box_name(unlock_id)
        return Moment(unlock_id, "box", name,
                      _("Open %(box)s and take out what it holds:", box=name),
                      "", effect_lines(box.effects), True, where=name, note=note)
    ach = content.achievements[unlock_id]
    name = unlock_name(unlock_id)
    where = box_name(ach.box) if ach.box is not None else _("its box")
    if ach.source == "track":
        take = _("Take the %(card)s card out of %(box)s and lay it out.", card=name,
                 box=where)
    else:
        take = _("Achievement met: lay the %(card)s card out with the others.", card=name)
    return Moment(unlock_id, "track" if ach.source == "track" else "achieved", name, take,
                  "", effect_lines(ach.effects), True, where=where, note=note)


def reminders(state: CampaignState) -> list[Reminder]:
    """The set-up list of the next game (``companion.rules.reminder_items``), translated."""
    return [Reminder(_(r.label), reminder_value(r.code, r.value, state))
            for r in reminder_items(state)]


def offers(state: CampaignState) -> list[Offer]:
    out = []
    for c in state.legal_spends():
        path = PATH_BY_ID[c.path]
        other = path.other(c.from_hex)
        left = path.circles - state.progress[c.path].crossed
        label = _("%(from)s → %(to)s", **{"from": hex_name(c.from_hex), "to": hex_name(other)})
        out.append(Offer(c, cross_id(c), label, left))
    return out


def mill_proposal(db: sqlite_utils.Database, campaign_id: int,
                  state: CampaignState) -> MillProposal | None:
    """Propose the Great Mill when the last finished game's record meets it."""
    if GREAT_MILL in state.achieved or GREAT_MILL not in state.content.achievements:
        return None
    games = storage.finished_games(db, campaign_id)
    if not games or not str(games[-1]["record"]).strip():
        return None
    try:
        check = check_great_mill(games[-1]["record"])
    except RulesError:
        return None
    return MillProposal(int(games[-1]["number"]), say(check.why)) if check.met else None


def tickable(state: CampaignState) -> list[tuple[str, str]]:
    """(id, name) of the achievements the players may tick by hand now."""
    if not state.games:
        return []
    return sorted(
        ((a.id, a.name) for a in state.content.achievements.values()
         if a.source != "track" and a.id not in state.achieved),
        key=lambda item: item[1],
    )


def campaign_context(db: sqlite_utils.Database, campaign: dict[str, Any], level: str,
                     **extra: Any) -> dict[str, Any]:
    cid = int(campaign["id"])
    state = storage.load_state(db, cid)
    legal = state.legal_spends()
    pending = storage.pending_count(db, campaign)
    last = state.games[-1] if state.games else None
    summary = Summary(len(state.games), None if last is None else {
        "number": last.number, "score": last.score, "title": last.title,
        "crosses": last.crosses, "spent": last.spent}, state.crosses_available, pending)
    share = None
    if level == "owner" and campaign.get("view_token"):
        share = {
            "view": public_url(url_for("campaigns.shared", token=campaign["view_token"])),
            "edit": public_url(url_for("campaigns.shared", token=campaign["edit_token"])),
        }
    stats = campaign_stats(state)
    offered = offers(state)
    notes = storage.unlock_notes(db, cid)
    ctx: dict[str, Any] = dict(
        campaign=campaign, level=level, can_edit=access.can_edit(level), state=state,
        track=draw_track(state, legal), offers=offered, summary=summary,
        offer_labels={o.id: o.label for o in offered},
        moments=[moment_for(state, u, notes) for u in (last.unlocked if last else [])],
        reminders=reminders(state), header=unlocked_header(state), tickable=tickable(state),
        mill=mill_proposal(db, cid, state), playing=storage.games_in_progress(db, cid), share=share,
        stats=stats, chart=score_chart(stats["games"]), message=None, error=None, fresh=[],
    )
    ctx.update(extra)
    return ctx


__all__ = ["Moment", "Reminder", "campaign_context", "effect_lines", "moment_for", "reminders"]
