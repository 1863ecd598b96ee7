"""The one versioned edit (companion.web.edits), in a real request of the real app."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask, Response, make_response
from werkzeug.exceptions import BadRequest

from companion.rules import NotationError
from companion.storage.errors import StaleEditError
from companion.web.edits import Refused, after_edit, expected_version, versioned_edit


def answer(text: str, status: int = 200) -> Response:
    return make_response(text, status)


def run(change: Callable[[], object], **kwargs: Any) -> Response:
    return versioned_edit(change, expected=kwargs.pop("expected", 3),
                          stale=lambda: answer("stale", 409),
                          refused=lambda reason: answer(f"refused: {reason}", 422),
                          done=lambda result: answer(f"done: {result}"), **kwargs)


def test_each_outcome_of_an_edit(app: Flask) -> None:
    with app.test_request_context("/", method="POST"):
        saved: list[int] = []
        assert run(lambda: saved.append(1), current=4).status_code == 409
        assert saved == []  # a form made from another version changes nothing
        assert run(lambda: 7, current=3).get_data(as_text=True) == "done: 7"

        def stale() -> None:
            raise StaleEditError("game 1", 3, 4)

        def engine_refuses() -> None:
            raise NotationError("no player 'x' in this game", line=2)

        def feature_refuses() -> None:
            raise Refused("Nothing to redo.")

        assert run(stale).status_code == 409
        refused = run(engine_refuses)
        assert (refused.status_code, refused.get_data(as_text=True)) == (
            422, "refused: no player 'x' in this game")
        worded = run(engine_refuses, wording=lambda err: f"Not allowed: {err}")
        assert worded.get_data(as_text=True) == "refused: Not allowed: line 2: no player 'x' in " \
                                                "this game"
        assert run(feature_refuses).get_data(as_text=True) == "refused: Nothing to redo."
        assert run(feature_refuses, wording=lambda err: "never").get_data(
            as_text=True) == "refused: Nothing to redo."


def test_a_value_error_is_no_refusal_unless_named(app: Flask) -> None:
    with app.test_request_context("/", method="POST"):
        def broken() -> None:
            int("x")

        with pytest.raises(ValueError):  # a programming error is no refusal
            run(broken)
        assert run(broken, refusals=(ValueError,)).status_code == 422


def test_after_an_edit_plain_forms_redirect_and_htmx_gets_the_fragment(app: Flask) -> None:
    with app.test_request_context("/", method="POST"):
        plain = after_edit("/games/1", lambda: answer("fragment"))
        assert (plain.status_code, plain.headers["Location"]) == (303, "/games/1")
        assert after_edit("/c/1", lambda: answer("x"), plain_url="/c/1?new=a").headers[
            "Location"] == "/c/1?new=a"
    with app.test_request_context("/", method="POST", headers={"HX-Request": "true"}):
        htmx = after_edit("/games/1", lambda: answer("fragment"), header="HX-Replace-Url")
        assert htmx.get_data(as_text=True) == "fragment"
        assert htmx.headers["HX-Replace-Url"] == "/games/1"


def test_the_expected_version_is_a_required_number(app: Flask) -> None:
    with app.test_request_context("/", method="POST", data={"version": "5"}):
        assert expected_version() == 5
    for data in ({}, {"version": "five"}):
        with app.test_request_context("/", method="POST", data=data):
            with pytest.raises(BadRequest):
                expected_version()
