"""Three taps a tile: the picker in a real headless Chromium at 390x844 (issue 16 item 5).

A 45-tile board game is recorded the way a player would: tap a free hex, tap the tile
in the picker (only tiles that fit there, best edge matches first), tap Place (a task
tile: its type, when the tile could carry more than one, and a marker value button).
Where the player puts each drawn tile is decided with the engine (the test plays the
player who knows the table); every click is counted per placement and the medians are
printed and asserted (<= 3 taps a landscape tile, <= 4 a task tile). After every
placement the map is in view and the Place button is never under the bottom bar.
Screenshots: ``test-artifacts/picker-*.png``.
"""

from __future__ import annotations

import random
import statistics
from typing import Any

from companion.rules import (
    Hex,
    build_placement,
    canonical,
    catalogue,
    fit,
    illegal_now,
    load_position,
    markers_left,
)
from companion.web.play.views import task_options
from tests.helpers import webtools
from tests.helpers.webtools import BROWSER, LiveServer

pytestmark = BROWSER

TILES = 45
TASK_TURNS = {1, 2, 3, 8, 13, 18, 23, 28, 33, 38}


def shot(page: Any, name: str, full_page: bool = False) -> None:
    webtools.shot(page, f"picker-{name}", full_page=full_page)


def start_game(page: Any, live: LiveServer) -> int:
    page.goto(f"{live.url}/games/new")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("#play")
    return int(page.locator("#play").get_attribute("data-game"))


def pan_to(page: Any, slot: Any) -> bool:
    """Drag the map until ``slot`` lies well inside it; False when it already did."""
    svg = page.locator(".landscape.active svg.hexmap")
    svg.scroll_into_view_if_needed()
    m, b = svg.bounding_box(), slot.bounding_box()
    cx, cy = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    inside = (m["x"] + 30 < cx < m["x"] + m["width"] - 30
              and m["y"] + 30 < cy < m["y"] + m["height"] - 70)
    if inside:
        return False
    x, y = m["x"] + m["width"] / 2, m["y"] + m["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + (x - cx), y + (y - cy) - 30, steps=8)
    page.mouse.up()
    return True


def plan(text: str, bag: list[tuple[str, str]], turn: int) -> dict[str, Any] | None:
    """Where the player puts the next tile of ``bag`` (drawn in order; a task tile on the
    task turns): a free hex with many neighbours where it fits, and for a task
    tile a type and a marker value the box still holds that do not fail at once."""
    position = load_position(text)
    board = position.board()
    want_task = turn in TASK_TURNS
    frontier = board.frontier() or [Hex(0, 0)]
    # a compact landscape, as at a table: hexes with most neighbours first
    frontier.sort(key=lambda h: (-board.neighbors_count(h), abs(h.q) + abs(h.r), h.q, h.r))
    for i, (section, code) in enumerate(bag):
        if ("task" in section) != want_task:
            continue
        for at in frontier[:8]:
            f = fit(board, at, code)
            if f is None:
                continue
            move = {"bag": i, "code": code, "at": at, "task": None}
            if not want_task:
                return move
            for kind in task_options(code, False):
                for value in (4, 5, 6):
                    if markers_left(position.record, kind, value) <= 0:
                        continue
                    p = build_placement("board-game", at.q, at.r, f.placed,
                                        {"task": f"{kind}/{value}"})
                    if illegal_now(position, None, p) is None:
                        move["task"] = (kind, value, len(task_options(code, False)))
                        return move
    return None


def test_a_45_tile_game_takes_three_taps_a_tile(page: Any, live: LiveServer) -> None:
    game_id = start_game(page, live)
    rng = random.Random(16)
    bag = [(t.section, t.code) for t in catalogue() if t.section in ("landscape", "task")]
    rng.shuffle(bag)
    taps: dict[str, list[int]] = {"landscape": [], "task": []}
    version = 1
    pans = 0
    bottom_bar = page.locator(".bottom-bar").bounding_box()
    for turn in range(1, TILES + 1):
        move = plan(live.record(game_id), bag, turn)
        assert move is not None, f"turn {turn}: nothing fits"
        bag.pop(move["bag"])
        n = 0
        at = move["at"]
        slot = page.locator(f'svg a.slot[data-q="{at.q}"][data-r="{at.r}"]')
        if pan_to(page, slot):
            n += 1  # a drag to bring the hex into view: counted as a tap, to be strict
            pans += 1
        slot.click()
        n += 1
        tile = page.locator(f'.picks li[data-code="{move["code"]}"] a')
        tile.wait_for()
        if turn in (1, 4, 30):
            shot(page, f"{turn:02d}-hex-tapped")
        tile.click()
        n += 1
        page.wait_for_selector(".place-form")
        place = page.locator(".place-form button.place")
        box = place.bounding_box()
        assert box is not None and box["y"] + box["height"] <= bottom_bar["y"] + 1, \
            f"turn {turn}: the Place button is under the bottom bar"
        if move["task"]:
            kind, value, options = move["task"]
            if options > 1:
                page.locator(f'.chips input[value="{kind}"]').check()
                n += 1
            if turn in (1, 8):
                shot(page, f"{turn:02d}-task-tile")
            page.locator(f'.values button[data-value="{value}"]').click()
            n += 1
            taps["task"].append(n)
        else:
            if turn in (4, 30):
                shot(page, f"{turn:02d}-tile-tapped")
            place.click()
            n += 1
            taps["landscape"].append(n)
        version += 1
        page.wait_for_selector(f'#play[data-version="{version}"]')
        assert live.placements(game_id) == turn
        svg = page.locator(".landscape.active svg.hexmap").bounding_box()
        assert svg is not None and svg["y"] >= -1 and svg["y"] < 200, \
            f"turn {turn}: the map is not in view after placing ({svg})"
    shot(page, "45-done")
    # rotate and undo at hand: the last tile can be taken back in one tap
    page.locator("button.undo").click()
    page.wait_for_selector(f'#play[data-version="{version + 1}"]')
    assert live.placements(game_id) == TILES - 1
    land, task = statistics.median(taps["landscape"]), statistics.median(taps["task"])
    print(f"\nmedian taps: landscape {land} ({len(taps['landscape'])} tiles), "
          f"task {task} ({len(taps['task'])} tiles); {pans} drags to pan the map")
    assert land <= 3 and task <= 4
    placed = [canonical(line.split()[2]) for line in live.record(game_id).splitlines()
              if line[:1].isdigit() or line[:1] == "-"]
    assert len(placed) == TILES - 1
