"""The one versioned edit: a form names the version it was made from; a stale one saves nothing.

Representation: every edit form carries a hidden ``version`` field (``expected_version()``
reads it; a form without one is a bad request, 400). ``versioned_edit(change, ...)`` runs
one edit of a game, a campaign or a photo review:

- the form's version is not the current one, or storage raises ``StaleEditError`` while
  saving (someone else saved in between): ``stale()``, the feature's page or fragment of
  the *current* state, answered with 409;
- the change is refused (the engine's ``RulesError``, or the ``refusals`` given, or a
  ``Refused`` raised by the feature with its own words): ``refused(reason)``, nothing was
  written (``wording(err)`` makes the feature's sentence; default ``reason_of``);
- else ``done(result)``, normally ``after_edit``: POST-redirect-GET (303) for a plain
  form, or for htmx the fresh fragment with ``HX-Push-Url`` (or ``HX-Replace-Url``) so the
  address bar follows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import Response, abort, make_response, redirect

from companion.rules import RulesError
from companion.storage.errors import StaleEditError
from companion.web.forms import int_field
from companion.web.render import is_htmx

T = TypeVar("T")


class Refused(Exception):
    """A change the feature refuses in its own words (raised inside ``change``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def expected_version(name: str = "version") -> int:
    """The version the form was made from (400 when the field is missing or not a number)."""
    version = int_field(name)
    if version is None:
        abort(400)
    return version


def reason_of(err: Exception) -> str:
    """The engine's reason (without the record line), else the error's text."""
    from companion.web.reasons import say

    return say(err) if getattr(err, "why", None) is not None else str(err)


def versioned_edit(
    change: Callable[[], T], *, expected: int, current: int | None = None,
    stale: Callable[[], Response], refused: Callable[[str], Response],
    done: Callable[[T], Response],
    refusals: tuple[type[Exception], ...] = (RulesError,),
    wording: Callable[[Exception], str] | None = None,
) -> Response:
    """Run ``change`` (which saves, naming ``expected``) unless the form is stale; answer
    ``stale()``, ``refused(reason)`` or ``done(result)`` (module docstring)."""
    if current is not None and current != expected:
        return stale()
    try:
        result = change()
    except StaleEditError:
        return stale()
    except Refused as err:
        return refused(err.message)
    except refusals as err:
        return refused((wording or reason_of)(err))
    return done(result)


def after_edit(url: str, fragment: Callable[[], Response], *, header: str = "HX-Push-Url",
               plain_url: str | None = None) -> Response:
    """After a successful change: 303 to ``plain_url`` (default ``url``) for a plain form;
    for htmx the fresh ``fragment()`` with ``header: url``."""
    if not is_htmx():
        return make_response(redirect(plain_url or url, 303))
    response = fragment()
    response.headers[header] = url
    return response


__all__ = ["Refused", "after_edit", "expected_version", "reason_of", "versioned_edit"]
