"""The recorder in a real headless Chromium at a phone's 390x844 viewport.

The system browser (/usr/bin/chromium, Debian) driven by Playwright with a fresh
user-data directory; never a downloaded browser (skipped with the reason when
/usr/bin/chromium is missing). The app runs on 127.0.0.1 in a thread (werkzeug
``make_server``) with a real SQLite file and CSRF on. Screenshots go to
``test-artifacts/`` (gitignored).

Flows: start a game, record 12 tiles by taps (typing a pattern, tapping a tile and
a highlighted hex, placing) with an illegal attempt (explained) and an undo; open
the score sheet and one explanation (its tiles highlighted on the map); the
offline case (the connection drops with a tile chosen: 'other tile', a catalogue tile and a
hex still work, the placement is kept and sent when back online). Offline from the first
tap: ``test_web_browser_offline.py``.
"""

from __future__ import annotations

from typing import Any

from companion.rules import parse_record
from tests.helpers import webtools
from tests.helpers.webtools import BROWSER, LiveServer, wait_pending

pytestmark = BROWSER



def shot(page: Any, name: str) -> None:
    webtools.shot(page, f"play-{name}")


def start_game(page: Any, live: LiveServer) -> int:
    page.goto(f"{live.url}/games/new")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("#play")
    game_id = int(page.locator("#play").get_attribute("data-game"))
    assert page.url.endswith(f"/play/{game_id}")
    return game_id


def wait_version(page: Any, version: int) -> None:
    page.wait_for_selector(f'#play[data-version="{version}"]')


def choose_tile(page: Any, pattern: str) -> None:
    """Type part of the pattern, tap the first tile that still shows."""
    box = page.locator("input[data-filter]")
    box.fill("")
    box.type(pattern)
    first = page.locator(".catalogue li[data-code]:not([hidden]) a").first
    code = first.locator(".code").inner_text()
    assert pattern in code + code[:5]
    first.click()
    page.wait_for_selector(".chosen .code")


def place_somewhere(page: Any, pattern: str, version: int) -> None:
    choose_tile(page, pattern)
    page.locator("svg a.slot.legal").first.click()
    page.wait_for_selector(".place-form")
    page.locator(".place-form button.place").click()
    wait_version(page, version + 1)


def test_record_twelve_tiles_by_taps(page: Any, live: LiveServer) -> None:
    game_id = start_game(page, live)
    shot(page, "01-empty")
    version = 1
    # the first tile: a task tile with a marker (a type chip, then a marker value button)
    choose_tile(page, "GGGGTT")
    page.locator("svg a.slot").first.click()
    page.locator('.chips input[name="task_type"][value="grain"]').check()
    shot(page, "02-first-tile")
    page.locator('.values button[data-value="5"]').click()
    version += 1
    wait_version(page, version)
    assert "task=grain/5" in live.record(game_id)

    # an illegal attempt: grain against the tile's track edge, explained in words
    choose_tile(page, "GGGGGG")
    page.locator('svg a.slot[data-q="-1"][data-r="1"]').click()
    page.wait_for_selector(".place-form")
    shot(page, "03-illegal-preview")
    page.locator(".place-form button.place").click()
    error = page.locator("#play-error")
    error.wait_for()
    text = error.inner_text()
    assert "meets track" in text and "A track edge may only meet a track edge" in text
    shot(page, "04-illegal-explained")
    assert live.placements(game_id) == 1

    patterns = ["MMM", "FFF", "VVV", "TMT", "GGG", "MF", "VM", "GM", "FM", "MM", "GG"]
    for pattern in patterns[:6]:
        page.goto(f"{live.url}/play/{game_id}")
        place_somewhere(page, pattern, version)
        version += 1
    assert live.placements(game_id) == 7

    # undo the last placement, then keep going
    page.locator("button.undo").click()
    version += 1
    wait_version(page, version)
    assert live.placements(game_id) == 6
    assert page.locator("button.redo").inner_text().startswith("Redo (1)")
    shot(page, "05-after-undo")
    for pattern in patterns[6:]:
        place_somewhere(page, pattern, version)
        version += 1
    assert live.placements(game_id) == 11
    place_somewhere(page, "M", version)
    version += 1
    assert live.placements(game_id) == 12
    # zoom buttons change the map's viewBox
    svg = page.locator(".landscape.active svg.hexmap")
    before = svg.get_attribute("viewBox")
    page.locator('[data-zoom="in"]').click()
    assert svg.get_attribute("viewBox") != before
    shot(page, "06-twelve-tiles-zoomed")
    # dragging pans (the map was re-initialised after every htmx swap)
    assert svg.get_attribute("data-ready") == "1"
    zoomed = svg.get_attribute("viewBox")
    svg.scroll_into_view_if_needed()
    box = svg.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 60, y + 40, steps=6)
    page.mouse.up()
    assert svg.get_attribute("viewBox") != zoomed
    assert live.placements(game_id) == 12  # a drag is not a tap on a hex
    page.locator('[data-zoom="fit"]').click()
    assert svg.get_attribute("viewBox") == before
    shot(page, "07-twelve-tiles")
    # markers panel: the task marker's live status
    assert page.locator(".markers li.marker").count() == 1

    # the score sheet and one explanation, its tiles highlighted on the map
    page.locator("a.score-link").click()
    page.wait_for_selector("details.pad-row")
    shot(page, "08-score-sheet")
    row = page.locator("details.pad-row").filter(has_text="Longest track").first
    tiles = row.get_attribute("data-tiles") or ""
    row.locator("summary").click()
    page.wait_for_selector(".tile.hl")
    lit = {f"{g.get_attribute('data-hex')}" for g in page.locator(".tile.hl").all()}
    assert lit == set(tiles.split())
    row.scroll_into_view_if_needed()
    shot(page, "09-explanation")


def test_offline_placement_is_kept_and_sent(page: Any, live: LiveServer) -> None:
    game_id = start_game(page, live)
    place_somewhere(page, "GGGGGG", 1)
    choose_tile(page, "MMM")
    page.locator("svg a.slot.legal").first.click()
    page.wait_for_selector(".place-form")
    context = page.context
    context.set_offline(True)
    # issue 16: 'other tile' and a catalogue tile offline used to nest the offline page
    page.locator(".chosen a.clear").click()
    page.locator(".picker .picks li[data-code]").first.wait_for()   # the hex's picker
    page.locator(".chooser > summary").click()
    choose_tile(page, "MMM")
    page.locator("svg a.slot.legal").first.click()
    page.wait_for_selector(".place-form")
    assert page.locator("header.top").count() == 1 and page.locator(".offline-page").count() == 0
    assert "/offline" not in page.url
    page.locator(".place-form button.place").click()
    wait_pending(page, 1)
    page.locator(".queued-note").wait_for(state="visible")
    shot(page, "10-offline-queued")
    assert live.placements(game_id) == 1
    context.set_offline(False)
    wait_pending(page, 0)
    wait_version(page, 3)
    assert live.placements(game_id) == 2
    assert page.locator(".hexmap .tile").count() == 2
    shot(page, "11-back-online-sent")


def test_end_of_game_entry_by_taps(page: Any, live: LiveServer) -> None:
    game_id = start_game(page, live)
    page.locator("a", has_text="End-of-game entry").click()
    page.wait_for_selector("#play.mode-end")
    version = 1
    for pattern in ("GGGGGG", "FFF", "VVV"):
        place_somewhere(page, pattern, version)
        version += 1
    for kind, value in (("forest", 5), ("grain", 4), ("forest", 5)):
        page.locator(f'button.marker-button[data-type="{kind}"][data-value="{value}"]').click()
        version += 1
        wait_version(page, version)
    # the box holds two forest 5s: the button is now disabled, the sum is 14
    assert page.locator('button.marker-button[data-type="forest"][data-value="5"]').is_disabled()
    assert "sum 14" in page.locator(".completed h2").inner_text()
    record = parse_record(live.record(game_id))
    assert [t.text() for t in record.completed] == ["forest/5", "grain/4", "forest/5"]
    assert len(record.placements) == 3
    shot(page, "12-end-of-game-entry")
