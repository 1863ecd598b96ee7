"""The web app's layout: one package per feature (routes + views + its templates), and no
SQL in the web layer (storage owns every query)."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "companion" / "web"
FEATURES = ("games", "play", "campaigns", "photos", "disputes")
SQL = re.compile(r"(\bdb|get_db\(\))\.(execute|query|executescript)\(|\bdb\[|\bsqlite3\b|"
                 r"\b(SELECT\s+\S+.*\bFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|"
                 r"CREATE\s+(TABLE|INDEX))\b")


def test_the_web_layer_writes_no_sql() -> None:
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in sorted(WEB.rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if SQL.search(line)]
    assert found == []


def test_the_sql_pattern_finds_sql() -> None:
    """The pattern above is not blind (a query in any of its usual spellings)."""
    for line in ('db.execute("PRAGMA x")', 'rows = get_db().query("SELECT id FROM games")',
                 '"UPDATE games SET owner = ?"', 'db["games"].insert(row)'):
        assert SQL.search(line), line
    assert not SQL.search("query = urlencode(sel.query(**changes))")


def test_each_feature_is_a_package_with_routes_views_and_templates(app: Flask) -> None:
    for feature in FEATURES:
        assert (WEB / feature / "routes.py").is_file(), feature
        assert (WEB / feature / "views.py").is_file(), feature
        assert list((ROOT / "templates" / feature).glob("*.html")), feature
        assert feature in app.blueprints, feature


def test_only_the_shared_templates_stay_at_the_top() -> None:
    """Pages live in templates/<feature>/; only the shared ones (and the installable app's
    own pages, offline and join, served by ``pwa``) stay at the top."""
    top = sorted(p.name for p in (ROOT / "templates").glob("*.html"))
    assert top == ["_error.html", "_hexmap.html", "_hexmap_defs.html", "_hexmap_small.html",
                   "_join.html", "_offline.html", "_tile_picker.html", "base.html", "error.html",
                   "join.html", "offline.html"]
