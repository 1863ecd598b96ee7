"""Security and reliability for every request: CSRF, request size limits, headers.

Representation:
- CSRF: one random token per browser kept in the signed session cookie
  (``session["csrf"]``). Every unsafe request (POST/PUT/PATCH/DELETE) must send
  it, either as the form field ``csrf_token`` (plain forms, via the template
  global ``csrf_field()``) or as the header ``X-CSRF-Token`` (htmx: ``base.html``
  puts ``hx-headers`` on ``<body>``; scripts read ``<meta name="csrf-token">``).
  A view decorated with ``@csrf_exempt`` (``POST /api/score``, which changes
  nothing) is skipped. A refusal is a friendly 400 page. The config key
  ``CSRF_ENABLED = False`` turns the check off (route tests only).
- Size: ``MAX_CONTENT_LENGTH`` caps everything; every request whose view is not
  decorated with ``@large_upload`` is further limited to ``RECORD_MAX_BYTES``
  (records are small). Too large gives the friendly 413 page. A chunked body (no
  Content-Length) is read up to the limit first and refused beyond it, never cut.
- Headers: a Content-Security-Policy without inline scripts or styles
  (``script-src 'self'``), ``X-Content-Type-Options``, ``Referrer-Policy``,
  ``X-Frame-Options``, ``Permissions-Policy``.
"""

from __future__ import annotations

import hmac
import io
import secrets
from collections.abc import Callable
from typing import TypeVar

from flask import Flask, Response, abort, current_app, request, session
from markupsafe import Markup

F = TypeVar("F", bound=Callable[..., object])

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "camera=(self), geolocation=(), microphone=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def csrf_exempt(view: F) -> F:
    """Mark a view that changes nothing (a JSON API) as not needing the CSRF token."""
    view.csrf_exempt = True  # type: ignore[attr-defined]
    return view


def large_upload(view: F) -> F:
    """Mark a view that accepts uploads up to ``MAX_CONTENT_LENGTH`` (photos)."""
    view.large_upload = True  # type: ignore[attr-defined]
    return view


def csrf_token() -> str:
    """This browser's CSRF token (created on first use)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def csrf_field() -> Markup:
    """The hidden form field carrying the CSRF token (use in every POST form)."""
    return Markup('<input type="hidden" name="{}" value="{}">').format(CSRF_FIELD, csrf_token())


def _view() -> object | None:
    if request.endpoint is None:
        return None
    return current_app.view_functions.get(request.endpoint)


def limit_size() -> None:
    view = _view()
    if not getattr(view, "large_upload", False):
        request.max_content_length = min(
            current_app.config["RECORD_MAX_BYTES"],
            current_app.config["MAX_CONTENT_LENGTH"] or current_app.config["RECORD_MAX_BYTES"],
        )
    limit = request.max_content_length
    if request.content_length is not None and limit is not None and (
            request.content_length > limit):
        abort(413)
    if request.content_length is None and limit is not None and _has_body():
        _buffer_unsized_body(limit)


def _has_body() -> bool:
    return "chunked" in request.headers.get("Transfer-Encoding", "").lower() or bool(
        request.environ.get("wsgi.input_terminated"))


def _buffer_unsized_body(limit: int) -> None:
    """A body without Content-Length (chunked): read it up to ``limit`` bytes, refuse 413
    beyond (werkzeug would cut it silently), and give it its length for the views."""
    environ = request.environ
    data = environ["wsgi.input"].read(limit + 1)
    if len(data) > limit:
        abort(413)
    environ["wsgi.input"] = io.BytesIO(data)
    environ["CONTENT_LENGTH"] = str(len(data))
    environ.pop("HTTP_TRANSFER_ENCODING", None)
    environ["wsgi.input_terminated"] = False


def check_csrf() -> None:
    if request.method not in UNSAFE_METHODS or not current_app.config.get("CSRF_ENABLED", True):
        return
    view = _view()
    if view is None or getattr(view, "csrf_exempt", False):
        return
    expected = session.get("csrf")
    sent = request.headers.get(CSRF_HEADER) or request.form.get(CSRF_FIELD, "")
    if not isinstance(expected, str) or not hmac.compare_digest(expected, sent):
        abort(400, description="csrf")


def add_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    app.before_request(limit_size)
    app.before_request(check_csrf)
    app.after_request(add_headers)
    app.jinja_env.globals.update(csrf_token=csrf_token, csrf_field=csrf_field)
