"""The one place that decides between a full page and an htmx fragment.

Representation: a page template ``NAME.html`` extends ``base.html`` and includes
its fragment ``_NAME.html`` (or another underscore template). ``render(page,
fragment, status, **context)`` returns the fragment alone when the request
carries ``HX-Request: true`` (and is not a history restore, which needs the whole
page), otherwise the full page; it always sends ``Vary: HX-Request`` so caches
(and the service worker) keep the two apart. ``go(target)`` leaves for another page
after a POST: a 303 redirect, or for htmx ``HX-Redirect``.
"""

from __future__ import annotations

from typing import Any

from flask import Response, make_response, redirect, render_template, request


def is_htmx() -> bool:
    return (request.headers.get("HX-Request") == "true"
            and request.headers.get("HX-History-Restore-Request") != "true")


def render(page: str, fragment: str | None = None, status: int = 200,
           headers: dict[str, str] | None = None, **context: Any) -> Response:
    """Render ``fragment`` for htmx requests, else ``page``; add ``Vary: HX-Request``."""
    template = fragment if fragment is not None and is_htmx() else page
    response = make_response(render_template(template, **context), status)
    response.vary.add("HX-Request")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def go(target: str) -> Response:
    """To another page after a POST: a 303 redirect, or for htmx a full page load
    (``HX-Redirect`` with an empty 204)."""
    if is_htmx():
        response = make_response("", 204)
        response.headers["HX-Redirect"] = target
        return response
    return make_response(redirect(target, 303))
