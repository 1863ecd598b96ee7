"""Offline from the first tap (issue 16 item 2), in a real headless Chromium at 390x844.

Debian's Chromium through Playwright (``tests/web/conftest.py``: never a downloaded browser;
service workers blocked, so a request made offline fails as it does without a cached answer).
The recorder page is loaded, then the connection drops before any tile is chosen
(``context.set_offline(True)``). Offline, the player taps free hexes and sees the picker of
the tiles that fit there (the same tiles, in the same order, as the engine's picker), picks,
rotates, chooses a tile from the catalogue and then its hex, places several tiles and undoes
one; nothing swaps an offline page into the game and the address never becomes /offline.
Meanwhile another phone puts a tile on one of the hexes. When the connection returns the
queue is sent, the server re-checks every placement: the one on the taken hex is refused and
shown with the server's reason, in the player's language (English, then German), the others
are kept; a reload shows that the server's map is what was placed.
Also: an undo of a tile already sent waits in the queue (its hex free again on the phone) and a
task tile takes its marker offline; an undo made stale by another phone is refused, never
replayed; the end-of-game entry works offline; a connection that fails while navigator.onLine
stays true is handled the same; a Duel is recorded turn by turn offline (the tile the other
player placed chosen for the next); with the real service worker a fragment request offline
is a bare 503 and a reload offline shows the newest map the server sent plus the placements
waiting.
Screenshots: ``test-artifacts/offline-*.png``.
"""

from __future__ import annotations

import random
from typing import Any

from flask_babel import force_locale
from flask_babel import gettext as _

from companion.rules import (
    LETTER_OF,
    TASK_TYPES,
    Board,
    Hex,
    RulesError,
    build_placement,
    canonical,
    catalogue,
    fit,
    load_position,
    next_tile_kind,
    place,
    rotate,
    tiles_left,
)
from companion.storage.games import get_game
from companion.web.db import get_db
from companion.web.edits import reason_of
from companion.web.play.offline import land
from companion.web.play.state import save_game
from companion.web.play.tiles import choices
from companion.web.play.views import picker
from tests.helpers import webtools
from tests.helpers.webtools import ARGS, BROWSER, CHROMIUM, VIEWPORT, LiveServer, wait_pending
from tests.web.test_web_browser_targets import SMALL

pytestmark = BROWSER

SEED = [(0, 0, "GGMTTM"), (1, -1, "GGGGGG")]
"""The map on the server before the phone goes offline (placed by another phone)."""


def shot(page: Any, name: str) -> None:
    webtools.shot(page, f"offline-{name}", full_page=False)


def fingers(page: Any, name: str) -> None:
    """Every target drawn offline is finger-sized too (test_web_browser_targets' check)."""
    small = page.evaluate(SMALL)
    assert small == [], f"{name}: targets under 44 px: {small}"



def server_place(live: LiveServer, game_id: int, q: int, r: int, code: str) -> None:
    """Another phone places ``code`` at ``q r`` (the server's own rule check)."""
    with live.app.test_request_context():
        row = get_game(get_db(), game_id)
        text = place(str(row["record"]), None, build_placement("board-game", q, r, code, {}))
        save_game(game_id, text, int(row["version"]))


def refusal(text: str, q: int, r: int, code: str, lang: str, live: LiveServer) -> str:
    """What the server says, in ``lang``, when ``code`` is placed at ``q r`` on ``text``."""
    try:
        place(text, None, build_placement("board-game", q, r, code, {}))
    except RulesError as err:
        with live.app.test_request_context(), force_locale(lang):
            return str(_("Not allowed: %(reason)s", reason=reason_of(err)))
    raise AssertionError("the placement is legal")


def other_phones_tile(text: str, at: Hex, avoid: str = "") -> str:
    """A tile with a copy left that the server's map takes at ``at`` (another phone's)."""
    position = load_position(text)
    board = position.board()
    left = tiles_left(position.record, board)
    return next(rotate(c.code, k) for c in choices() for k in range(6)
                if left.get((c.section, canonical(c.code)), 0) > 0 and c.code != avoid
                and board.illegal_reason(build_placement("board-game", at.q, at.r,
                                                         rotate(c.code, k), {})) is None)


def with_lines(text: str, placed: list[tuple[int, int, str]]) -> str:
    return text + "".join(f"{q} {r} {code}\n" for q, r, code in placed)


def engine_picks(text: str, at: Hex) -> list[str]:
    """The codes the picker offers at ``at``, the stack due first (the phone knows it after
    its own placements too)."""
    position = load_position(text)
    return [p.code for p in picker(position, position.board(), at)]


def map_tiles(page: Any) -> set[tuple[str, str]]:
    """(hex, code) of every tile drawn on the active map and not hidden by an undo."""
    tiles = page.locator(".landscape.active svg.hexmap g.tiles > g.tile:not(.undone)")
    return {(g.get_attribute("data-hex"), g.get_attribute("data-code")) for g in tiles.all()}


def start_seeded(page: Any, live: LiveServer) -> tuple[int, str]:
    page.goto(f"{live.url}/games/new")
    page.locator(".form-actions button.primary.big").click()   # Start the game
    page.wait_for_selector("#play")
    game_id = int(page.locator("#play").get_attribute("data-game"))
    for q, r, code in SEED:
        server_place(live, game_id, q, r, code)
    page.goto(f"{live.url}/play/{game_id}")
    page.wait_for_selector(f'#play[data-version="{1 + len(SEED)}"]')
    return game_id, live.record(game_id)


def go_offline(page: Any) -> None:
    page.context.set_offline(True)
    assert page.evaluate("() => navigator.onLine") is False


def tap_hex(page: Any, q: int, r: int) -> None:
    page.locator(f'svg.hexmap a.slot[data-q="{q}"][data-r="{r}"]').click()
    page.wait_for_selector(f'svg.hexmap a.slot.selected[data-q="{q}"][data-r="{r}"]')


def picker_codes(page: Any) -> list[str]:
    page.wait_for_selector(".picker .picks")
    return [li.get_attribute("data-code")
            for li in page.locator(".picker .picks li[data-code]").all()]


def placed_code(page: Any) -> str:
    return str(page.locator('.place-form input[name="code"]').input_value())


def place_chosen(page: Any, pending: int) -> tuple[int, int, str]:
    form = page.locator(".place-form")
    q = int(form.locator('input[name="q"]').input_value())
    r = int(form.locator('input[name="r"]').input_value())
    code = placed_code(page)
    form.locator("button.place").click()
    wait_pending(page, pending)
    page.wait_for_selector(f'svg.hexmap g.tile.pending[data-hex="{q},{r}"][data-code="{code}"]')
    return q, r, code


def assert_not_nested(page: Any, game_id: int) -> None:
    assert page.url.split("?")[0].endswith(f"/play/{game_id}"), page.url
    assert "/offline" not in page.url
    assert page.locator("header.top").count() == 1
    assert page.locator(".offline-page").count() == 0
    assert page.locator("#play").count() == 1


def test_recording_offline_from_the_first_tap(page: Any, live: LiveServer) -> None:
    game_id, text = start_seeded(page, live)
    go_offline(page)                     # before any tile is chosen
    shot(page, "01-offline-loaded")
    local: list[tuple[int, int, str]] = []

    # 1. tap a hex: the picker of the tiles that fit, as the engine orders them
    h1 = Hex(0, -1)
    tap_hex(page, *h1)
    assert_not_nested(page, game_id)
    codes = picker_codes(page)
    assert codes == engine_picks(text, h1)
    shot(page, "02-picker-offline")
    fingers(page, "picker")
    # pick the first: chosen in its best rotation; rotate right, then back
    page.locator(".picker .picks li[data-code] a").first.click()
    page.wait_for_selector(".place-form")
    best = fit(load_position(text).board(), h1, codes[0])
    assert best is not None and placed_code(page) == best.placed
    page.locator(".rotations a.rot-step").click()
    turned = rotate(codes[0], best.rotation + 1)
    assert placed_code(page) == turned
    assert page.locator("svg.hexmap g.tile.preview").get_attribute("data-code") == turned
    page.locator(f'.rotations a.rot[data-rot="{best.rotation}"]').click()
    assert placed_code(page) == best.placed
    assert page.locator("svg.hexmap g.tile.preview.legal").count() == 1
    shot(page, "03-chosen-offline")
    fingers(page, "chosen")
    local.append(place_chosen(page, 1))
    assert page.locator(".queued-note").is_visible()
    assert_not_nested(page, game_id)

    # 2. 'other tile': a catalogue tile first, then one of the hexes it fits (highlighted)
    h2 = Hex(2, -1)
    board = load_position(with_lines(text, local)).board()
    box = tiles_left(load_position(text).record, board)
    tile = next(c.code for c in choices()
                if box.get((c.section, canonical(c.code)), 0) > 0 and "task" not in c.section
                and fit(board, h2, c.code) is not None and c.code not in codes[:1])
    page.locator("input[data-filter]").fill(tile)
    page.locator(f'.chooser .catalogue li[data-code="{tile}"] a').click()
    page.wait_for_selector(".rotations")
    assert page.locator(".chooser").is_hidden()
    assert page.locator(f'svg.hexmap a.slot.legal[data-q="{h2.q}"][data-r="{h2.r}"]').count() == 1
    tap_hex(page, *h2)
    fitted = fit(board, h2, tile)
    assert fitted is not None and placed_code(page) == fitted.placed
    local.append(place_chosen(page, 2))
    # a tile whose every copy is on the map now leaves the catalogue
    after = load_position(with_lines(text, local))
    section = next(c.section for c in choices() if c.code == tile)
    if tiles_left(after.record, after.board()).get((section, canonical(tile)), 0) == 0:
        assert "used" in (page.locator(f'.chooser .catalogue li[data-code="{tile}"]')
                          .get_attribute("class") or "")

    # 3. two more from the picker (the stack due after the phone's placements first)
    for at in (Hex(-1, 1), Hex(1, 0)):
        tap_hex(page, *at)
        codes = picker_codes(page)
        assert codes == engine_picks(with_lines(text, local), at)
        page.locator(".picker .picks li[data-code] a").first.click()
        page.wait_for_selector(".place-form")
        local.append(place_chosen(page, len(local) + 1))
    shot(page, "04-four-placed-offline")
    assert page.locator(".play-head h1").inner_text() == f"Turn {len(SEED) + len(local) + 1}"
    assert map_tiles(page) == {(f"{q},{r}", c) for q, r, c in SEED + local}

    # 4. undo the last one: it was never sent, so it leaves the queue and the map
    page.locator("button.undo").click()
    wait_pending(page, 3)
    undone = local.pop()
    assert page.locator(f'svg.hexmap g.tile[data-hex="{undone[0]},{undone[1]}"]').count() == 0
    assert page.locator(f'svg.hexmap a.slot[data-q="{undone[0]}"][data-r="{undone[1]}"]').count()
    assert map_tiles(page) == {(f"{q},{r}", c) for q, r, c in SEED + local}
    assert live.placements(game_id) == len(SEED)        # nothing reached the server
    assert_not_nested(page, game_id)
    shot(page, "05-after-undo-offline")
    # a page the phone cannot make: says so, and the game stays as it is
    page.locator("nav.play-links a", has_text="End-of-game entry").click()
    note = page.locator("#play .local-note")
    note.wait_for()
    assert note.inner_text() == "You are offline: this needs the connection."
    assert_not_nested(page, game_id)
    assert map_tiles(page) == {(f"{q},{r}", c) for q, r, c in SEED + local}

    # 5. meanwhile another phone puts a tile on the second hex
    server_text = live.record(game_id)
    other = other_phones_tile(server_text, h2, avoid=tile)
    server_place(live, game_id, h2.q, h2.r, other)
    expected_reason = refusal(live.record(game_id), *local[1], "en", live)

    # 6. the connection returns: every placement is re-checked; the refused one says why
    page.context.set_offline(False)
    wait_pending(page, 0)
    banner = page.locator("#play .refused")
    banner.wait_for()
    q2, r2, c2 = local[1]
    assert f"Not placed: {c2} at {q2} {r2}. {expected_reason}" in banner.inner_text()
    kept = [local[0], local[2]]
    page.wait_for_selector(f'#play[data-version="{1 + len(SEED) + 1 + len(kept)}"]')
    shot(page, "06-back-online-refused-shown")
    fingers(page, "refused")
    want = {(f"{q},{r}", c) for q, r, c in [*SEED, (h2.q, h2.r, other), *kept]}
    assert map_tiles(page) == want
    assert page.locator("svg.hexmap g.tile.pending").count() == 0
    assert live.placements(game_id) == len(want)

    # 7. a reload: the server's map is what was placed; the refusal stays until dismissed
    page.reload()
    page.wait_for_selector("#play")
    assert map_tiles(page) == want
    assert f"{c2} at {q2} {r2}" in page.locator("#play .refused").inner_text()
    page.locator("#play .refused button.dismiss").click()
    assert page.locator("#play .refused").count() == 0
    assert_not_nested(page, game_id)


def test_a_refused_placement_is_explained_in_the_players_language(
        page: Any, live: LiveServer) -> None:
    page.context.add_cookies([{"name": "lang", "value": "de", "url": live.url}])
    game_id, text = start_seeded(page, live)
    go_offline(page)
    placed = []
    for at in (Hex(0, -1), Hex(-1, 1)):
        tap_hex(page, *at)
        assert "Plättchen, die hier passen" in page.locator(".picker h2").inner_text()
        page.locator(".picker .picks li[data-code] a").first.click()
        page.wait_for_selector(".place-form")
        placed.append(place_chosen(page, len(placed) + 1))
    assert_not_nested(page, game_id)
    q, r, code = placed[0]
    other = other_phones_tile(live.record(game_id), Hex(q, r))
    server_place(live, game_id, q, r, other)
    reason = refusal(live.record(game_id), q, r, code, "de", live)
    assert reason.startswith("Nicht erlaubt")
    page.context.set_offline(False)
    wait_pending(page, 0)
    banner = page.locator("#play .refused")
    banner.wait_for()
    assert f"Nicht gelegt: {code} auf {q} {r}. {reason}" in banner.inner_text()
    assert banner.locator("button.dismiss").inner_text() == "Ausblenden"
    page.wait_for_selector(f'#play[data-version="{1 + len(SEED) + 2}"]')
    want = {(f"{a},{b}", c) for a, b, c in [*SEED, (q, r, other), placed[1]]}
    assert map_tiles(page) == want
    shot(page, "07-refused-in-german")
    page.reload()
    page.wait_for_selector("#play")
    assert map_tiles(page) == want


def test_undoing_a_sent_tile_and_a_task_marker_wait_offline(page: Any, live: LiveServer) -> None:
    game_id, text = start_seeded(page, live)
    go_offline(page)
    # the last tile on the server's map: its undo waits in the queue, the hex is free again
    page.locator("button.undo").click()
    wait_pending(page, 1)
    q, r, code = SEED[-1]
    assert page.locator(f'svg.hexmap g.tile.undone[data-hex="{q},{r}"]').count() == 1
    tap_hex(page, q, r)
    without = "".join(ln + "\n" for ln in text.splitlines() if ln != f"{q} {r} {code}")
    codes = picker_codes(page)
    assert codes == engine_picks(without, Hex(q, r))
    assert code in codes          # its copy is back in the box
    # a task tile with a marker: a type chip, then a marker value button
    page.locator(".picker .picks li[data-code]:has(.badge-task) a").first.click()
    page.wait_for_selector(".place-form fieldset.task")
    chip = page.locator(".place-form fieldset.task label.chip:not([hidden])").first
    kind = chip.locator("input").get_attribute("value")
    chip.click()
    tile = placed_code(page)
    page.locator('.place-form .values button[data-value="5"]').click()
    wait_pending(page, 2)
    pending = page.locator(f'svg.hexmap g.tile.pending[data-hex="{q},{r}"][data-code="{tile}"]')
    assert pending.locator(".badge text").text_content() == "5"
    shot(page, "08-undo-and-task-offline")
    assert live.placements(game_id) == len(SEED)
    page.context.set_offline(False)
    wait_pending(page, 0)
    page.wait_for_selector(f'#play[data-version="{1 + len(SEED) + 2}"]')
    assert live.record(game_id).splitlines()[-1] == f"{q} {r} {tile} task={kind}/5"
    assert map_tiles(page) == {(f"{a},{b}", c) for a, b, c in [*SEED[:-1], (q, r, tile)]}
    assert page.locator("#play .refused").count() == 0


def test_a_connection_that_fails_while_the_phone_believes_it_is_online(
        page: Any, live: LiveServer) -> None:
    """Bad reception: navigator.onLine stays true but nothing reaches the server."""
    game_id, _text = start_seeded(page, live)
    page.route("**/play/**", lambda route: route.abort())
    assert page.evaluate("() => navigator.onLine") is True
    tap_hex(page, 0, -1)                 # the request fails: the tap is done on the phone
    picker_codes(page)
    page.locator(".picker .picks li[data-code] a").first.click()
    page.wait_for_selector(".place-form")
    q, r, code = place_chosen(page, 1)
    assert_not_nested(page, game_id)
    page.unroute("**/play/**")
    page.evaluate("() => window.companionQueue.flush()")
    wait_pending(page, 0)
    page.wait_for_selector(f'#play[data-version="{1 + len(SEED) + 1}"]')
    assert live.record(game_id).splitlines()[-1] == f"{q} {r} {code}"
    assert (f"{q},{r}", code) in map_tiles(page)


def test_a_duel_turn_by_turn_offline(page: Any, live: LiveServer) -> None:
    """Both landscapes, whose turn it is and the tile the other player placed are on the
    page too: red paints and places a task tile, blue gets it chosen with its marker, red
    picks it from the recent patterns, undoes; back online the server has both turns."""
    page.goto(f"{live.url}/games/new")
    page.locator('input[name="kind"][value="duel"]').check()
    page.locator(".form-actions button.primary.big").click()
    page.wait_for_selector("#play")
    game_id = int(page.locator("#play").get_attribute("data-game"))
    go_offline(page)
    heading = page.locator(".play-head h1")
    assert heading.inner_text() == "Turn 1: red places"
    page.locator('.landscape[data-player="red"].active svg a.slot').first.click()
    assert page.locator(".picker .picks li.hint").inner_text().startswith("No recent pattern")
    for edge, letter in enumerate("FFFFSS"):             # paint the tile (meadow is preset)
        page.locator(f'.paint input[name="e{edge}"][value="{letter}"]').check()
    page.locator(".paint button[type=submit]").click()
    page.wait_for_selector(".place-form")
    assert page.locator('.place-form input[name="player"]').input_value() == "red"
    page.locator('.place-form .chips input[value="forest"]').check()
    page.locator('.place-form .values button[data-value="4"]').click()
    wait_pending(page, 1)
    assert_not_nested(page, game_id)
    # blue's turn: the tile red placed is chosen for him, with its task and marker
    assert heading.inner_text() == "Turn 1: blue places"
    blue = page.locator('.landscape[data-player="blue"]')
    assert blue.get_attribute("class") == "landscape active"
    assert page.locator(".tools .offered").is_visible()
    assert page.locator(".chosen .code").inner_text() == "FFFFSS"
    # a look at red's landscape and back (the other player's tile is blue's to place)
    red = page.locator('.landscape[data-player="red"]')
    red.locator("h2 a.switch-player").click()
    assert red.get_attribute("class") == "landscape active"
    assert page.locator(".tools .offered").count() == 0
    page.locator('.landscape[data-player="blue"] h2 a.switch-player').click()
    assert blue.get_attribute("class") == "landscape active"
    assert page.locator(".chosen .code").inner_text() == "FFFFSS"
    page.locator('.landscape[data-player="blue"] svg a.slot').first.click()
    page.wait_for_selector(".place-form")
    assert page.locator('.place-form input[name="task_type"][value="forest"]').is_checked()
    page.locator(".place-form .values button.current").click()
    wait_pending(page, 2)
    # red's second turn: the recent pattern at a tapped hex, as the engine's picker offers it
    assert heading.inner_text() == "Turn 2: red places"
    red.locator("svg a.slot").first.click()
    q = int(red.locator("svg a.slot.selected").get_attribute("data-q"))
    r = int(red.locator("svg a.slot.selected").get_attribute("data-r"))
    text = ("game: duel\nplayer: red\n0 0 FFFFSS task=forest/4\n"
            "player: blue\n0 0 FFFFSS task=forest/4\n")
    position = load_position(text)
    assert picker_codes(page) == [p.code for p in picker(position, position.board("red"),
                                                         Hex(q, r))]
    page.locator(".picker .picks li[data-code] a").first.click()
    page.wait_for_selector(".place-form")
    page.locator(".place-form button.place").click()
    wait_pending(page, 3)
    assert red.locator("svg g.tile.pending").count() == 2
    shot(page, "09-duel-offline")
    fingers(page, "duel")
    page.locator("button.undo").click()                  # red's second tile, never sent
    wait_pending(page, 2)
    assert heading.inner_text() == "Turn 2: red places"
    assert red.locator("svg g.tile.pending").count() == 1
    # a painted tile the board game's box holds as a landscape tile still takes a task here
    landscape = next(c.code for c in choices() if c.section == "landscape")
    red.locator("svg a.slot").first.click()
    for edge, letter in enumerate(landscape):
        page.locator(f'.paint input[name="e{edge}"][value="{letter}"]').check()
    page.locator(".paint button[type=submit]").click()
    page.wait_for_selector(".place-form")
    assert page.locator(".place-form fieldset.task").count() == 1
    page.context.set_offline(False)
    wait_pending(page, 0)
    page.wait_for_selector('#play[data-version="3"]')
    assert live.record(game_id).count("0 0 FFFFSS task=forest/4") == 2
    assert heading.inner_text() == "Turn 2: red places"
    assert page.locator("#play .refused").count() == 0


def test_with_the_service_worker_a_fragment_offline_is_never_the_offline_page(
        live: LiveServer, tmp_path: Any) -> None:
    """The real service worker (the other tests block it): offline, a fragment request is
    answered 503 without a page, and a reload offline shows the newest map the server sent
    (not only the cached page, loaded before a placement made online) with the placements
    waiting on the phone."""
    import pytest

    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "sw-profile"), executable_path=CHROMIUM, headless=True, args=ARGS,
            viewport=VIEWPORT, is_mobile=True, has_touch=True, service_workers="allow",
            locale="en-US", base_url=live.url)
        context.set_default_timeout(15_000)
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(f"{live.url}/")
            assert page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
            game_id, _text = start_seeded(page, live)
            page.reload()
            page.wait_for_selector("#play")
            assert page.evaluate("() => !!navigator.serviceWorker.controller")
            assert not page.evaluate(
                "() => document.documentElement.hasAttribute('data-served-offline')")
            # one tile placed online through htmx: a fragment, newer than the cached page
            tap_hex(page, 0, -1)
            page.locator(".picker .picks li[data-code] a").first.click()
            page.wait_for_selector(".place-form")
            online = placed_code(page)
            page.locator(".place-form button.place").click()
            page.wait_for_selector(f'#play[data-version="{2 + len(SEED)}"]')
            go_offline(page)
            page.reload()                      # the cached page, then the newer map kept
            page.wait_for_selector(f'#play[data-version="{2 + len(SEED)}"]')
            # marked as the worker's copy: the phone may still think itself online
            assert page.evaluate(
                "() => document.documentElement.hasAttribute('data-served-offline')")
            assert ("0,-1", online) in map_tiles(page)
            answer = page.evaluate(
                """(url) => fetch(url, {headers: {"HX-Request": "true"}})
                     .then(r => r.text().then(t => [r.status,
                           r.headers.get("X-Companion-Offline"), t]))""",
                f"/play/{game_id}?at=-1,1")
            assert answer == [503, "1", ""]
            tap_hex(page, -1, 1)
            page.locator(".picker .picks li[data-code] a").first.click()
            page.wait_for_selector(".place-form")
            q, r, code = place_chosen(page, 1)
            page.reload()                      # offline: the service worker's cached copy
            page.wait_for_selector(f'svg.hexmap g.tile.pending[data-hex="{q},{r}"]')
            assert ("0,-1", online) in map_tiles(page)
            assert_not_nested(page, game_id)
            page.context.set_offline(False)
            wait_pending(page, 0)
            page.wait_for_selector(f'#play[data-version="{1 + len(SEED) + 2}"]')
            assert live.record(game_id).splitlines()[-1] == f"{q} {r} {code}"
        finally:
            context.close()


def test_an_undo_made_stale_by_another_phone_is_never_replayed(
        page: Any, live: LiveServer) -> None:
    """An undo kept offline takes back the last tile *as the phone saw it*: when another
    phone placed meanwhile it is refused with why (never undoing the other phone's tile);
    the placement queued after it is still re-checked and kept."""
    game_id, _text = start_seeded(page, live)
    go_offline(page)
    page.locator("button.undo").click()
    wait_pending(page, 1)
    tap_hex(page, 0, -1)
    page.locator(".picker .picks li[data-code] a").first.click()
    page.wait_for_selector(".place-form")
    q, r, code = place_chosen(page, 2)
    other = other_phones_tile(live.record(game_id), Hex(1, 0), avoid=code)
    server_place(live, game_id, 1, 0, other)
    page.context.set_offline(False)
    wait_pending(page, 0)
    banner = page.locator("#play .refused")
    banner.wait_for()
    assert banner.inner_text().startswith("Not saved: Someone else changed this game meanwhile")
    page.wait_for_selector(f'#play[data-version="{1 + len(SEED) + 2}"]')
    want = {(f"{a},{b}", c) for a, b, c in [*SEED, (1, 0, other), (q, r, code)]}
    assert map_tiles(page) == want
    assert live.placements(game_id) == len(want)


def test_the_end_of_game_entry_works_offline(page: Any, live: LiveServer) -> None:
    game_id, _text = start_seeded(page, live)
    page.goto(f"{live.url}/play/{game_id}/end")
    page.wait_for_selector("#play.mode-end")
    go_offline(page)
    placed = []
    for at in (Hex(0, -1), Hex(2, -1)):
        tap_hex(page, *at)
        page.locator(".picker .picks li[data-code] a").first.click()
        page.wait_for_selector(".place-form")
        assert page.locator('.place-form input[name="mode"]').input_value() == "end"
        placed.append(place_chosen(page, len(placed) + 1))
    assert page.locator(".play-head h1").inner_text() == "End-of-game entry"
    page.context.set_offline(False)
    wait_pending(page, 0)
    page.wait_for_selector(f'#play.mode-end[data-version="{1 + len(SEED) + 2}"]')
    assert page.url.endswith(f"/play/{game_id}/end")
    assert map_tiles(page) == {(f"{a},{b}", c) for a, b, c in [*SEED, *placed]}


def test_the_phones_picker_is_the_engines_on_every_free_hex(page: Any, live: LiveServer) -> None:
    """Random landscapes of 20 tiles: at every free hex the picker the phone computes (edge
    matching from the page's table) offers the engine's tiles, in its order, each in the
    engine's best rotation."""
    page.goto(f"{live.url}/games/new")
    page.locator(".form-actions button.primary.big").click()
    page.wait_for_selector("#play")
    game_id = int(page.locator("#play").get_attribute("data-game"))
    rng = random.Random(2)
    bag = [t.code for t in catalogue() if t.section in ("landscape", "task")]
    rng.shuffle(bag)
    placed = 0
    for code in bag:
        if placed == 20:
            break
        board = load_position(live.record(game_id)).board()
        spots = board.frontier() or [Hex(0, 0)]
        rng.shuffle(spots)
        found = next(((h, f) for h in spots if (f := fit(board, h, code)) is not None), None)
        if found is None:
            continue
        server_place(live, game_id, found[0].q, found[0].r, found[1].placed)
        placed += 1
        if placed % 5:
            continue
        page.goto(f"{live.url}/play/{game_id}")
        position = load_position(live.record(game_id))
        board = position.board()
        for at in board.frontier():
            phone = page.evaluate("([q, r]) => window.companionLocal.picker(q, r)", [at.q, at.r])
            engine = [f"{p.code}:{p.fit.rotation}" for p in picker(position, board, at)]
            assert phone == engine, (placed, at)


SCORED = "FGVTS"
SPLIT_MAP = ("game: board-game\nunlocked: box1, box2\n0 0 FFFFFF task=forest/4\n"
             "1 -1 GGGGGG task=grain/6\n-1 0 VVVVVV task=village/6\n"
             "0 1 FMMFMM split=F:0/3\n0 2 FMMFMM\n0 3 FMMMMM\n")
UNLOCKS = ["", "unlocked: box1\n", "unlocked: box2\n", "unlocked: box1, box2\n"]
"""Headers of the reveal-order test: the stacks' sizes change with the boxes unlocked."""


def random_lines(rng: random.Random, game: str, landscape: int) -> list[str]:
    """Random legal placements of catalogue tiles in any reveal order (task tiles about
    one in three, with a random marker that does not fail at once), up to ``landscape``
    tiles without a task: record lines."""
    board = Board()
    tiles = [t.code for t in catalogue()]
    lines: list[str] = []
    while sum("task=" not in ln for ln in lines) < landscape:
        code = rng.choice(tiles)
        attrs: dict[str, str] = {}
        kinds = [t for t in TASK_TYPES if LETTER_OF[t] in code]
        if kinds and rng.random() < 0.35:
            attrs["task"] = f"{rng.choice(kinds)}/{rng.choice([4, 4, 5, 6])}"
        options = list(board.legal_placements(build_placement(game, 0, 0, code, attrs)))
        if not options:
            continue
        at, k = rng.choice(options)
        placed = rotate(code, k)
        twice = [c for c in SCORED if placed.count(c) >= 2]
        if not attrs and twice and rng.random() < 0.2:   # art with separate patches
            letter = rng.choice(twice)
            edges = [str(e) for e, c in enumerate(placed) if c == letter]
            attrs["split"] = f"{letter}:{edges[0]}/{''.join(edges[1:])}"
        p = build_placement(game, at.q, at.r, placed, attrs)
        board.push(p)
        lines.append(f"{at.q} {at.r} {p.code}" + "".join(f" {k}={v}" for k, v in attrs.items()))
    return lines


def new_game_page(page: Any, live: LiveServer, text: str, kind: str = "board-game") -> int:
    """A game started on the phone whose record is then ``text`` (saved on the server)."""
    page.goto(f"{live.url}/games/new")
    if kind == "duel":
        page.locator('input[name="kind"][value="duel"]').check()
    page.locator(".form-actions button.primary.big").click()
    page.wait_for_selector("#play")
    game_id = int(page.locator("#play").get_attribute("data-game"))
    with live.app.test_request_context():
        save_game(game_id, text, int(get_game(get_db(), game_id)["version"]))
    page.goto(f"{live.url}/play/{game_id}")
    page.wait_for_selector("#play-data", state="attached")
    return game_id


def test_the_phones_stack_due_is_the_engines_after_every_placement(
        page: Any, live: LiveServer) -> None:
    """The stack due after placements the phone made (play-offline.js ``nextKind``: the
    markers replayed and the reveal order, with #play-data's ``order``) is the engine's
    ``next_tile_kind`` after every placement of random sequences, in any reveal order and
    past the last landscape tile, with and without the boxes that add tiles; in the Duel
    both name none."""
    rng = random.Random(16)
    for header in UNLOCKS:
        head = "game: board-game\n" + header
        new_game_page(page, live, head)
        for _round in range(2):
            lines = random_lines(rng, "board-game", 52)
            full = load_position(head + "".join(ln + "\n" for ln in lines))
            cells = land(full, None)["cells"]
            engine = [next_tile_kind(load_position(
                head + "".join(ln + "\n" for ln in lines[:k])).game) for k in range(len(lines) + 1)]
            phone = page.evaluate("(lists) => lists.map((c) => window.companionLocal.nextKind(c))",
                                  [cells[:k] for k in range(len(lines) + 1)])
            assert phone == engine, next(
                (k, lines[:k], phone[k], engine[k]) for k in range(len(engine))
                if phone[k] != engine[k])
            assert {"task", "landscape", "end"} <= set(engine)
            assert any("split=" in ln for ln in lines)
    # a tile whose split= keeps the forest of the task tile from the forest beyond: the
    # marker stays active, three markers are, a landscape tile is due (joined: a task tile)
    for split, kind in ((" split=F:0/3", "landscape"), ("", "task")):
        text = SPLIT_MAP.replace(" split=F:0/3", split)
        assert next_tile_kind(load_position(text).game) == kind
        assert page.evaluate("(c) => window.companionLocal.nextKind(c)",
                             land(load_position(text), None)["cells"]) == kind
    duel = "game: duel\nplayer: red\nplayer: blue\n"
    new_game_page(page, live, duel, kind="duel")
    lines = random_lines(rng, "duel", 14)
    text = duel.replace("player: blue\n", "".join(ln + "\n" for ln in lines) + "player: blue\n")
    cells = land(load_position(text), "red")["cells"]
    engine = [next_tile_kind(load_position(duel.replace(
        "player: blue\n", "".join(ln + "\n" for ln in lines[:k]) + "player: blue\n")).game)
        for k in range(len(lines) + 1)]
    phone = page.evaluate("(lists) => lists.map((c) => window.companionLocal.nextKind(c))",
                          [cells[:k] for k in range(len(lines) + 1)])
    assert phone == engine == [None] * (len(lines) + 1)
    assert page.evaluate("() => window.companionLocal.due()") is None


def test_a_redo_offline_takes_back_an_undo_not_sent_yet(page: Any, live: LiveServer) -> None:
    """Redo of an undo still waiting in the queue simply takes that undo back (the tile is
    on the map again, nothing is sent); a redo the server's redo stack holds says it
    needs the connection."""
    game_id, text = start_seeded(page, live)
    redo = page.locator("button.redo")
    page.locator("button.undo").click()                    # online: the server's undo
    page.wait_for_selector(f'#play[data-version="{2 + len(SEED)}"]')
    assert redo.is_enabled() and redo.inner_text() == "Redo (1)"
    go_offline(page)
    page.locator("button.undo").click()                    # offline: waits in the queue
    wait_pending(page, 1)
    q, r, code = SEED[0]
    assert page.locator(f'svg.hexmap g.tile.undone[data-hex="{q},{r}"]').count() == 1
    assert redo.is_enabled() and redo.inner_text() == "Redo (1)"
    redo.click()
    wait_pending(page, 0)
    assert page.locator(f'svg.hexmap g.tile.undone[data-hex="{q},{r}"]').count() == 0
    assert map_tiles(page) == {(f"{q},{r}", code)}
    assert page.locator(".local-note").count() == 0
    # the server's redo (the tile it took back online) needs the connection: told, not lost
    assert redo.is_enabled() and redo.inner_text() == "Redo (1)"
    redo.click()
    assert page.locator(".tools .local-note").inner_text() == (
        "You are offline: this needs the connection.")
    assert page.evaluate("() => window.companionQueue.pending()") == 0
    page.context.set_offline(False)
    page.goto(f"{live.url}/play/{game_id}")
    assert live.record(game_id) == "".join(
        ln + "\n" for ln in text.splitlines() if ln != "{} {} {}".format(*SEED[-1]))
