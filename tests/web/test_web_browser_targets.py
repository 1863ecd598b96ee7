"""Tap targets and popovers in a real headless Chromium at 390x844 (issue 16 item 6).

Every main-flow target of the recorder (links, buttons, summaries, chips, fields, the
free hexes of the map and the bottom bar) is at least 44x44 CSS px, and no page scrolls
sideways: an empty board game, a hex chosen (the picker), a task tile chosen, a map of
a dozen tiles, the end-of-game entry and a Duel. The Duel sheet's explanation popover
closes on a tap outside and on Escape. Screenshots: ``test-artifacts/targets-*.png``.
"""

from __future__ import annotations

from typing import Any

from tests.helpers import webtools
from tests.helpers.webtools import BROWSER, LiveServer

pytestmark = BROWSER

MIN = 44

SMALL = """() => {
  const out = [];
  const sel = "#play a[href]:not(.slot), #play button, #play summary, #play label.chip, " +
    "#play select, #play input:not([type=hidden]):not([type=radio]):not([type=checkbox]), " +
    ".bottom-bar a, .bottom-bar button";
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const shut = el.closest("details:not([open])");
    if (shut && !(el.tagName === "SUMMARY" && el.parentElement === shut)) continue;
    if (r.width < 44 || r.height < 43.5) {
      out.push(el.tagName + "." + el.className + " '" + (el.textContent || "").trim().slice(0, 20) +
               "' " + Math.round(r.width) + "x" + Math.round(r.height));
    }
  }
  for (const svg of document.querySelectorAll("#play .landscape.active svg.hexmap")) {
    const m = svg.getBoundingClientRect();
    for (const a of svg.querySelectorAll("a.slot")) {
      const r = a.getBoundingClientRect();
      const inside = r.left >= m.left && r.right <= m.right
        && r.top >= m.top && r.bottom <= m.bottom;
      if (inside && r.height < 43.5) {
        out.push("slot " + Math.round(r.width) + "x" + Math.round(r.height));
      }
    }
  }
  return out;
}"""


def check(page: Any, name: str) -> None:
    page.wait_for_selector("#play")
    webtools.shot(page, f"targets-{name}")
    small = page.evaluate(SMALL)
    assert small == [], f"{name}: targets under {MIN} px: {small}"
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name}: the page scrolls sideways by {overflow} px"


def start(page: Any, live: LiveServer, kind: str = "board-game") -> int:
    page.goto(f"{live.url}/games/new")
    if kind == "duel":
        page.locator('input[name="kind"][value="duel"]').check()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("#play")
    return int(page.locator("#play").get_attribute("data-game"))


def place_best(page: Any, version: int) -> None:
    """Tap free hexes until a landscape tile fits one, tap that tile, Place."""
    landscape = page.locator(".picks li[data-code]:not(:has(.badge-task)) a")
    for i in range(page.locator("svg a.slot").count()):
        slot = page.locator("svg a.slot").nth(i)
        at = (slot.get_attribute("data-q"), slot.get_attribute("data-r"))
        page.goto(slot.get_attribute("href"))  # the hex may lie panned off the map
        page.wait_for_selector(f'#play[data-version="{version}"] .picks')
        page.wait_for_selector(f'svg a.slot.selected[data-q="{at[0]}"][data-r="{at[1]}"]')
        if landscape.count():
            break
    landscape.first.click()
    page.wait_for_selector(".place-form")
    page.locator(".place-form button.place").click()
    page.wait_for_selector(f'#play[data-version="{version + 1}"]')


def test_recorder_targets_are_finger_sized(page: Any, live: LiveServer) -> None:
    game_id = start(page, live)
    check(page, "01-empty")
    page.locator("svg a.slot").first.click()
    page.wait_for_selector(".picks")
    check(page, "02-picker")
    page.locator('.picks li[data-code="GGGGTT"] a').click()
    page.wait_for_selector(".values")
    check(page, "03-task-tile")
    page.locator('.chips input[value="grain"]').check()
    page.locator('.values button[data-value="5"]').click()
    page.wait_for_selector('#play[data-version="2"]')
    for version in range(2, 24):
        place_best(page, version)
    assert live.placements(game_id) == 23
    check(page, "04-23-tiles")
    page.locator("svg a.slot").first.click()
    page.wait_for_selector(".picks")
    check(page, "05-23-tiles-picker")
    page.goto(f"{live.url}/play/{game_id}/end")
    check(page, "06-end-of-game")


def test_duel_recorder_and_sheet_popover(page: Any, live: LiveServer) -> None:
    game_id = start(page, live, "duel")
    check(page, "07-duel")
    page.locator(".landscape.active svg a.slot").first.click()
    page.wait_for_selector(".paint")
    check(page, "08-duel-hex")
    # paint a tile by taps (meadow is preset): FFFFSS is four taps, then Use, then Place
    for edge, letter in enumerate("FFFFSS"):
        page.locator(f'.paint input[name="e{edge}"][value="{letter}"]').check()
    page.locator(".paint button[type=submit]").click()
    page.wait_for_selector(".place-form")
    check(page, "08b-duel-painted")
    page.locator('.chips input[value="forest"]').check()
    page.locator('.values button[data-value="4"]').click()
    page.wait_for_selector('#play[data-version="2"]')
    assert "0 0 FFFFSS task=forest/4" in live.record(game_id)
    # blue: the turn's tile is chosen for him: tap the hex, tap the marker
    page.locator(".landscape.active svg a.slot").first.click()
    page.wait_for_selector(".place-form")
    page.locator('.values button.current').click()
    page.wait_for_selector('#play[data-version="3"]')
    assert live.record(game_id).count("FFFFSS task=forest/4") == 2
    # red's next turn: the recent pattern is offered at a tapped hex
    page.locator(".landscape.active svg a.slot").first.click()
    page.wait_for_selector('.picks li[data-code="FFFFSS"]')
    check(page, "08c-duel-recent")
    page.goto(f"{live.url}/games/{game_id}")
    cell = page.locator("details.duel-cell").first
    cell.locator("summary").click()
    assert cell.get_attribute("open") is not None
    webtools.shot(page, "targets-09-duel-popover")
    page.locator("h1").first.click()  # a tap outside
    assert cell.get_attribute("open") is None
    cell.locator("summary").click()
    assert cell.get_attribute("open") is not None
    page.keyboard.press("Escape")
    assert cell.get_attribute("open") is None
