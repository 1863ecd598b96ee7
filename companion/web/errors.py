"""Friendly error pages: 400, 403, 404, 405, 409, 413 and 500, never a stack trace.

Representation: every ``HTTPException`` and every unexpected exception is turned
into ``error.html`` (or the fragment ``_error.html`` for htmx) with one plain
sentence; unexpected exceptions are logged on the server, not shown.
"""

from __future__ import annotations

from flask import Flask, Response, current_app
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, InternalServerError

from companion.web.render import render


def messages() -> dict[int, tuple[str, str]]:
    return {
        400: (_("Bad request"), _("The request could not be understood.")),
        403: (_("Not yours"), _("This game belongs to someone else. Ask them for a share link.")),
        404: (_("Not found"), _("There is nothing at this address, or it was not shared "
                                "with you: ask the owner for its link.")),
        405: (_("Not allowed"), _("This address does not accept that kind of request.")),
        409: (_("Changed meanwhile"), _("Someone else changed this game first.")),
        413: (_("Too large"), _("That upload is too large. Records are small text files; "
                                "try pasting the record instead.")),
        500: (_("Something went wrong"), _("The server made a mistake. Nothing was saved by "
                                          "this request; please try again.")),
    }


def error_page(code: int, message: str | None = None) -> Response:
    title, default = messages().get(code, (str(code), _("Something went wrong.")))
    return render("error.html", "_error.html", status=code, code=code, title=title,
                  message=message or default)


def handle_http(err: HTTPException) -> Response:
    code = err.code or 500
    if code == 400 and err.description == "csrf":
        return error_page(400, _("The form had expired or came from another site. Reload the "
                                 "page and send it again."))
    if err.response is not None and code not in messages():
        return err.response  # type: ignore[return-value]
    return error_page(code)


def handle_unexpected(err: Exception) -> Response:
    if isinstance(err, HTTPException):
        return handle_http(err)
    original = getattr(err, "original_exception", None) or err
    current_app.logger.exception("unexpected error: %s", original)
    return error_page(500)


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(InternalServerError, handle_unexpected)
    app.register_error_handler(Exception, handle_unexpected)
