"""Module 1 of the Duel: the nine task cards (rules.md section 7).

Representation: ``module1_fields(record, boards)`` returns, per player, the
explanations ``module1.CARD`` for every card named in ``cards:`` (in that
order) and ``module1.total``. Cards: ``large-X`` (a race: the turn at which
the player first owns a closed X territory of 5+ tiles, found by replaying the
board turn by turn), ``master-X`` (players rank by their number of closed X
territories of 2+ tiles, a count of 0 included; house rule R-9: none scores 0),
``many-X`` (the table ``MANY_POINTS``, no competition); X is forest, grain or
village. Places and ties: ``companion.rules.duel.places``. ``cards_warnings``:
a ``cards:`` header without one card per landscape type (scored as written).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.rules.board import Board
from companion.rules.duel.places import Place, share_places
from companion.rules.explain import Explanation, total_of
from companion.rules.game import Warning
from companion.rules.hexgrid import Hex
from companion.rules.notation import TERRITORY_TYPES, Record
from companion.rules.reasons import Reason
from companion.rules.territories import BoardTerritories, Territory
from companion.rules.tiles import LETTER_OF

LARGE_SIZE = 5
MASTER_SIZE = 2
MANY_POINTS = {2: 1, 3: 2, 4: 4, 5: 6, 6: 9, 7: 12}
MANY_MAX = 15


@dataclass(frozen=True)
class Race:
    """When a player first owned a closed territory of ``LARGE_SIZE``+ tiles."""

    turn: int | None
    tiles: tuple[Hex, ...] = ()


def many_points(count: int) -> int:
    """The Many X table: 2 -> 1, 3 -> 2, 4 -> 4, 5 -> 6, 6 -> 9, 7 -> 12, 8+ -> 15."""
    return MANY_MAX if count >= 8 else MANY_POINTS.get(count, 0)


def first_closed(board: Board, kinds: tuple[str, ...], size: int = LARGE_SIZE) -> dict[
        str, Race]:
    """Replay ``board`` turn by turn: for each kind, the first turn at which a closed
    territory of that kind has ``size``+ tiles (a closed territory never changes)."""
    races = {k: Race(None) for k in kinds}
    replay = Board()
    for p, turn in zip(board.history, board.turns, strict=True):
        replay.push(p, same_turn=bool(replay.turns) and replay.turn == turn)
        for kind in kinds:
            if races[kind].turn is not None:
                continue
            for root in replay.roots(LETTER_OF[kind]):
                if not replay.component_open(root) and replay.component_size(root) >= size:
                    tiles = sorted(replay.component_tiles(root), key=lambda h: (h.r, h.q))
                    races[kind] = Race(turn, tuple(tiles))
                    break
    return races


def closed_territories(board: Board, kind: str, size: int = MASTER_SIZE) -> list[Territory]:
    """The closed ``kind`` territories of ``size``+ tiles at the end of the game."""
    found = [t for t in BoardTerritories(board).of_terrain(LETTER_OF[kind])
             if t.closed and t.size >= size]
    return sorted(found, key=lambda t: min((h.r, h.q) for h in t.tiles))


def _others(keys: Mapping[str, int | None], me: str) -> list[tuple[str, int | None]]:
    return [(p, k) for p, k in keys.items() if p != me]


def _place(place: Place) -> dict[str, object]:
    return {"shared": list(place.shared), "points": place.points, "pooled": place.pooled}


def _rulings(place: Place, extra: list[str]) -> list[str]:
    return extra + (["R-8"] if place.tied else [])


def large_card(kind: str, boards: Mapping[str, Board], round_down: bool) -> dict[
        str, Explanation]:
    races = {p: first_closed(b, (kind,))[kind] for p, b in boards.items()}
    keys = {p: r.turn for p, r in races.items()}
    places = share_places(keys, len(boards), round_down)
    out: dict[str, Explanation] = {}
    for p, race in races.items():
        place = places[p]
        params = {"kind": kind, "size": LARGE_SIZE, "others": _others(keys, p)}
        if race.turn is None:
            out[p] = Explanation.of(0, Reason("large-never", params))
            continue
        why = Reason("large-reached", {**params, "turn": race.turn, "tiles": len(race.tiles),
                                       "place": _place(place)})
        out[p] = Explanation.of(place.points, why, list(race.tiles), [race.turn],
                                _rulings(place, []))
    return out


def master_card(kind: str, boards: Mapping[str, Board], round_down: bool,
                none_scores_zero: bool) -> dict[str, Explanation]:
    found = {p: closed_territories(b, kind) for p, b in boards.items()}
    keys: dict[str, int | None] = {  # the card's text ranks a count of 0 too (R-9 off)
        p: None if (none_scores_zero and not ts) else -len(ts) for p, ts in found.items()
    }
    places = share_places(keys, len(boards), round_down)
    counts: dict[str, int | None] = {p: len(ts) for p, ts in found.items()}
    out: dict[str, Explanation] = {}
    for p, ts in found.items():
        place = places[p]
        params = {"kind": kind, "size": MASTER_SIZE, "others": _others(counts, p)}
        items = _closed_items(kind, ts)
        if keys[p] is None:
            out[p] = Explanation.of(0, Reason("master-none", params), rulings=["R-9"])
            continue
        why = Reason("master-count", {**params, "count": len(ts), "place": _place(place)})
        out[p] = Explanation.of(place.points, why, [h for t in ts for h in t.tiles],
                                rulings=_rulings(place, []))
        out[p].items = items
    return out


def many_card(kind: str, boards: Mapping[str, Board]) -> dict[str, Explanation]:
    out: dict[str, Explanation] = {}
    for p, b in boards.items():
        ts = closed_territories(b, kind)
        why = Reason("many-count", {"kind": kind, "size": MASTER_SIZE, "count": len(ts),
                                    "points": many_points(len(ts))})
        out[p] = Explanation.of(many_points(len(ts)), why, [h for t in ts for h in t.tiles])
        out[p].items = _closed_items(kind, ts)
    return out


def _closed_items(kind: str, ts: list[Territory]) -> list[Explanation]:
    return [Explanation.of(t.size, Reason("closed-territory", {"kind": kind, "size": t.size}),
                           t.sorted_tiles()) for t in ts]


def card_scores(card: str, boards: Mapping[str, Board], record: Record) -> dict[
        str, Explanation]:
    """One card's explanation for every player."""
    kind_of_card, _, kind = card.partition("-")
    assert kind in TERRITORY_TYPES, card
    rules = record.ruleset
    if kind_of_card == "large":
        return large_card(kind, boards, rules.on("R-8"))
    if kind_of_card == "master":
        return master_card(kind, boards, rules.on("R-8"), rules.on("R-9"))
    return many_card(kind, boards)


def cards_warnings(record: Record) -> list[Warning]:
    """A ``cards:`` header should name one card of each landscape type (rules.md §7);
    another mix is scored as written and warned about."""
    kinds = sorted(card.partition("-")[2] for card in record.cards)
    if not record.cards or kinds == sorted(TERRITORY_TYPES):
        return []
    return [Warning(record.header_lines.get("cards"), None,
                    Reason("cards-mix", {"cards": list(record.cards)}))]


def module1_fields(record: Record, boards: Mapping[str, Board]) -> dict[
        str, dict[str, Explanation]]:
    """``module1.CARD`` and ``module1.total`` for every player."""
    out: dict[str, dict[str, Explanation]] = {p: {} for p in boards}
    if 1 not in record.modules:
        for fields in out.values():
            fields["module1.total"] = Explanation.of(0, Reason("duel-sum", {
                "row": "module1-off"}))
        return out
    for card in dict.fromkeys(record.cards):
        for p, e in card_scores(card, boards, record).items():
            out[p][f"module1.{card}"] = e
    for fields in out.values():
        parts = list(fields.values())
        row = "module1" if parts else "module1-none"
        fields["module1.total"] = total_of(parts, Reason("duel-sum", {"row": row}),
                                           shallow=True)
    return out
