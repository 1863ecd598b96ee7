"""Fixtures shared by the web tests.

Test client: ``app`` (the real app on a fresh SQLite file, CSRF on), ``owner`` (the
owner id the ``client`` fixture's session starts with; None = no session yet; a
module overrides it to own its games) and ``client``.
Real browser (modules marked with ``webtools.BROWSER``): ``live`` (the app served on
127.0.0.1 in a thread, its own SQLite file, CSRF on) and ``page``: Debian's Chromium
(``/usr/bin/chromium``, never a downloaded one) through Playwright with a fresh
user-data directory, at a phone's 390x844 viewport with touch, service workers
blocked, ``base_url`` = the live server; it fails the test when the page broke its
content security policy (unless the module's ``csp_strict`` fixture says False).
``page_timeout`` (ms) is Playwright's default timeout.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app
from tests.helpers.webtools import ARGS, CHROMIUM, VIEWPORT, LiveServer


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"),
                      "SECRET_KEY": "test"})


@pytest.fixture()
def owner() -> str | None:
    return None


@pytest.fixture()
def client(app: Flask, owner: str | None) -> FlaskClient:
    c = app.test_client()
    if owner is not None:
        with c.session_transaction() as s:
            s["owner"] = owner
    return c


@pytest.fixture()
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(create_app({"TESTING": True,
                                    "DATABASE": str(tmp_path / "browser.sqlite"),
                                    "SECRET_KEY": "browser-test"}))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture()
def page_timeout() -> int:
    return 15_000


@pytest.fixture()
def csp_strict() -> bool:
    return True


@pytest.fixture()
def page(live: LiveServer, tmp_path: Path, page_timeout: int,
         csp_strict: bool) -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"), executable_path=CHROMIUM, headless=True,
            args=ARGS, viewport=VIEWPORT, device_scale_factor=2, is_mobile=True,
            has_touch=True, service_workers="block", locale="en-US", base_url=live.url)
        context.set_default_timeout(page_timeout)
        page = context.pages[0] if context.pages else context.new_page()
        csp_errors: list[str] = []

        def note_csp(message: Any) -> None:
            if "Content Security Policy" in message.text:
                csp_errors.append(f"{page.url}: {message.text[:60]} {message.location}")

        page.on("console", note_csp)
        try:
            yield page
            if csp_strict:
                assert csp_errors == [], "the page broke its content security policy"
            elif csp_errors:
                print("CSP:", *csp_errors, sep="\n")
        finally:
            context.close()
