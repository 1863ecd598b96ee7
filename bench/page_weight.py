"""First page load weight of the home page: HTML + CSS + JS + icons it requests.

Requests ``/`` through the Flask test client (a fresh browser: no cookies, no cache),
then every stylesheet, script, icon and the manifest the page links, and the icons the
manifest lists (fetched by the browser when it offers installation). Prints each file
and the totals in bytes as served (no compression) and gzip-compressed (what a server
with compression would send). Target: under 150 KB for the first load.

    .venv/bin/python bench/page_weight.py
"""

from __future__ import annotations

import gzip
import json
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.web import create_app  # noqa: E402

LIMIT = 150 * 1024


def linked(html: str) -> list[str]:
    urls = re.findall(r'<script[^>]+src="([^"]+)"', html)
    for tag in re.findall(r"<link[^>]+>", html):
        rel = re.search(r'rel="([^"]+)"', tag)
        href = re.search(r'href="([^"]+)"', tag)
        if rel and href and rel.group(1) in ("stylesheet", "icon", "apple-touch-icon",
                                               "manifest"):
            urls.append(href.group(1))
    return urls


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "weight.sqlite"), "SECRET_KEY": "bench"})
        client = app.test_client()
        home = client.get("/")
        files = [("/", home.data)]
        manifest_icons: list[tuple[str, bytes]] = []
        for url in linked(home.get_data(as_text=True)):
            body = client.get(url).data
            files.append((url, body))
            if url.endswith(".webmanifest"):
                for icon in json.loads(body).get("icons", []):
                    manifest_icons.append((icon["src"], client.get(icon["src"]).data))
    width = max(len(u) for u, _ in files + manifest_icons)
    print(f"{'file':<{width}}  {'bytes':>8}  {'gzip':>8}")
    for url, body in files:
        print(f"{url:<{width}}  {len(body):>8}  {len(gzip.compress(body)):>8}")
    raw = sum(len(b) for _, b in files)
    packed = sum(len(gzip.compress(b)) for _, b in files)
    print(f"{'first load (page + css + js + icons + manifest)':<{width}}  {raw:>8}  {packed:>8}")
    icons_raw = sum(len(b) for _, b in manifest_icons)
    for url, body in manifest_icons:
        print(f"{url:<{width}}  {len(body):>8}")
    print(f"with the manifest icons (install prompt): {raw + icons_raw} bytes "
          f"= {(raw + icons_raw) / 1024:.1f} KB")
    print(f"first load: {raw / 1024:.1f} KB uncompressed, {packed / 1024:.1f} KB gzip "
          f"(limit {LIMIT // 1024} KB): {'OK' if raw + icons_raw < LIMIT else 'OVER'}")
    return 0 if raw + icons_raw < LIMIT else 1


if __name__ == "__main__":
    raise SystemExit(main())
