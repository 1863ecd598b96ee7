"""Hypothesis strategies for the fuzz suite: record lines and campaign lines built from the
notation's own pieces (so most inputs get deep into the engine), mixed with raw text."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
"""The fuzz tests' bound: 40 derandomized examples each (the suite stays under 3 minutes)."""

HUGE = st.sampled_from(["9" * 5000, "-" + "9" * 4400, "1" + "0" * 30, str(2**63), str(2**64)])
NUMBER = st.one_of(st.integers(-3, 3).map(str), st.integers(-(2**70), 2**70).map(str), HUGE,
                   st.sampled_from(["", "x", "1.5", "+1", "0x10", "١٢", "1e3"]))
CODE = st.one_of(st.text("FGVTSM", min_size=6, max_size=6),
                 st.text("FGVTSMXf ", min_size=0, max_size=8))
ATTRIBUTE = st.one_of(
    st.builds(lambda t, n: f"task={t}/{n}", st.sampled_from(
        ["forest", "grain", "village", "track", "stream", "wraparound", "double:forest+grain",
         "bogus", ""]), NUMBER),
    st.sampled_from(["heart", "golden-heart", "camera", "balloon", "mill", "flag=forest",
                     "flag=grain", "flag=village", "flag=meadow", "special=circus",
                     "special=photographer", "special=school", "special=nowhere",
                     "split=F:01/3", "split=F:0123456", "split=", "markers=5,6",
                     "markers=x", "task=", "=", "heart heart"]),
    st.builds(lambda k, n: f"{k}={n}", st.sampled_from(["sheep", "crossing", "markers"]),
              NUMBER),
)
PLACEMENT = st.builds(lambda q, r, c, a: " ".join([q, r, c, *a]), NUMBER, NUMBER, CODE,
                      st.lists(ATTRIBUTE, max_size=3))
HEADER = st.sampled_from([
    "game: board-game", "game: duel", "game: chess", "unlocked: circus, red-hearts",
    "unlocked: box1, box2, nothing", "completed: forest/4 grain/99", "completed: x",
    "modules: 1, 2", "modules: 9", "cards: large-forest, master-grain, many-village",
    "cards: large-forest, large-forest", "player: red", "player: blue", "date: 2026-13-45",
    "players: Ana, Rui", "colour: blue", "game:", ": :"])
RECORD = st.builds(lambda h, p: "\n".join(h + p) + "\n",
                   st.lists(HEADER, min_size=0, max_size=4),
                   st.lists(st.one_of(PLACEMENT, st.sampled_from(["0 0 MMMMMM", "1 0 MMMMMM",
                                                                  "0 1 TTTTTT"])),
                            max_size=8))
TEXT = st.one_of(RECORD, st.text(max_size=300))

PATHS = ["start-box1", "box1-box2", "box2-circus", "circus-deer", "nowhere-box1", ""]
CAMPAIGN_LINE = st.one_of(
    st.builds(lambda n: f"game: {n}", NUMBER),
    st.builds(lambda p, n: f"spend: {p} {n}", st.sampled_from(PATHS), NUMBER),
    st.builds(lambda p, n, q: f"spend: {p} {n}, {q} 1", st.sampled_from(PATHS), NUMBER,
              st.sampled_from(PATHS)),
    st.sampled_from(["achieved: great-mill", "achieved: circus", "achieved: ???",
                     "campaign: Sunday", "players: Ana", "spend:", "game:", "x: y"]),
)
CAMPAIGN = st.builds(lambda lines: "\n".join(lines) + "\n",
                     st.lists(CAMPAIGN_LINE, max_size=12))
