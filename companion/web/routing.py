"""URL converters: every ``<int:...>`` of a route is a number a SQLite row id can be.

Werkzeug's own ``int`` accepts any run of digits; an id of 2**64 or of 5000 digits then
fails deep in SQLite (a 500). ``RowId`` matches only 0 .. 2**63 - 1, so such a URL is
simply not found (404), exactly like an id that does not exist.
"""

from __future__ import annotations

from typing import Any

from werkzeug.routing import IntegerConverter, Map, ValidationError

ROW_ID_MAX = 2**63 - 1


class RowId(IntegerConverter):
    def __init__(self, url_map: Map, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", ROW_ID_MAX)
        super().__init__(url_map, *args, **kwargs)

    def to_python(self, value: str) -> int:
        if len(value) > len(str(ROW_ID_MAX)):
            raise ValidationError()
        result: int = super().to_python(value)
        return result


def init_app(app: Any) -> None:
    """Install ``RowId`` as ``int`` (before any blueprint adds its rules)."""
    app.url_map.converters["int"] = RowId
