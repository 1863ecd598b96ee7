"""Gzip for text responses, so a phone on a weak connection at the table loads less.

A response is compressed when the client accepts gzip, it is a complete 200
response of a text type (HTML, CSS, JavaScript, JSON, SVG, the manifest) larger
than ``MIN_BYTES``, and nothing encoded it already (static files are read whole: they
are small; a generator's stream is left alone). ``Vary: Accept-Encoding`` is
always added to such responses so caches keep both forms apart.
"""

from __future__ import annotations

import gzip

from flask import Flask, Response, request

MIN_BYTES = 600
TEXT_TYPES = frozenset({
    "text/html", "text/css", "text/plain", "text/javascript", "application/javascript",
    "application/json", "image/svg+xml", "application/manifest+json",
})


def init_app(app: Flask) -> None:
    app.after_request(compress)


def compress(response: Response) -> Response:
    if response.mimetype not in TEXT_TYPES or response.status_code != 200:
        return response
    response.vary.add("Accept-Encoding")
    if ("gzip" not in request.headers.get("Accept-Encoding", "")
            or "Content-Encoding" in response.headers
            or (response.is_streamed and not response.direct_passthrough)):
        return response
    response.direct_passthrough = False
    data = response.get_data()
    if len(data) < MIN_BYTES:
        return response
    response.set_data(gzip.compress(data, compresslevel=6))
    response.headers["Content-Encoding"] = "gzip"
    return response
