"""The rules page: searchable with a plain GET query (``/rules?q=flag``)."""

from __future__ import annotations

from flask import Blueprint, Response, request

from companion.web.render import render
from companion.web.rules_text import search

bp = Blueprint("rules_page", __name__)


@bp.get("/rules")
def rules() -> Response:
    query = request.args.get("q", "").strip()[:100]
    sections, rulings = search(query)
    return render("rules.html", "_rules.html", query=query, sections=sections,
                  rulings=rulings)
