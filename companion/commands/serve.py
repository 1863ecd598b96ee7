"""``companion serve [--host H] [--port P] [--threads N]``: run the web app for the table.

Serves the Flask app (``companion.web.create_app``) under waitress, a production WSGI
server, and prints the address a phone at the table opens: one URL per address this
machine has on the local network (or the loopback URL when it listens on loopback only),
with the first of them as a QR code drawn in the terminal, so a phone's camera joins in
one scan. ``--host 0.0.0.0`` listens on every interface (``make run`` does).
"""

from __future__ import annotations

import argparse
import socket

NAME = "serve"
HELP = "run the web app under a production WSGI server"
WILDCARD = ("0.0.0.0", "::", "")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (0.0.0.0: every interface, for phones)")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--threads", type=int, default=8, help="worker threads")
    parser.add_argument("--no-qr", action="store_true", help="do not draw the QR code")


def run(args: argparse.Namespace) -> int:
    import waitress

    from companion.web import create_app

    app = create_app()
    urls = phone_urls(args.host, args.port)
    if not app.config.get("BASE_URL"):  # share links name the address the phones use
        app.config["BASE_URL"] = urls[0].rstrip("/")
    print(f"Companion running at {urls[0]}", flush=True)
    for url in urls[1:]:
        print(f"  also at {url}", flush=True)
    if not args.no_qr and not is_loopback(args.host, urls[0]):
        print("Scan this with a phone on the same network to open the companion:")
        print(terminal_qr(urls[0]), flush=True)
    print(f"Database: {app.config['DATABASE']}", flush=True)
    waitress.serve(app, host=args.host, port=args.port, threads=args.threads,
                   ident="companion", _quiet=True)
    return 0


def phone_urls(host: str, port: int) -> list[str]:
    """The URLs the app is reachable at: the LAN addresses first when listening on all."""
    if host in WILDCARD:
        lan = [a for a in local_addresses() if not a.startswith("127.")]
        hosts = lan + ["127.0.0.1"]
    else:
        hosts = [host]
    return [f"http://{h}:{port}/" for h in hosts]


def is_loopback(host: str, url: str) -> bool:
    return host in ("127.0.0.1", "localhost", "::1") or "//127." in url


def local_addresses() -> list[str]:
    """IPv4 addresses of this machine's interfaces, found without sending any packet."""
    found: list[str] = []
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            for _, name in socket.if_nameindex():
                try:
                    packed = fcntl.ioctl(s.fileno(), 0x8915,  # SIOCGIFADDR
                                         struct.pack("256s", name.encode()[:15]))
                except OSError:
                    continue
                found.append(socket.inet_ntoa(packed[20:24]))
    except (ImportError, OSError, AttributeError):
        pass
    if not found:
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
            found = [str(info[4][0]) for info in infos]
        except OSError:
            pass
    return list(dict.fromkeys(found))


def terminal_qr(url: str) -> str:
    """``url`` as a QR code in block characters (two modules per character cell)."""
    import segno

    qr = segno.make(url, error="m")
    rows = [[bool(v) for v in row] for row in qr.matrix_iter(scale=1, border=2)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    chars = {(True, True): " ", (True, False): "\u2584", (False, True): "\u2580",
             (False, False): "\u2588"}
    # light modules drawn as full blocks, so the code reads on a dark terminal
    lines = ["".join(chars[(top, bottom)] for top, bottom in zip(rows[i], rows[i + 1],
                                                                 strict=True))
             for i in range(0, len(rows), 2)]
    return "\n".join(lines)

