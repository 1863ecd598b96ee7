"""The offline walk (issue 16 item 9), in each of the four languages: the recorder is loaded,
the connection drops before the first tile, and the player taps a hex, picks a tile, places
it, undoes it and places again, all on the phone; the connection returns and the placement
reaches the server. Every page state is looked at as the other walks do
(``tests/web/test_web_browser_walks.py``: screenshot, no sideways scroll, targets >= 44 px,
no untranslated engine text or English words), and the game is never replaced by an
offline page. Screenshots: the walks' folder, ``<lang>/offline/`` there.
"""

from __future__ import annotations

from typing import Any

from tests.helpers.webtools import BROWSER, wait_pending
from tests.web.test_web_browser_offline import (
    SEED,
    assert_not_nested,
    go_offline,
    place_chosen,
    start_seeded,
)
from tests.web.test_web_browser_walks import (  # noqa: F401 (the walks' fixtures)
    Walk,
    chromium,
    server,
    walk,
)

pytestmark = BROWSER


def choose_on_the_phone(w: Walk, name: str) -> None:
    """Tap a free hex and the first tile the phone's picker offers."""
    page: Any = w.page
    w.tap(page.locator("#play .landscape.active svg a.slot").first)
    page.wait_for_selector("svg.hexmap a.slot.selected")
    page.wait_for_selector(".picker .picks li[data-code]")
    w.look(f"offline-{name}-picker")
    w.tap(page.locator(".picker .picks li[data-code] a").first)
    page.wait_for_selector(".place-form")
    w.look(f"offline-{name}-chosen")


def test_recording_starts_offline_in_every_language(walk: Walk) -> None:  # noqa: F811
    w, page = walk, walk.page
    w.folder = w.folder / "offline"                    # beside the other walks' shots
    w.folder.mkdir(exist_ok=True)
    for old in w.folder.glob("*.*"):
        old.unlink()
    game_id, _ = start_seeded(page, w.live)
    english = w.game_english(game_id)
    go_offline(page)                                   # before the first tile
    choose_on_the_phone(w, "first")
    place_chosen(page, 1)
    assert_not_nested(page, game_id)
    w.look("offline-placed", english)
    w.tap(page.locator("#play button.undo"))
    wait_pending(page, 0)
    w.look("offline-undone", english)
    choose_on_the_phone(w, "again")
    place_chosen(page, 1)
    assert_not_nested(page, game_id)
    page.context.set_offline(False)
    wait_pending(page, 0)
    page.wait_for_selector(f'#play[data-version="{1 + len(SEED) + 1}"]')
    assert page.locator("svg.hexmap g.tile.pending").count() == 0
    assert page.locator("#play .refused").count() == 0
    assert w.live.placements(game_id) == len(SEED) + 1
    w.look("offline-sent", w.game_english(game_id))
    assert_not_nested(page, game_id)
    assert w.problems == []
