"""Property tests: random campaigns keep the R-6 invariants and round-trip as records."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.campaign.state import CampaignState, load_campaign
from companion.rules.campaign.track import PATH_BY_ID, PATHS, START
from companion.rules.errors import CampaignError

CONTENT = CampaignState().content
TICKABLE = sorted(a for a, v in CONTENT.achievements.items() if v.source != "track")

action = st.one_of(
    st.tuples(st.just("game"), st.integers(0, 450)),
    st.tuples(st.just("legal"), st.integers(0, 50), st.integers(1, 4)),
    st.tuples(st.just("any"), st.sampled_from([p.id for p in PATHS]), st.integers(1, 12)),
    st.tuples(st.just("achieve"), st.sampled_from(TICKABLE)),
)


def play(actions: list[tuple[object, ...]]) -> CampaignState:
    state = CampaignState(content=CONTENT)
    for act in actions:
        try:
            if act[0] == "game":
                state.record_game(int(act[1]))  # type: ignore[call-overload]
            elif act[0] == "legal":
                legal = state.legal_spends()
                if legal:
                    c = legal[int(act[1]) % len(legal)]  # type: ignore[call-overload]
                    state.spend(c.path, int(act[2]), c.from_hex)  # type: ignore[call-overload]
            elif act[0] == "any":
                state.spend(str(act[1]), int(act[2]))  # type: ignore[call-overload]
            else:
                state.achieve(str(act[1]))
        except CampaignError:
            pass
    return state


def connected_reached(state: CampaignState) -> set[str]:
    """Hexes joined to the start by fully crossed paths."""
    seen = {START}
    changed = True
    while changed:
        changed = False
        for p in PATHS:
            full = state.progress[p.id].crossed == p.circles
            if full and (p.low in seen) != (p.high in seen):
                seen |= set(p.ends)
                changed = True
    return seen - {START}


@settings(max_examples=150, deadline=None)
@given(st.lists(action, max_size=40))
def test_invariants(actions: list[tuple[object, ...]]) -> None:
    state = play(actions)
    assert state.crosses_spent <= state.crosses_earned
    assert state.crosses_earned == (
        state.crosses_spent + state.crosses_lost + state.crosses_available
    )
    for g in state.games:
        assert 0 <= g.spent <= g.crosses
    assert set(state.reached) == connected_reached(state)
    assert len(set(state.reached)) == len(state.reached)
    hearts = 0
    for p in PATHS:
        prog = state.progress[p.id]
        assert 0 <= prog.crossed <= p.circles
        if prog.crossed:
            # crossing starts only from a reached end
            assert (prog.low == 0 or state.is_reached(p.low)) and (
                prog.high == 0 or state.is_reached(p.high)
            )
        hearts += bool(state.heart_crossed(p.id))
    assert hearts == state.hearts == state.unlocked().count("red-heart")
    for c in state.legal_spends():
        assert state.is_reached(c.from_hex)
        assert c.circle not in state.crossed_circles(c.path)
        assert c.path in PATH_BY_ID


@settings(max_examples=100, deadline=None)
@given(st.lists(action, max_size=40))
def test_record_round_trip_and_undo_to_empty(actions: list[tuple[object, ...]]) -> None:
    state = play(actions)
    assert load_campaign(state.record_text(), CONTENT).to_json() == state.to_json()
    while state.can_undo:
        state.undo()
    assert state.to_json() == CampaignState(content=CONTENT).to_json()
