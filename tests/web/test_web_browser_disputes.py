""""May this tile go here?" with the recorder's picker, in a real headless Chromium at
390x844 (issue 16): tap a free hex, tap a tile of the picker, read the answer (2 taps);
a rotate button turns it (a third tap). Every tap target is at least 44 CSS px, and a
tile the picker does not show is typed (the "other tile" fallback). Screenshots:
``test-artifacts/dispute-*.png``.
"""

from __future__ import annotations

from typing import Any

from companion.web import records
from companion.web.db import get_db
from tests.helpers import webtools
from tests.helpers.webtools import BROWSER, LiveServer

pytestmark = BROWSER

GAME = """game: board-game
0 0 GGGGGG task=grain/4
0 -1 MMMGMM
1 -1 MGGMGG flag=grain
"""
TARGET = 44


def start_game(page: Any, live: LiveServer) -> int:
    page.goto(f"{live.url}/games/new")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("#play")
    game_id = int(page.locator("#play").get_attribute("data-game"))
    with live.app.app_context():
        version = int(live.game(game_id)["version"])
        records.save_record(get_db(), game_id, version, GAME)
    return game_id


def size(locator: Any) -> tuple[float, float]:
    box = locator.bounding_box()
    assert box is not None
    return box["width"], box["height"]


def big_enough(locator: Any, what: str) -> None:
    w, h = size(locator)
    assert w >= TARGET and h >= TARGET, f"{what}: {w:.0f}x{h:.0f} px"


def test_tap_hex_tap_tile_answer(page: Any, live: LiveServer) -> None:
    game_id = start_game(page, live)
    page.goto(f"{live.url}/games/{game_id}")
    page.get_by_role("link", name="May this tile go here?").click()
    page.wait_for_selector(".dispute svg.hexmap")
    taps = 0
    slot = page.locator('svg.hexmap a.slot[data-q="1"][data-r="0"]')
    big_enough(slot, "free hex")
    slot.tap()
    taps += 1
    pick = page.locator(".picks li a").first
    pick.wait_for()
    webtools.shot(page, "dispute-1-hex-tapped", full_page=False)
    big_enough(pick, "tile of the picker")
    code = page.locator(".picks li").first.get_attribute("data-code")
    pick.tap()
    taps += 1
    answer = page.locator(".ruling-answer")
    answer.wait_for()
    assert "Yes, this tile may go here." in answer.inner_text()
    assert code and page.locator(".ruling-answer .chosen").is_visible()
    webtools.shot(page, "dispute-2-answer", full_page=False)
    answer_taps = taps
    buttons = page.locator(".rotations a")
    for i in range(buttons.count()):
        big_enough(buttons.nth(i), f"rotate button {i}")
    other = page.locator('.rotations a.rot:not(.current)').first
    steps = other.get_attribute("data-rot")
    other.tap()
    taps += 1
    page.wait_for_selector(f'.rotations a.rot.current[data-rot="{steps}"]')
    assert page.locator(".ruling-answer").is_visible()
    print(f"\ntaps to the answer: {answer_taps} (tap hex, tap tile); {taps} with a rotation")
    assert answer_taps <= 3


def test_other_tile_is_typed(page: Any, live: LiveServer) -> None:
    game_id = start_game(page, live)
    page.goto(f"{live.url}/games/{game_id}/dispute")
    page.locator('svg.hexmap a.slot[data-q="1"][data-r="0"]').tap()
    page.locator(".picks li a").first.wait_for()
    page.locator("details.other-tile summary").tap()
    page.locator("#code").fill("TMMMMM")
    ask = page.get_by_role("button", name="Ask the rules")
    big_enough(ask, "Ask the rules")
    ask.tap()
    page.locator(".ruling-answer").wait_for()
    assert "Yes, this tile may go here." in page.locator(".ruling-answer").inner_text()
    page.locator('.rotations a.rot:not(.legal)').first.tap()
    page.wait_for_selector(".ruling-answer.illegal")
    webtools.shot(page, "dispute-3-typed-illegal", full_page=False)
