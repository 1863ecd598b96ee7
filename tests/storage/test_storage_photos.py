"""Photos and the photo review draft: a photo and its draft are stored together, a
confirmed review and the game's new record are saved together."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.storage import NotFoundError, StaleEditError, open_db
from companion.storage import photos as store
from companion.storage.games import create_game, get_game, update_game

RECORD = "game: board-game\n0 0 GGGGGG task=grain/4\n"


def new_draft(draft: store.StoredReview | None, photo_id: int) -> tuple[dict, int | None]:
    return {"photos": [photo_id]}, None


def test_a_photo_is_stored_with_its_draft(tmp_path: Path) -> None:
    db = open_db(tmp_path / "p.db")
    gid = create_game(db, RECORD)
    pid = store.add_photo(db, gid, b"\xff\xd8one", 4, 3, {"tiles": []}, new_draft)
    assert store.photo_bytes(db, gid, pid) == b"\xff\xd8one"
    assert [(p["id"], p["width"], p["scan"]) for p in store.photos_of(db, gid)] == [
        (pid, 4, {"tiles": []})]
    review = store.get_review(db, gid)
    assert review is not None and review.state == {"photos": [pid]} and review.version == 1
    with pytest.raises(NotFoundError):
        store.photo_bytes(db, gid + 1, pid)


def test_a_refused_draft_stores_no_photo(tmp_path: Path) -> None:
    db = open_db(tmp_path / "p.db")
    gid = create_game(db, RECORD)

    def refuse(draft: store.StoredReview | None, photo_id: int) -> tuple[dict, int | None]:
        raise ValueError("the photos do not overlap")

    with pytest.raises(ValueError, match="overlap"):
        store.add_photo(db, gid, b"\xff\xd8", 4, 3, None, refuse)
    assert store.photos_of(db, gid) == [] and store.get_review(db, gid) is None


def test_confirming_saves_record_and_review_together_or_not_at_all(tmp_path: Path) -> None:
    db = open_db(tmp_path / "p.db")
    gid = create_game(db, RECORD)
    store.add_photo(db, gid, b"\xff\xd8", 4, 3, None, new_draft)
    draft = store.get_review(db, gid)
    assert draft is not None
    update_game(db, gid, 1, record=RECORD + "0 -1 MMMGMM\n")  # someone else saved
    with pytest.raises(StaleEditError) as stale:
        store.confirm_review(db, gid, 1, RECORD + "1 0 MMMMMG\n", None, draft)
    assert stale.value.what == f"game {gid}"
    review = store.get_review(db, gid)
    assert review is not None and review.status == "review"
    version = store.confirm_review(db, gid, 2, RECORD + "1 0 MMMMMG\n", {"total": 1}, draft)
    assert get_game(db, gid)["version"] == version == 3
    review = store.get_review(db, gid)
    assert review is not None and review.status == "confirmed" and review.version == 2
    with pytest.raises(StaleEditError) as stale_review:  # the draft was confirmed meanwhile
        store.confirm_review(db, gid, 3, RECORD, None, draft)
    assert stale_review.value.what.startswith("photo review")
    assert get_game(db, gid)["version"] == 3  # the game's save was rolled back
