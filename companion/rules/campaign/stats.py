"""History and statistics of a campaign as plain data for templates and JSON.

Representation: ``campaign_stats(state)`` returns a dict of lists, dicts, ints, floats and
strings only (no engine objects), so a template or ``json.dumps`` can use it directly:

- ``games``: one dict per game: number, score, title, crosses, spent, lost, and what the
  game's crosses and ticks unlocked (``unlocked`` ids and ``unlocked_names``);
- ``best``: the best game (number, score, title) or None; ``average`` score (1 decimal) or
  None; ``total_score``;
- ``crosses``: one dict per game with the running totals earned, spent and lost after it;
- ``timeline``: one dict per unlock, in order: game number, id and name.

>>> from companion.rules.campaign.state import load_campaign
>>> s = campaign_stats(load_campaign("game: 78\\nspend: start-box1 1\\ngame: 140\\n"))
>>> s["best"], s["average"]
({'number': 2, 'score': 140, 'title': 'Actress'}, 109.0)
>>> s["crosses"][-1]
{'number': 2, 'earned': 5, 'spent': 1, 'lost': 0, 'available': 4}
"""

from __future__ import annotations

from typing import Any

from companion.rules.campaign.state import CampaignState


def campaign_stats(state: CampaignState) -> dict[str, Any]:
    """Score per game, best, average, crosses over time and what each game unlocked."""
    games: list[dict[str, Any]] = []
    crosses: list[dict[str, Any]] = []
    timeline: list[dict[str, Any]] = []
    earned = spent = lost = 0
    last = len(state.games) - 1
    for i, g in enumerate(state.games):
        game_lost = 0 if i == last else g.unspent
        earned += g.crosses
        spent += g.spent
        lost += game_lost
        names = [state.content.name_of(u) for u in g.unlocked]
        games.append({
            "number": g.number,
            "score": g.score,
            "title": g.title,
            "crosses": g.crosses,
            "spent": g.spent,
            "lost": game_lost,
            "reached": list(g.reached),
            "hearts": g.hearts,
            "achieved": list(g.achieved),
            "unlocked": list(g.unlocked),
            "unlocked_names": names,
        })
        crosses.append({
            "number": g.number,
            "earned": earned,
            "spent": spent,
            "lost": lost,
            "available": g.unspent if i == last else 0,
        })
        timeline.extend(
            {"number": g.number, "id": u, "name": n} for u, n in zip(g.unlocked, names, strict=True)
        )
    best = max(state.games, key=lambda g: (g.score, -g.number), default=None)
    scores = [g.score for g in state.games]
    return {
        "games": games,
        "best": None if best is None else {
            "number": best.number, "score": best.score, "title": best.title,
        },
        "average": round(sum(scores) / len(scores), 1) if scores else None,
        "total_score": sum(scores),
        "crosses": crosses,
        "timeline": timeline,
    }


__all__ = ["campaign_stats"]
