"""The evaluation script: alignment, scoring, and a run on one tiny rendered photo."""

from __future__ import annotations

import json

import cv2
import numpy as np

from companion.rules import Hex, Placement, rotate
from companion.vision.scan import Scan, ScannedTile
from companion.vision.synth import evaluate as ev
from companion.vision.synth.render import render_record

TRUTH = [
    ev.Truth((0, 0), "GGMTTM", None, None, None, (100.0, 100.0)),
    ev.Truth((0, 1), "TFFFFT", "forest", 5, None, (100.0, 186.0)),
    ev.Truth((1, 0), "SSMFFM", None, None, "forest", (175.0, 143.0)),
    ev.Truth((-1, 1), "VVVMMT", None, None, None, (25.0, 186.0)),
]


def _tile(at: tuple[int, int], code: str, attrs: str = "", conf: float = 1.0,
          center: tuple[float, float] = (0.0, 0.0), mismatch: tuple[int, ...] = (),
          doubtful: tuple[int, ...] = ()) -> ScannedTile:
    placement = Placement.parse(f"{at[0]} {at[1]} {code} {attrs}", "board-game")
    return ScannedTile(placement, (conf,) * 6, center, mismatch, doubtful)


def _scan_turned(k: int, shift: tuple[int, int], wrong_edge: bool = False) -> Scan:
    """A scan that saw the truth turned by -k steps and shifted (as a real scan may)."""
    tiles = []
    for t in TRUTH:
        at = Hex(*t.at).rotate(-k)
        code = rotate(t.code, -k)
        if wrong_edge and t.at == (0, 0):
            code = "V" + code[1:]
        attrs = f"task={t.task_type}/{t.marker}" if t.task_type else ""
        tiles.append(_tile((at.q + shift[0], at.r + shift[1]), code, attrs, center=t.centre))
    return Scan(tiles=tiles, kind="assembled")


def test_alignment_undoes_rotation_and_translation():
    for k in range(6):
        scan = _scan_turned(k, (3, -2))
        tally = ev.compare(scan, TRUTH, "assembled")
        assert tally.placed_right == 4 and tally.edges_right == 24 and tally.tiles_right == 4
        assert tally.markers_right == 1 and tally.tasks_right == 1


def test_a_wrong_edge_and_a_missing_tile_are_counted():
    scan = _scan_turned(2, (0, 0), wrong_edge=True)
    ghost = _tile((5, 5), "MMMMMM", conf=0.5, center=(900.0, 900.0))  # seen on the table
    scan = Scan(tiles=[*scan.tiles[:3], ghost], kind="assembled")  # (-1, 1) missed
    tally = ev.compare(scan, TRUTH, "assembled")
    assert tally.found == 3 and tally.extra == 1
    assert tally.placed_right == 3
    assert tally.edges_right == 3 * 6 - 1 and tally.edges == 24
    assert tally.tiles_right == 2


def test_wrong_edges_are_counted_doubtful_only_on_their_own_edge():
    """The scan saw the truth turned by 2 steps with edge 0 of tile (0, 0) wrong: marking
    the scan's edge 0 doubtful catches it (whatever the turn), marking edge 1 does not."""
    for marked, caught in (((0,), 1), ((1,), 0)):
        scan = _scan_turned(2, (0, 0), wrong_edge=True)
        tiles = [_tile(tuple(s.at), s.code, " ".join(f"{k}={v}" for k, v in s.attributes.items()),
                       center=s.center_px, doubtful=marked if tuple(s.at) == (0, 0) else ())
                 for s in scan.tiles]
        tally = ev.compare(Scan(tiles=tiles, kind="assembled"), TRUTH, "assembled")
        assert tally.edges_right == 23
        assert tally.wrong_doubtful == caught and tally.wrong_undoubted == [1 - caught]
        assert tally.edges_doubtful == 1 and tally.collapsed == 0
        assert ("below 0.900: 0/1" in tally.doubt_curve([0.9])[0])  # confidences are 1.0


def test_an_assembled_map_read_as_one_tile_is_a_collapse():
    scan = Scan(tiles=[_tile((0, 0), "MMMMMM", center=TRUTH[0].centre)], kind="loose")
    tally = ev.compare(scan, TRUTH, "assembled")
    assert tally.collapsed == 1


def test_a_scan_said_to_fit_poorly_is_counted_with_its_phantoms():
    scan = _scan_turned(0, (0, 0))
    ghost = _tile((5, 5), "MMMMMM", conf=0.5, center=(900.0, 900.0))
    said = Scan(tiles=[*scan.tiles, ghost], kind="assembled", fit=0.1, poor_fit=True)
    tally = ev.compare(said, TRUTH, "assembled")
    assert tally.poor_fit == 1 and tally.poor_fit_extra == tally.extra == 1
    assert "said to fit poorly" in tally.photo_line("p")
    assert "photos said to fit poorly: 1 (1 of the phantoms below)" in tally.lines()
    quiet = ev.compare(Scan(tiles=[*scan.tiles, ghost], kind="assembled"), TRUTH, "assembled")
    assert quiet.poor_fit == quiet.poor_fit_extra == 0
    assert "said to fit poorly" not in quiet.photo_line("p")


def test_a_task_read_on_a_landscape_tile_is_counted():
    scan = _scan_turned(0, (0, 0))
    tiles = [_tile(tuple(t.at), t.code, "task=village" if tuple(t.at) == (-1, 1) else
                   " ".join(f"{k}={v}" for k, v in t.attributes.items()), center=t.center_px)
             for t in scan.tiles]
    tally = ev.compare(Scan(tiles=tiles, kind="assembled"), TRUTH, "assembled")
    assert tally.tasks_extra == 1 and tally.tasks_right == 1 == tally.tasks
    assert "(+1 read on landscape tiles)" in "\n".join(tally.lines())
    assert ev.compare(scan, TRUTH, "assembled").tasks_extra == 0


def test_mismatches_present_and_flagged():
    a = _tile((0, 0), "MMMTMM", mismatch=(3,))
    b = _tile((0, 1), "MMMMMM")
    c = _tile((1, 0), "MMMMMS")  # S meets M, unflagged
    assert ev._mismatches([a, b, c]) == (2, 1)


def test_loose_tiles_compare_codes_modulo_rotation():
    truth = [ev.Truth((1, 0), "GGMTTM", None, None, None, (100.0, 100.0)),
             ev.Truth((2, 0), "MFFFFF", None, None, None, (400.0, 100.0))]
    scan = Scan(tiles=[_tile((0, 0), rotate("MFFFFF", 2), center=(405.0, 98.0)),
                       _tile((1, 0), rotate("GGMTTM", 5), center=(97.0, 104.0))], kind="loose")
    tally = ev.compare(scan, truth, "loose")
    assert tally.placed_right == 2 and tally.edges_right == 12


def test_a_failing_scanner_counts_misses_not_crashes():
    case = ev.Case("x", b"not a photo", TRUTH, "assembled")

    def broken(photo: bytes) -> Scan:
        raise RuntimeError("boom")

    tally = ev.evaluate([case], broken)
    assert tally.errors == 1 and tally.placed_right == 0 and tally.edges == 24
    assert any("boom" in line for line in tally.lines())


def test_evaluate_runs_the_real_scanner_on_one_tiny_photo(tmp_path, capsys):
    text = "game: board-game\n0 0 GGMTTM\n0 1 TFFFFT task=forest/5\n1 0 SSMFFM\n"
    r = render_record(text, seed=1, size_px=(640, 480), tilt_deg=10)
    cv2.imwrite(str(tmp_path / "tiny.jpg"), r.image)
    (tmp_path / "tiny.truth.json").write_text(json.dumps(r.truth_json()), "utf-8")
    assert ev.main(["--set", "samples", "--samples-dir", str(tmp_path), "--per-photo"]) == 0
    out = capsys.readouterr().out
    assert "photos:                 1" in out
    assert "seconds per photo" in out
    assert out.splitlines()[1].startswith("tiny.jpg: tiles ")


def test_each_photo_is_reported_with_its_own_tally():
    """``evaluate``'s ``each`` sees every photo's own tally, and the totals add them."""
    whole = _scan_turned(0, (0, 0))
    short = Scan(tiles=whole.tiles[:2], kind="assembled")
    scans = {b"whole": whole, b"short": short}

    def scanner(photo: bytes) -> Scan:
        if photo not in scans:
            raise RuntimeError("boom")
        return scans[photo]

    seen: dict[str, ev.Tally] = {}
    cases = [ev.Case(n, n.encode(), TRUTH, "assembled") for n in ("whole", "short", "bad")]
    total = ev.evaluate(cases, scanner, seen.__setitem__)
    assert list(seen) == ["whole", "short", "bad"]
    assert [t.placed_right for t in seen.values()] == [4, 2, 0]
    assert total.placed_right == 6 and total.truth_tiles == 12
    assert seen["whole"].photo_line("whole").startswith("whole: tiles 4/4 +0, edges 24/24")
    assert "failed" in seen["bad"].photo_line("bad")
    assert "failed" not in seen["short"].photo_line("short")


def test_the_light_of_generated_photos_can_be_fixed(capsys):
    """``--shadow`` and friends reach the renderer: the same seed in deep shadow is darker."""
    plain = next(ev.rendered_cases(1, 3, (480, 360), shadow=0.0, lighting=0.0, glare=0.0))
    dark = next(ev.rendered_cases(1, 3, (480, 360), shadow=0.5, lighting=0.0, glare=0.0))
    mean = [cv2.imdecode(np.frombuffer(c.photo, np.uint8), cv2.IMREAD_GRAYSCALE).mean()
            for c in (plain, dark)]
    assert mean[1] < mean[0] - 2
    assert ev.main(["--set", "rendered", "--count", "1", "--size", "640x480",
                    "--shadow", "0.3", "--glare", "0"]) == 0
    assert capsys.readouterr().out.startswith("set: rendered, shadow 0.3, glare 0.0")


def test_skipped_photos_leave_the_rest_of_a_set_as_it_was() -> None:
    """``skip`` draws only the later photos of a set, the same ones as without it."""
    whole = list(ev.rendered_cases(3, 11, (320, 240)))
    tail = list(ev.rendered_cases(3, 11, (320, 240), skip=2))
    assert [c.name for c in tail] == ["rendered-13"]
    assert tail[0].photo == whole[2].photo and tail[0].truth == whole[2].truth
    assert len(whole[0].truth) != len(whole[1].truth) or whole[0].photo != whole[1].photo


def test_missed_flags_marked_doubtful_are_counted() -> None:
    from types import SimpleNamespace

    from companion.vision.synth.evaluate import Truth, compare

    truth = [Truth((0, 0), "FFMMMM", None, None, "forest", (0.0, 0.0)),
             Truth((1, 0), "FFMMMM", None, None, "forest", (100.0, 0.0)),
             Truth((2, 0), "FFMMMM", None, None, None, (200.0, 0.0))]

    def scanned(q: int, flag: str | None, doubtful: bool) -> SimpleNamespace:
        return SimpleNamespace(at=(q, 0), code="FFMMMM", confidence=(1.0,) * 6,
                               attributes={"flag": flag} if flag else {}, doubtful=(),
                               mismatch=(), center_px=(100.0 * q, 0.0), flag_doubtful=doubtful)

    tally = compare(SimpleNamespace(tiles=[scanned(0, None, True), scanned(1, None, False),
                                           scanned(2, None, False)]), truth, "loose")
    assert (tally.flags, tally.flags_right, tally.flags_doubtful) == (2, 0, 1)


def test_the_loose_composite_set_scores_loose_tiles_by_pixel(capsys) -> None:
    """``--set loose-composite``: real crops lying apart, scored as loose tiles; without
    the tiles folder it says so and stops."""
    from companion.vision.synth.composite import shared_tiles_dir

    if shared_tiles_dir() is None:
        assert ev.main(["--set", "loose-composite", "--count", "1"]) == 0
        assert "lacks the tile photos" in capsys.readouterr().out
        return
    case = next(ev.loose_composite_cases(1, 40, (1600, 1200)))
    assert case.kind == "loose" and 6 <= len(case.truth) <= 25
    assert ev.main(["--set", "loose-composite", "--count", "1", "--seed", "40",
                    "--size", "1600x1200", "--per-photo"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("set: loose-composite")
    assert "loose-composite-40: tiles " in out


def test_the_share_of_the_photo_the_tiles_span_can_be_fixed(capsys) -> None:
    """``--fill``: the same seed photographed from farther spans less of the photo."""
    def span(fill: float) -> float:
        case = next(ev.rendered_cases(1, 3, (640, 480), fill=fill))
        xs = [t.centre[0] for t in case.truth]
        return max(xs) - min(xs)

    assert span(0.45) < 0.7 * span(0.9)
    assert ev.main(["--set", "rendered", "--count", "1", "--size", "640x480",
                    "--fill", "0.5"]) == 0
    assert capsys.readouterr().out.startswith("set: rendered, fill 0.5")


def test_maps_with_holes_are_evaluated_on_request(capsys):
    """``--holes`` reaches the renderer (fewer tiles, the same seed) and is refused where
    there is no map to hole."""
    for seed in range(20, 40):  # a seed whose map has a tile that far inside
        whole = next(ev.rendered_cases(1, seed, (320, 240)))
        holed = next(ev.rendered_cases(1, seed, (320, 240), holes=0.5))
        if len(holed.truth) < len(whole.truth):
            break
    else:
        raise AssertionError("no map of seeds 20..39 has a tile with four neighbours")
    assert {t.at for t in holed.truth} < {t.at for t in whole.truth}
    assert ev.main(["--set", "rendered", "--count", "1", "--size", "480x360",
                    "--seed", str(seed), "--holes", "0.5"]) == 0
    assert capsys.readouterr().out.startswith("set: rendered, holes 0.5")
    assert ev.main(["--set", "loose-composite", "--holes", "0.5"]) == 1
    assert ev.main(["--set", "rendered", "--holes", "1.5"]) == 1
    assert "--holes takes a share" in capsys.readouterr().err
