"""Bad photos are refused with one clear reason, never a crash or a hang."""

from __future__ import annotations

import argparse
import json

import cv2
import numpy as np
import pytest

from companion.commands.scan import run
from companion.vision import ScanConfig, ScanError, scan
from tests.helpers.scanner_synth import draw_map, random_map


def test_empty_table() -> None:
    rng = np.random.default_rng(0)
    table = np.clip(rng.normal(150, 5, (600, 800, 3)), 0, 255).astype(np.uint8)
    with pytest.raises(ScanError, match="no tiles found"):
        scan(table)


def test_photo_of_something_else() -> None:
    # A grey mug-like disc on a white table: foreground, but not hexagonal tiles.
    img = np.full((600, 800, 3), 235, np.uint8)
    cv2.circle(img, (400, 300), 150, (90, 60, 160), -1)
    cv2.rectangle(img, (100, 80), (250, 200), (30, 30, 30), -1)
    with pytest.raises(ScanError, match="no tiles recognised"):
        scan(img)


def test_a_map_photographed_in_the_dark_is_refused_as_too_dark() -> None:
    """A map at a twentieth of its light: its art is not told from the table, and the
    reason says why; the same photo in its light is read."""
    photo, _ = draw_map(random_map(7, 0), size=60)
    assert len(scan(photo).tiles) == 7
    dark = (photo.astype(np.float32) * 0.05).astype(np.uint8)
    with pytest.raises(ScanError, match="the photo is too dark") as refused:
        scan(dark)
    assert refused.value.code == "no-tiles-too-dark"


def test_a_dark_table_with_nothing_on_it_is_too_dark_and_a_lit_one_is_empty() -> None:
    rng = np.random.default_rng(1)
    table = np.clip(rng.normal(150, 5, (600, 800, 3)), 0, 255).astype(np.uint8)
    with pytest.raises(ScanError, match="the table looks empty"):
        scan(table)
    with pytest.raises(ScanError, match="too dark"):
        scan((table // 8).astype(np.uint8))


def test_time_limit() -> None:
    photo, _ = draw_map(random_map(5, 0), size=60)
    with pytest.raises(ScanError, match="time limit"):
        scan(photo, ScanConfig().tuned(time_limit_s=0.0))


def test_scan_error_is_value_error() -> None:
    assert issubclass(ScanError, ValueError)


def _args(photo: str, json_out: bool = False, debug: str | None = None) -> argparse.Namespace:
    return argparse.Namespace(photo=photo, json=json_out, debug=debug)


def test_command_refuses_with_one_line(tmp_path: object, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    bad = tmp_path / "notes.jpg"  # type: ignore[operator]
    bad.write_text("not a photo")
    assert run(_args(str(bad))) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion: ") and err.count("\n") == 1


def test_command_prints_record_json_and_debug(tmp_path: object,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    truth = random_map(7, 3)
    photo, _ = draw_map(truth, size=60, seed=3)
    path = tmp_path / "map.png"  # type: ignore[operator]
    cv2.imwrite(str(path), photo)
    assert run(_args(str(path))) == 0
    out = capsys.readouterr().out
    assert out.startswith("game: board-game\n") and len(out.splitlines()) == 1 + len(truth)
    debug_dir = tmp_path / "dbg"  # type: ignore[operator]
    assert run(_args(str(path), json_out=True, debug=str(debug_dir))) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["tiles"]) == len(truth) and data["record"] == out
    assert sorted(p.name for p in debug_dir.iterdir()) == [
        "scan-mask.png", "scan-overlay.png", "scan-tiles.png"]
