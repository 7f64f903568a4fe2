"""``machiavelli serve``: the web front end (a page to play in the browser, and its
WebSockets; docs/protocol.md, "Over a WebSocket")."""

from __future__ import annotations

import argparse
import errno
import socket
import threading
import webbrowser
from typing import Any

from bots.app.commands.common import UsageError, add_command, count
from solver.errors import cannot

DEFAULT_HOST = "127.0.0.1"  # only this machine, unless told otherwise
DEFAULT_PORT = 8000
MISSING_HERE = (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT)  # an address the machine lacks


def add_serve(sub: Any) -> None:
    """``machiavelli serve``: play in the browser."""
    serve = add_command(
        sub, "serve",
        description="Serve the web page (lobby, table, position editor, records) and its "
                    "WebSockets. Listens on 127.0.0.1 only unless --host says otherwise; "
                    "every game has a secret id and every person seat a secret token.",
        epilog="examples:\n  machiavelli serve --open\n  machiavelli serve --port 8080",
    )
    serve.add_argument("--host", default=DEFAULT_HOST,
                       help=f"address to listen on (default {DEFAULT_HOST}: this machine only)")
    serve.add_argument("--port", type=count(1, 65535), default=DEFAULT_PORT,
                       help=f"port to listen on (default {DEFAULT_PORT})")
    serve.add_argument("--open", action="store_true",
                       help="open the lobby in the web browser once the server is up")
    serve.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    sockets = listening_sockets(args.host, args.port)  # before anything slow, or any output
    import uvicorn

    from bots.app.web.server import create_app
    from bots.arena.heap import freeze_loaded
    from solver.api import warm_up

    warm_up("kernel")  # load the compiled kernel now, so that no move's budget pays for it
    freeze_loaded()  # and keep the collector's full passes off what it loaded (bots.arena.heap)
    config = uvicorn.Config(create_app(), host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    url = f"http://{_browser_host(args.host)}:{args.port}/"
    print(f"machiavelli: serving on {url} (Ctrl-C stops)", flush=True)
    if args.open:
        threading.Thread(target=_open_when_started, args=(server, url), daemon=True).start()
    server.run(sockets=sockets)
    return 0


def listening_sockets(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to ``host``:``port`` for uvicorn, bound as uvicorn's own binding
    (asyncio's ``create_server``) would: one per address the host resolves to ('' for every
    interface), with SO_REUSEADDR, IPv6 ones IPv6 only, an address or family the machine lacks
    skipped while another one binds. A port in use, an unknown host or an address not of this
    machine is a usage error, 'cannot listen on HOST:PORT: reason'."""
    where = f"{_bracketed(host)}:{port}"
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as error:
        raise _cannot_listen(where, error) from None
    sockets: list[socket.socket] = []
    failure: OSError | None = None
    for family, kind, protocol, _, address in dict.fromkeys(found):
        try:
            sockets.append(_bound(family, kind, protocol, address))
        except OSError as error:
            failure = error
            if error.errno not in MISSING_HERE:
                break
    if failure is not None and (failure.errno not in MISSING_HERE or not sockets):
        for listener in sockets:
            listener.close()
        raise _cannot_listen(where, failure)
    return sockets


def _bound(family: int, kind: int, protocol: int, address: Any) -> socket.socket:
    """A socket bound to ``address`` (closed again if it cannot be)."""
    listener = socket.socket(family, kind, protocol)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        listener.bind(address)
    except OSError:
        listener.close()
        raise
    return listener


def _cannot_listen(where: str, error: Exception) -> UsageError:
    return UsageError(cannot(f"listen on {where}", error))


def _bracketed(host: str) -> str:
    """``host`` as it reads before ':PORT': an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host else host


def _browser_host(host: str) -> str:
    """The address a browser on this machine reaches the server by."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return _bracketed(host)


def _open_when_started(server: Any, url: str) -> None:
    """Open ``url`` in the browser once uvicorn has started (or given up)."""
    import time

    while not server.started and not server.should_exit:
        time.sleep(0.05)
    if server.started:
        webbrowser.open(url)
