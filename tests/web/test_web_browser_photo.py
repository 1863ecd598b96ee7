"""The photo flow in a real headless Chromium at a phone's 390x844 viewport.

The system browser (/usr/bin/chromium) driven by Playwright with a fresh user-data
directory; never a downloaded browser (skipped with the reason when it is missing).
The app runs on 127.0.0.1 in a thread with a real SQLite file and CSRF on.
Screenshots go to ``test-artifacts/photo-*.png`` (gitignored).

Flow: start a game, "Photograph the table", a file that is not a photo (refused in
place), upload the rendered sample photo
``sample_photos/wood-from-above.jpg`` (upload progress shown), review the reading,
fix the tiles the scanner misread (the first by tapping it on the photo and picking the
right tile, the others by painting their edges), add missed / delete extra tiles,
confirm, tap two completed markers in the end-of-game entry, open the score sheet.
What has to be fixed is found at run time by aligning the reading with the photo's
``.dorf`` truth (``best_alignment``), so the test follows the scanner's accuracy;
the final map must equal the truth and the sheet's total the truth's score.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.rules import Hex, Placement, best_alignment, parse_record, score_text, write_record
from companion.web.photos.review import Review
from tests.helpers import webtools
from tests.helpers.webtools import BROWSER, ROOT, LiveServer

pytestmark = BROWSER

PHOTO = ROOT / "sample_photos" / "wood-from-above.jpg"
TRUTH = PHOTO.with_suffix(".dorf")

if not PHOTO.exists():
    pytest.skip("sample_photos/ is missing: run python -m companion.vision.synth.render --samples "
                "sample_photos", allow_module_level=True)


@pytest.fixture()
def page_timeout() -> int:
    return 20_000


def shot(page: Any, name: str) -> None:
    webtools.shot(page, f"photo-{name}")


# --------------------------------------------------------------- the truth
def truth_on(review: Review) -> dict[Hex, Placement]:
    """The photo's true map moved into the review's frame (``best_alignment``)."""
    truth = parse_record(TRUTH.read_text())
    transform, _score = best_alignment(review.codes(), {p.at: p.code
                                                        for p in truth.placements})
    out = {}
    for p in truth.placements:
        at = transform.apply_hex(p.at)
        out[at] = Placement(at, transform.apply_code(p.code), task=p.task, flag=p.flag)
    return out


def attrs_of(p: Placement) -> tuple[str, str, str]:
    if p.task is None:
        return "", "", p.flag or ""
    return p.task.type, "" if p.task.value is None else str(p.task.value), p.flag or ""


def review_attrs(review: Review, at: Hex) -> tuple[str, str, str]:
    tile = review.tiles[at]
    kind, value = tile.task
    return kind, value, str(tile.attributes.get("flag", ""))


def open_editor(page: Any, live: LiveServer, game_id: int, at: Hex, add: bool = False) -> None:
    """Tap the tile (or free hex) on the photo; go by its link when it is off the photo."""
    selector = (f'.ov-slot[data-add="{at.q},{at.r}"]' if add
                else f'.ov-tile[data-tile="{at.q},{at.r}"]')
    link = page.locator(selector)
    if link.count():
        link.first.click()
    else:
        key = "add" if add else "tile"
        page.goto(f"{live.url}/games/{game_id}/photos/review?{key}={at.q},{at.r}")
    page.wait_for_selector("#editor")


def paint(page: Any, p: Placement) -> None:
    """Set the editor's six edges and the task/flag fields to ``p`` and save."""
    form = page.locator("#editor form.paint-form")
    for e in range(6):
        form.locator(f'select[name="e{e}"]').select_option(p.code[e])
    kind, value, flag = attrs_of(p)
    form.locator('select[name="task_type"]').select_option(kind)
    form.locator('select[name="task_value"]').select_option(value)
    form.locator('select[name="flag"]').select_option(flag)
    form.locator("button[type=submit]").click()


def saved(page: Any, live: LiveServer, game_id: int, version_before: int) -> None:
    page.wait_for_selector(f'#review:not([data-version="{version_before}"])')


def version_of(page: Any) -> int:
    return int(page.locator("#review").get_attribute("data-version"))


def test_photo_flow_upload_review_fix_confirm_score(live: LiveServer, page: Any) -> None:
    # a new game, then its page with "Photograph the table"
    page.goto(f"{live.url}/games/new")
    page.locator("input[name=players]").fill("Ana, Rui")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r".*/play/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    page.goto(f"{live.url}/games/{game_id}")
    page.get_by_role("link", name="Photograph the table").click()
    page.wait_for_selector("input[type=file][capture=environment]")
    # a file that is not a photo: the refusal replaces the form in place (photo.js)
    page.set_input_files("input[type=file]", {"name": "notes.jpg", "mimeType": "image/jpeg",
                                              "buffer": b"shopping list: bread, milk"})
    page.get_by_role("button", name="Read the photo").click()
    error = page.locator("#photo-error")
    error.wait_for()
    assert "not a photo the companion can read" in error.inner_text()
    assert page.url.endswith(f"/games/{game_id}/photos/new")
    shot(page, "00-not-a-photo")
    page.set_input_files("input[type=file]", str(PHOTO))
    shot(page, "01-upload-form")
    page.get_by_role("button", name="Read the photo").click()
    page.wait_for_selector(".photo-progress:not([hidden])")  # photo.js shows progress
    page.wait_for_url(re.compile(r".*/photos/review$"), timeout=90_000)
    page.wait_for_selector(".photo-overlay .ov-tile")
    shot(page, "02-review")

    review = live.review(game_id)
    truth = truth_on(review)
    shared = [h for h in truth if h in review.tiles]
    assert len(shared) >= len(truth) // 2, "the scanner found less than half of the tiles"
    wrong = [h for h in shared if review.tiles[h].code != truth[h].code]
    misread = [h for h in shared if review_attrs(review, h) != attrs_of(truth[h])]

    # 1. fix one tile by tapping it on the photo and picking the right tile
    first = (wrong or misread or shared)[0]
    open_editor(page, live, game_id, first)
    shot(page, "03-editor")
    before = version_of(page)
    choice = page.locator(f'#editor .tile-choice[data-code="{truth[first].code}"]:not([disabled])')
    if choice.count():
        choice.first.click()
        saved(page, live, game_id, before)
        open_editor(page, live, game_id, first)
        before = version_of(page)
    paint(page, truth[first])
    saved(page, live, game_id, before)
    assert live.review(game_id).tiles[first].code == truth[first].code
    shot(page, "04-fixed-one")

    # 2. the rest, so the map is the table's: repaint, add missed tiles, delete extras
    for h in dict.fromkeys([*wrong, *misread]):
        if h == first:
            continue
        open_editor(page, live, game_id, h)
        before = version_of(page)
        paint(page, truth[h])
        saved(page, live, game_id, before)
    for _round in range(len(truth)):
        current = live.review(game_id)
        missing = [h for h in truth if h not in current.tiles and h in current.frontier()]
        if not missing:
            break
        open_editor(page, live, game_id, missing[0], add=True)
        before = version_of(page)
        paint(page, truth[missing[0]])
        saved(page, live, game_id, before)
    for h in [h for h in live.review(game_id).tiles if h not in truth]:
        open_editor(page, live, game_id, h)
        before = version_of(page)
        page.locator("#editor .delete-form button").click()
        saved(page, live, game_id, before)
    final = live.review(game_id)
    assert final.codes() == {h: p.code for h, p in truth.items()}
    page.goto(f"{live.url}/games/{game_id}/photos/review")
    assert "Legal: every tile fits" in page.locator(".verdict").first.inner_text()
    shot(page, "05-review-legal")

    # 3. confirm: the map becomes the game's final map; then the end-of-game entry
    page.get_by_role("button", name="Confirm this map").click()
    page.wait_for_url(re.compile(rf".*/play/{game_id}/end$"))
    record = parse_record(live.record(game_id))
    assert {p.at: p.code for p in record.placements} == final.codes()
    shot(page, "06-end-of-game")
    for kind, value in (("forest", 4), ("grain", 5)):
        count = page.locator(".completed-list li").count()
        page.locator(f'button.marker-button[data-type="{kind}"][data-value="{value}"]').click()
        page.wait_for_selector(f".completed-list li >> nth={count}")
    assert [(t.type, t.value) for t in parse_record(live.record(game_id)).completed] == [
        ("forest", 4), ("grain", 5)]
    shot(page, "07-markers")

    # 4. the score sheet: the table's true score with the two completed markers
    page.locator("a.score-link").click()
    page.wait_for_url(re.compile(rf".*/games/{game_id}$"))
    total = int(page.locator(".pad-row.kind-total .pad-value").inner_text())
    truth_record = parse_record(TRUTH.read_text())
    truth_record.completed = parse_record(live.record(game_id)).completed
    assert total == score_text(write_record(truth_record))["total"]
    assert total == score_text(live.record(game_id))["total"]
    page.locator(".pad-row.kind-total summary").click()
    shot(page, "08-score-sheet")


@pytest.fixture(scope="module")
def sample_reading() -> tuple[Any, dict[str, Any]]:
    """The sample photo cleaned and read once by the real scanner."""
    from companion.vision import scan
    from companion.web.photos.image import normalise

    clean = normalise(PHOTO.read_bytes())
    return clean, scan(clean.bgr).to_json()


@pytest.mark.parametrize("lang", ["en", "de", "es", "pt_BR"])
@pytest.mark.parametrize("case", ["poor-fit", "one-tile"])
def test_a_photo_fitted_poorly_is_said_on_the_review_in_every_language(
        live: LiveServer, page: Any, sample_reading: tuple[Any, dict[str, Any]],
        lang: str, case: str) -> None:
    """A reading the scanner says fits poorly (``poor_fit``), or of a single tile: the
    review opens with the note, in the player's language, within the phone's width,
    every edge marked."""
    from flask_babel import force_locale

    from companion.storage import photos as store
    from companion.web.db import get_db
    from companion.web.photos.review import from_scan

    page.context.add_cookies([{"name": "lang", "value": lang, "url": live.url}])
    page.goto(f"{live.url}/games/new")
    page.locator("input[name=players]").fill("Ana, Rui")
    page.locator("form button[type=submit]").first.click()
    page.wait_for_url(re.compile(r".*/play/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    clean, result = sample_reading
    marked = [{**t, "doubtful": list(range(6))} for t in result["tiles"]]
    poor = ({**result, "fit": 0.12, "poor_fit": True, "tiles": marked} if case == "poor-fit"
            else {**result, "tiles": marked[:1]})
    with live.app.test_request_context(), force_locale(lang):
        db = get_db()
        with store.transaction(db):
            pid = store.insert_photo(db, game_id, clean.jpeg, clean.width, clean.height, poor)
            store.put_review(db, game_id, from_scan(poor, pid).to_json(), None)
        note = from_scan(poor, pid).notes[0]
    page.goto(f"{live.url}/games/{game_id}/photos/review")
    hint = page.locator("#review .review-head p.hint", has_text=note[:20]).first
    hint.wait_for()
    assert hint.inner_text() == note and hint.is_visible()
    english = "misread the tile size" if case == "poor-fit" else "only one tile was found"
    assert (lang == "en") is (english in note)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, f"{case}-{lang}")
