"""The rules page: searchable with a plain GET query (``/rules?q=flag``)."""

from __future__ import annotations

from flask import Blueprint, Response, request
from flask_babel import gettext

from companion.rules import search_rules
from companion.web.render import render

bp = Blueprint("rules_page", __name__)


@bp.get("/rules")
def rules() -> Response:
    query = request.args.get("q", "").strip()[:100]
    sections, rulings = search_rules(query, gettext)
    return render("rules.html", "_rules.html", query=query, sections=sections,
                  rulings=rulings)
