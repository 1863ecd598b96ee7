"""A real headless Chromium plays a short campaign on a phone-sized screen.

Two finished games are added through the pages (the first by its total, the second by
pasting its record), their crosses are spent by tapping the glowing circles of the
advancement track, Box 1 opens (its unlock moment is shown), and the next game starts
with its unlocks (its record header ``unlocked: box1`` and the set-up reminders).
Screenshots go to ``test-artifacts/``. Skipped when ``/usr/bin/chromium`` is absent;
never downloads a browser.
"""

from __future__ import annotations

import re
from typing import Any

from tests.helpers import webtools
from tests.helpers.webtools import BROWSER

RECORD = """game: board-game
players: Ana, Rui
0 0 GGGGGG task=grain/4
0 -1 MMMGMM
1 -1 MGGMGG flag=grain
1 0 MMMMMG
"""

pytestmark = BROWSER


def shot(page: Any, name: str, full: bool = False) -> None:
    webtools.shot(page, f"campaign-{name}", full_page=full)


def tap_circle(page: Any) -> None:
    """Tap the first glowing circle of the track and wait for the new sheet."""
    version = page.locator("#campaign").get_attribute("data-version")
    page.locator("svg[data-track] a[data-cross]").first.tap()
    page.wait_for_function(
        "v => document.querySelector('#campaign') && "
        "document.querySelector('#campaign').dataset.version !== v", arg=version)


def confirm(page: Any) -> None:
    version = page.locator("#campaign").get_attribute("data-version")
    page.get_by_role("button", name="Confirm").tap()
    page.wait_for_function(
        "v => document.querySelector('#campaign').dataset.version !== v", arg=version)


def test_browser_plays_a_short_campaign(page: Any) -> None:
    page.goto("/campaigns")
    shot(page, "0-list")
    page.fill("#camp-name", "Sunday table")
    page.fill("#camp-players", "Ana, Rui")
    page.get_by_role("button", name="Start the campaign").tap()
    page.wait_for_url(re.compile(r"/campaigns/\d+$"))
    assert page.locator("h1").inner_text() == "Sunday table"
    assert page.locator("svg[data-track] circle.c").count() == 123
    assert page.locator("svg[data-track] circle.c.heart").count() == 3

    # Game 1, played on paper: its total is typed in.
    page.fill("#score", "78")
    page.get_by_role("button", name="Add the game").tap()
    page.wait_for_selector(".crosses-left[data-available='1']")
    shot(page, "1-first-game")
    tap_circle(page)
    assert page.locator("svg[data-track] circle.c.crossed").count() == 1
    assert page.locator(".crosses-left").get_attribute("data-available") == "0"
    confirm(page)
    assert page.get_by_role("button", name="Undo").count() == 0

    # Game 2: its record is pasted and scored by the app.
    page.get_by_text("…or its record (.dorf)").tap()
    page.fill("#record", RECORD)
    page.get_by_role("button", name="Score it and add the game").tap()
    page.wait_for_selector(".crosses-left[data-available='1']")
    assert "Game 2" in page.locator(".last-game").inner_text()
    tap_circle(page)
    moment = page.locator(".moment.fresh[data-unlock='box1']")
    moment.wait_for()
    assert "Open Box 1" in moment.inner_text()
    assert page.locator("svg[data-track] g.hex.reached[data-hex='box1']").count() == 1
    assert page.locator("svg[data-track] circle.c.crossed").count() == 2
    shot(page, "2-box1-opened")
    confirm(page)
    shot(page, "3-sheet-full", full=True)

    # The next game starts with its unlocks.
    page.get_by_role("button", name="New game in this campaign").tap()
    page.wait_for_url(re.compile(r"/campaigns/\d+/games/\d+$"))
    header = page.locator("[data-unlocked-header]").inner_text()
    assert header.strip() == "Box 1"
    reminders = page.locator(".checklist").inner_text()
    assert "Add the tiles of" in reminders and "the task tiles of Box 1" in reminders
    assert "box-1-task" not in reminders
    shot(page, "4-next-game", full=True)
    page.get_by_role("link", name=re.compile("Start recording|Open the game")).tap()
    page.wait_for_url(re.compile(r"/play/\d+"))
    page.wait_for_load_state("networkidle")
    shot(page, "5-recorder")
    game_id = re.search(r"/play/(\d+)", page.url).group(1)  # type: ignore[union-attr]
    record = page.request.get(f"/games/{game_id}.dorf").text()
    assert "unlocked: box1" in record.splitlines()

    page.goto("/campaigns/1/history")
    assert page.locator("svg[data-chart] g.bar").count() == 2
    values = [int(t) for t in page.locator("svg[data-chart] .value").all_text_contents()]
    assert page.locator("[data-best]").inner_text() == str(max(values))
    shot(page, "6-history", full=True)
