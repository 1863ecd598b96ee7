"""The installable app: service worker at ``/sw.js`` (scope ``/``), the manifest and
the offline page.

Representation: ``static/sw.js`` is served from the site root (a worker controls
only paths below its own URL) with ``Service-Worker-Allowed: /`` and no caching;
``static/manifest.webmanifest`` is served as ``application/manifest+json`` (also at
``/manifest.webmanifest``); ``/offline`` is the page the worker shows for a page
that is neither reachable nor cached; ``/join`` shows the app's address as a QR code, so a
second phone at the table joins in one scan (the address ``companion serve`` printed, or
the configured ``COMPANION_BASE_URL``).
"""

from __future__ import annotations

import mimetypes

from flask import Blueprint, Response, current_app, send_from_directory
from markupsafe import Markup

from companion.web.render import render
from companion.web.settings import public_url

mimetypes.add_type("application/manifest+json", ".webmanifest")
mimetypes.add_type("text/javascript", ".js")

bp = Blueprint("pwa", __name__)


@bp.get("/sw.js")
def service_worker() -> Response:
    assert current_app.static_folder is not None
    response = send_from_directory(current_app.static_folder, "sw.js",
                                   mimetype="text/javascript", max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    assert current_app.static_folder is not None
    return send_from_directory(current_app.static_folder, "manifest.webmanifest",
                               mimetype="application/manifest+json")


@bp.get("/join")
def join() -> Response:
    import segno

    url = public_url("/")
    qr = segno.make(url, error="m").svg_inline(scale=6, border=3, dark="#1d2a1d",
                                              light="#ffffff")
    return render("join.html", "_join.html", url=url, qr=Markup(qr))


@bp.get("/offline")
def offline() -> Response:
    return render("offline.html", "_offline.html")
