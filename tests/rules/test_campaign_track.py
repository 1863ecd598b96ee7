"""The advancement track: every path, every heart circle, R-6 spending and its refusals."""

from __future__ import annotations

from collections import deque

import pytest

from companion.rules.campaign.state import CampaignState, Crossing
from companion.rules.campaign.track import HEXES, PATH_BY_ID, PATHS, START, paths_at
from companion.rules.errors import CampaignError

# rules.md §6 table, written out path by path.
CIRCLES = {
    "start-box1": 2, "box1-box2": 5, "box2-warehouse": 4, "box2-circus": 4,
    "warehouse-grain-tunnel": 6, "warehouse-signalman": 6, "circus-signalman": 6,
    "circus-deer": 6, "grain-tunnel-village-tunnel": 8, "signalman-shepherdess": 8,
    "deer-castle": 8, "village-tunnel-forest-tunnel": 10, "shepherdess-hill": 10,
    "castle-farm": 10, "forest-tunnel-clouds": 10, "hill-clouds": 10, "farm-clouds": 10,
}
HEART_PATHS = ("grain-tunnel-village-tunnel", "signalman-shepherdess", "deer-castle")


def route(target: str, avoid: str | None = None) -> list[tuple[str, str]]:
    """(path id, from hex) steps of a shortest route (in paths) from the start to ``target``,
    not using the path ``avoid``."""
    prev: dict[str, tuple[str, str] | None] = {START: None}
    todo = deque([START])
    while todo:
        here = todo.popleft()
        for p in paths_at(here):
            if p.id == avoid:
                continue
            there = p.other(here)
            if there not in prev:
                prev[there] = (p.id, here)
                todo.append(there)
    steps: list[tuple[str, str]] = []
    node = target
    while prev[node] is not None:
        step = prev[node]
        assert step is not None
        steps.append(step)
        node = step[1]
    return steps[::-1]


def cross(state: CampaignState, path_id: str, count: int, from_hex: str | None = None) -> None:
    """Cross ``count`` circles, recording Empress games (15 crosses) as needed."""
    while count:
        if state.crosses_available == 0:
            state.record_game(400)
        n = min(count, state.crosses_available)
        state.spend(path_id, n, from_hex)
        count -= n


def reach_signalman_via_circus(state: CampaignState) -> None:
    reach(state, "circus")
    cross(state, "circus-signalman", 6)


def reach(state: CampaignState, target: str, avoid: str | None = None) -> None:
    for path_id, here in route(target, avoid):
        path = PATH_BY_ID[path_id]
        if not state.is_reached(path.other(here)):
            left = path.circles - state.progress[path_id].crossed
            cross(state, path_id, left, here)


def test_paths_match_rules_table() -> None:
    assert {p.id: p.circles for p in PATHS} == CIRCLES


def test_path_ids_name_their_hexes_lower_first() -> None:
    for p in PATHS:
        assert p.id == f"{p.low}-{p.high}"
    hexes = {h.id for h in HEXES}
    assert {e for p in PATHS for e in p.ends} == hexes


def test_heart_circles_are_4th_from_lower_hex_on_8_circle_paths() -> None:
    assert {p.id for p in PATHS if p.heart is not None} == set(HEART_PATHS)
    for pid in HEART_PATHS:
        assert PATH_BY_ID[pid].heart == 3 and PATH_BY_ID[pid].circles == 8


def test_every_hex_is_reachable_from_start() -> None:
    for h in HEXES:
        if h.id != START:
            assert route(h.id)


@pytest.mark.parametrize("path_id", list(CIRCLES))
def test_every_path_reaches_its_far_hex_on_its_last_circle(path_id: str) -> None:
    path = PATH_BY_ID[path_id]
    state = CampaignState()
    reach(state, path.low)
    already = list(state.reached)
    done = state.progress[path_id].crossed
    for i in range(done, path.circles - 1):
        cross(state, path_id, 1, path.low)
        assert state.crossed_circles(path_id) == list(range(i + 1))
        assert not state.is_reached(path.high) or path.high in already
    cross(state, path_id, 1, path.low)
    assert state.is_reached(path.high)
    with pytest.raises(CampaignError, match="is full"):
        state.record_game(400)
        state.spend(path_id, 1)


@pytest.mark.parametrize("path_id", HEART_PATHS)
def test_heart_from_lower_end_on_4th_circle(path_id: str) -> None:
    state = CampaignState()
    reach(state, PATH_BY_ID[path_id].low)
    hearts = state.hearts
    cross(state, path_id, 3)
    assert state.hearts == hearts
    assert state.heart_crossed(path_id) is False
    cross(state, path_id, 1)
    assert state.hearts == hearts + 1
    assert state.heart_crossed(path_id) is True
    cross(state, path_id, 4)
    assert state.hearts == hearts + 1
    assert state.unlocked().count("red-heart") == state.hearts


@pytest.mark.parametrize("path_id", HEART_PATHS)
def test_heart_from_upper_end_on_5th_circle(path_id: str) -> None:
    path = PATH_BY_ID[path_id]
    state = CampaignState()
    reach(state, path.high, avoid=path_id)  # round the track through Clouds
    assert not state.is_reached(path.low)
    hearts = state.hearts
    cross(state, path_id, 4, path.high)
    assert state.hearts == hearts
    cross(state, path_id, 1, path.high)
    assert state.hearts == hearts + 1
    assert state.crossed_circles(path_id) == [3, 4, 5, 6, 7]


def test_paths_without_heart_never_give_hearts() -> None:
    state = CampaignState()
    reach(state, "clouds")  # via box2-circus, circus-signalman, ... shortest route
    hearts_route = [p for p, _ in route("clouds") if p in HEART_PATHS]
    assert state.hearts == len(hearts_route)


def test_a_path_between_two_reached_hexes_from_both_ends() -> None:
    state = CampaignState()
    reach_signalman_via_circus(state)
    reach(state, "warehouse")
    pid = "warehouse-signalman"
    offered = [c for c in state.crossable() if c.path == pid]
    assert offered == [Crossing(pid, "warehouse", 0), Crossing(pid, "signalman", 5)]
    cross(state, pid, 2, "signalman")
    cross(state, pid, 3, "warehouse")
    assert state.crossed_circles(pid) == [0, 1, 2, 4, 5]
    offered = [c for c in state.crossable() if c.path == pid]
    assert offered == [Crossing(pid, "warehouse", 3)]  # one circle left: offered once
    reached = list(state.reached)
    cross(state, pid, 1, "signalman")
    assert state.reached == reached  # both ends were reached already


def test_default_end_is_the_lower_hex_when_reached() -> None:
    state = CampaignState()
    reach_signalman_via_circus(state)
    reach(state, "warehouse")
    cross(state, "warehouse-signalman", 1)
    assert state.crossed_circles("warehouse-signalman") == [0]


def test_default_end_is_the_upper_hex_when_only_it_is_reached() -> None:
    state = CampaignState()
    reach_signalman_via_circus(state)
    cross(state, "warehouse-signalman", 1)
    assert state.crossed_circles("warehouse-signalman") == [5]
    assert state.record().events[-1].items[-1].from_hex is None  # type: ignore[union-attr]


def test_several_branches_may_be_advanced() -> None:
    state = CampaignState()
    reach(state, "box2")
    state.record_game(400)
    state.spend("box2-circus", 2)
    state.spend("box2-warehouse", 3)
    assert state.crossed_circles("box2-circus") == [0, 1]
    assert state.crossed_circles("box2-warehouse") == [0, 1, 2]


# ----- refusals -------------------------------------------------------------------


def fresh(score: int = 400) -> CampaignState:
    state = CampaignState()
    state.record_game(score)
    return state


def test_refuse_spend_before_any_game() -> None:
    with pytest.raises(CampaignError, match="no game recorded"):
        CampaignState().spend("start-box1", 1)


def test_refuse_overspending() -> None:
    state = fresh(105)  # Newsboy: 2 crosses
    state.spend("start-box1", 2)
    with pytest.raises(CampaignError, match="only 0 available"):
        state.spend("box1-box2", 1)
    state = fresh(400)  # Empress: 15 crosses
    state.spend("start-box1", 2)
    state.spend("box1-box2", 5)
    state.spend("box2-circus", 4)
    with pytest.raises(CampaignError, match=r"spending 5 crosses but only 4 available \(game 1 "):
        state.spend("circus-deer", 5)


def test_refuse_unreachable_path() -> None:
    with pytest.raises(CampaignError, match="neither box1 nor box2 is reached"):
        fresh().spend("box1-box2", 1)
    with pytest.raises(CampaignError, match="neither hill nor clouds"):
        fresh().spend("hill-clouds", 1)


def test_refuse_unknown_ids() -> None:
    did_you_mean = r"unknown path 'start-box' \(did you mean start-box1\?\)"
    with pytest.raises(CampaignError, match=did_you_mean):
        fresh().spend("start-box", 1)
    with pytest.raises(CampaignError, match="unknown hex 'nowhere'"):
        fresh().spend("start-box1", 1, "nowhere")
    with pytest.raises(CampaignError, match="unknown achievement 'great-mil'"):
        fresh().achieve("great-mil")


def test_refuse_from_a_hex_not_on_the_path_or_not_reached() -> None:
    with pytest.raises(CampaignError, match="box2 is not an end of path start-box1"):
        fresh().spend("start-box1", 1, "box2")
    with pytest.raises(CampaignError, match="from box1: it is not reached"):
        fresh().spend("start-box1", 1, "box1")


def test_refuse_full_path_and_too_many_circles() -> None:
    state = fresh()
    with pytest.raises(CampaignError, match="has 2 circles left, cannot cross 3"):
        state.spend("start-box1", 3)
    state.spend("start-box1", 2)
    with pytest.raises(CampaignError, match=r"path start-box1 is full \(2 of 2"):
        state.spend("start-box1", 1)


def test_refuse_zero_circles() -> None:
    with pytest.raises(CampaignError, match="at least 1"):
        fresh().spend("start-box1", 0)


def test_refusal_changes_nothing() -> None:
    state = fresh(105)
    before = state.to_json()
    with pytest.raises(CampaignError):
        state.spend("start-box1", 3)
    assert state.to_json() == before
    assert not state.can_undo or state.games  # the game is still undoable
    state.undo()
    assert state.games == []
    with pytest.raises(CampaignError, match="nothing to undo"):
        state.undo()


def test_unspent_crosses_are_lost_when_the_next_game_is_recorded() -> None:
    state = fresh(150)  # 5 crosses
    state.spend("start-box1", 2)
    assert (state.crosses_available, state.crosses_lost) == (3, 0)
    state.record_game(62)  # 1 cross
    assert (state.crosses_available, state.crosses_lost) == (1, 3)
    with pytest.raises(CampaignError, match="only 1 available"):
        state.spend("box1-box2", 2)


def test_legal_spends_empty_without_crosses_and_lists_frontier() -> None:
    state = CampaignState()
    assert state.legal_spends() == []
    assert state.crossable() == [Crossing("start-box1", "start", 0)]
    state.record_game(400)
    assert state.legal_spends() == [Crossing("start-box1", "start", 0)]
    state.spend("start-box1", 2)
    state.spend("box1-box2", 5)
    assert [c.path for c in state.legal_spends()] == ["box2-warehouse", "box2-circus"]


def test_every_legal_spend_is_accepted_and_nothing_else_is() -> None:
    state = CampaignState()
    reach(state, "signalman")
    state.record_game(400)
    legal = {(c.path, c.from_hex) for c in state.legal_spends()}
    for p in PATHS:
        for end in p.ends:
            trial = state.copy()
            try:
                trial.spend(p.id, 1, end)
                accepted = True
            except CampaignError:
                accepted = False
            # a path with one circle left is offered once, from either end
            assert accepted == ((p.id, end) in legal or any(
                c.path == p.id for c in state.legal_spends()
            ) and trial.progress[p.id].crossed == p.circles), (p.id, end)


def test_undo_restores_reached_hexes_and_hearts() -> None:
    state = CampaignState()
    reach_signalman_via_circus(state)
    state.record_game(400)
    state.spend("signalman-shepherdess", 4)
    assert state.hearts == 1
    state.undo()
    assert state.hearts == 0 and state.crossed_circles("signalman-shepherdess") == []
    state.undo()  # the game
    state.undo()  # the last spend of reach(): circus-signalman reaching signalman
    assert "signalman" not in state.reached


def test_copies_do_not_share_undo_history() -> None:
    state = fresh()
    state.spend("start-box1", 1)
    other = state.copy()
    other.undo()
    other.spend("start-box1", 2)
    state.undo()
    assert state.crossed_circles("start-box1") == []
    assert other.crossed_circles("start-box1") == [0, 1]
    state.spend("start-box1", 1)
    assert other.crossed_circles("start-box1") == [0, 1] and state.reached == []
