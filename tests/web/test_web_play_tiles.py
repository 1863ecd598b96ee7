"""The recorder's tile choice and map geometry, without HTTP."""

from __future__ import annotations

from companion.rules import load_position, random_record, rotate
from companion.web.hexmap import map_view
from companion.web.play.tiles import choices, filter_catalogue, matches, painted_code


def test_pattern_matches_every_rotation_and_only_those() -> None:
    for k in range(6):
        assert matches("TTMG", rotate("GGMTTM", k))
    assert not matches("TG", "GGMTTM")
    assert {c.code for c in filter_catalogue("")} == {c.code for c in choices()}
    assert all("SS" in c.code + c.code[:5] for c in filter_catalogue("ss"))
    assert painted_code(list("tmmmmm")) == "TMMMMM"
    assert painted_code(["T", "M", "", "M", "M", "M"]) is None


def test_map_view_geometry_fits_all_tiles() -> None:
    position = load_position(random_record(5, landscape=20))
    view = map_view(position.board())
    x, y, w, h = (float(v) for v in view.viewbox.split())
    for t in view.tiles + view.slots:  # type: ignore[operator]
        assert x < t.cx < x + w and y < t.cy < y + h
    assert len(view.tiles) == len(position.board())
    assert {(s.q, s.r) for s in view.slots} == {tuple(h) for h in position.board().frontier()}
