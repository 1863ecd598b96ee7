"""Dorfromantik table companion: rules engine, photo scanner and web app.

The library entry point is :func:`score_record`, which returns the same object
as ``companion score --json``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["score_record", "create_app"]


def score_record(text: str) -> dict[str, Any]:
    """Score a record in the Dorf notation; raise ``RulesError`` subclasses on bad input."""
    from companion.rules import score_text

    return score_text(text)


def create_app(test_config: dict[str, Any] | None = None) -> Any:
    """Flask application factory (``flask --app companion run``)."""
    from companion.web import create_app as _create_app

    return _create_app(test_config)
