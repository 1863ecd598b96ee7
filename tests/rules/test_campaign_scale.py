"""A campaign of many games replays in linear time and memory (the 3000-games attack);
undo and copy, now a journal replay, still give back exactly the earlier sheet."""

from __future__ import annotations

import time
import tracemalloc

from companion.rules import CampaignState, load_campaign


def _text(games: int) -> str:
    lines = ["campaign: many"] + [f"game: {100 + (i * 37) % 300}" for i in range(games)]
    return "\n".join(lines) + "\n"


def test_twenty_thousand_games_replay_within_bounds() -> None:
    text = _text(20_000)
    tracemalloc.start()
    started = time.perf_counter()
    state = load_campaign(text)
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(state.games) == 20_000
    assert peak < 100 * 1024 * 1024
    assert elapsed < 10.0  # an attack bound (quadratic replay took minutes); speed: bench/


def test_memory_grows_linearly_with_the_games() -> None:
    peaks = []
    for n in (2_000, 8_000):
        tracemalloc.start()
        load_campaign(_text(n))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert peaks[1] < 6 * peaks[0]  # 4x the games: about 4x the memory, not 16x


def test_undo_after_many_events_restores_the_earlier_sheet() -> None:
    state = CampaignState()
    state.record_game(140)
    state.spend("start-box1", 2)
    before = state.to_json()
    state.record_game(230)
    state.spend("box1-box2", 5)
    state.spend("box2-circus", 4)
    assert state.reached == ["box1", "box2", "circus"]
    state.undo()
    state.undo()
    state.undo()
    assert state.to_json() == before
    assert state.can_undo


def test_a_copy_is_independent_of_its_original() -> None:
    state = CampaignState()
    state.record_game(250)
    state.spend("start-box1", 2)
    other = state.copy()
    other.spend("box1-box2", 3)
    assert state.games[-1].spent == 2 and other.games[-1].spent == 5
    other.undo()
    assert other.to_json() == state.to_json()
