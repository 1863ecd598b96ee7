"""Configuration from the environment, for serving beyond one laptop (README, "Deploy").

Representation: ``from_environment(environ)`` returns the config keys set by variables
``COMPANION_*``; ``create_app`` applies them over its defaults and under ``test_config``.

- ``COMPANION_SECRET_KEY``: the key signing cookies (default: a random key kept in the
  instance folder);
- ``COMPANION_DATABASE``: the SQLite file (default ``instance/companion.sqlite``);
- ``COMPANION_BASE_URL``: the public address, e.g. ``https://dorf.example.org``: share
  links are built from it, never from the request's Host header; an ``https`` base URL
  also makes the session cookie ``Secure`` and sends HSTS;
- ``COMPANION_TRUSTED_PROXIES``: how many reverse proxies in front of the app set
  ``X-Forwarded-For/-Proto/-Host`` (werkzeug's ``ProxyFix``; default 0: the headers are
  ignored, so a client cannot forge them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit


class SettingsError(ValueError):
    """A ``COMPANION_*`` variable holds a value the app cannot use."""


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if environ.get("COMPANION_SECRET_KEY"):
        out["SECRET_KEY"] = environ["COMPANION_SECRET_KEY"]
    if environ.get("COMPANION_DATABASE"):
        out["DATABASE"] = environ["COMPANION_DATABASE"]
    if environ.get("COMPANION_BASE_URL"):
        out["BASE_URL"] = base_url(environ["COMPANION_BASE_URL"])
    if environ.get("COMPANION_TRUSTED_PROXIES"):
        value = environ["COMPANION_TRUSTED_PROXIES"]
        if not value.isdigit() or int(value) > 5:
            raise SettingsError(f"COMPANION_TRUSTED_PROXIES={value!r}: a number from 0 to 5")
        out["TRUSTED_PROXIES"] = int(value)
    return out


def base_url(value: str) -> str:
    """``value`` checked as an http(s) origin (with an optional path), without a final /."""
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
        raise SettingsError(f"COMPANION_BASE_URL={value!r}: expected e.g. https://dorf.example.org")
    return value.strip().rstrip("/")


def apply(app: Any) -> None:
    """What follows from the settings: ProxyFix, Secure cookies and HSTS over https."""
    proxies = int(app.config.get("TRUSTED_PROXIES") or 0)
    if proxies:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies,
                                x_host=proxies, x_prefix=proxies)
    if str(app.config.get("BASE_URL") or "").startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True
        app.config["HSTS"] = True


def public_url(path: str) -> str:
    """The absolute address of ``path`` (a share link) that players can open: from
    ``BASE_URL`` (the environment, or the phone address ``companion serve`` printed),
    never from a Host header a client chose. Without either (tests, a bare WSGI server)
    only a Host that is an IP address or ``localhost`` is used."""
    from flask import current_app, request

    base = current_app.config.get("BASE_URL")
    if not base:
        host = request.host.rsplit(":", 1)[0].strip("[]")
        base = request.host_url.rstrip("/") if _is_address(host) else "http://localhost"
    return str(base).rstrip("/") + path


def _is_address(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
