"""Who may use the page: browsers on the page's own address, and the token on the network.

Any web site a person visits may open ``ws://127.0.0.1:8300/ws`` from its script
(cross-site websocket hijacking), and with DNS rebinding a site's own name may come
to point at this machine, letting the site read the page as well.  So:

- ``Host`` must be a name of this server, with its port: a loopback name, the listen
  address, a name added with ``--allow-host``; listening on the network, also the
  machine's own names and any IP address (a rebound name is a name, never an
  address, and the machine's addresses change as networks come and go).
- ``Origin``, when present, must be the page's own: ``http://`` and that same Host.
  Browsers always send it on a websocket.  A request without it comes from a
  program, not from a browser's page, and is let through: a program that can reach
  the port needs no browser to do so, and the token stands between it and the board
  on the network.
- The token, listening on the network: the page and the websocket need it (the
  static files, which hold nothing of the game, do not).

A refused request gets 403 and one line of text; a refused websocket is accepted and
closed at once with ``REFUSED`` and the same line, which the page shows.

No other site may show the page in a frame either (where a click meant for that site
would land on the page): every response says so (``NoFraming``).
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from engine.errors import GameboardError

#: The websocket close code of a refusal (4000-4999 are the application's; 403 as in HTTP).
REFUSED = 4403

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def is_local(listen: str) -> bool:
    """Whether a listen address is this machine alone (no token needed there)."""
    if listen == "localhost":
        return True
    try:
        return ipaddress.ip_address(listen).is_loopback
    except ValueError:
        raise GameboardError(f"--listen {listen!r} is not an IP address or localhost") from None


@dataclass(frozen=True)
class Guard:
    """The names this page answers to, its port, and its token (None on localhost)."""

    names: frozenset[str]
    port: int
    token: str | None = None
    any_address: bool = False

    @classmethod
    def for_listener(cls, listen: str, port: int, token: str | None, allow_hosts: Iterable[str] = ()) -> Guard:
        """The guard of a page on ``listen``: no token on localhost, on the network the given one or a fresh one."""
        names = {*LOOPBACK_NAMES, listen.lower(), *(name.lower() for name in allow_hosts)}
        if is_local(listen):
            return cls(frozenset(names), port, token)
        machine = socket.gethostname().lower()
        return cls(frozenset(names | {machine, f"{machine}.local"}), port, token or secrets.token_urlsafe(16),
                   any_address=ipaddress.ip_address(listen).is_unspecified)

    def refusal(self, connection: HTTPConnection) -> str | None:
        """Why this request may not reach the page, in one line; None when it may."""
        host = connection.headers.get("host", "")
        if not self._answers_to(host):
            return (f"{host!r} is not an address of this board: open the address gameboard printed, "
                    f"or add the name with --allow-host")
        origin = connection.headers.get("origin")
        if origin is not None and not _same_origin(origin, host):
            return f"a page from {origin!r} may not use this board: open the address gameboard printed"
        if self.token is not None and not connection.url.path.startswith("/static/"):
            given = connection.query_params.get("token", "")
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                return "a token is needed: open the address printed by gameboard"
        return None

    def _answers_to(self, host: str) -> bool:
        address = _address(host)
        if address is None or address[1] != self.port:
            return False
        name = address[0]
        return name in self.names or (self.any_address and _is_ip(name))


class GuardMiddleware:
    """Turns away, before the app sees them, the requests the guard refuses."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        reason = self.guard.refusal(HTTPConnection(scope)) if scope["type"] in ("http", "websocket") else None
        if reason is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await PlainTextResponse(reason, status_code=403)(scope, receive, send)
        else:
            websocket = WebSocket(scope, receive, send)
            await websocket.accept()
            # A close reason holds at most 123 bytes of UTF-8.
            await websocket.close(REFUSED, reason.encode()[:123].decode(errors="ignore"))


#: The headers refusing every frame: CSP's frame-ancestors for today's browsers, X-Frame-Options for older ones.
NO_FRAMING = ((b"content-security-policy", b"frame-ancestors 'none'"), (b"x-frame-options", b"DENY"))


class NoFraming:
    """Adds ``NO_FRAMING`` to every response of the app: pages, files, refusals, errors, websocket handshakes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_unframed(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.http.response.start"):
                message = {**message, "headers": [*message.get("headers", ()), *NO_FRAMING]}
            await send(message)
        await self.app(scope, receive, send_unframed)


def _address(netloc: str) -> tuple[str, int] | None:
    """``name:port`` (or ``[v6]:port``, or a name alone on port 80) as (lower-case name, port);
    None for anything else (a path, a user, a port that is no number)."""
    try:
        split = urlsplit(f"//{netloc}")
        port = split.port or 80
    except ValueError:
        return None
    if not split.hostname or split.netloc != netloc or "@" in netloc:
        return None
    return split.hostname, port


def _same_origin(origin: str, host: str) -> bool:
    try:
        split = urlsplit(origin)
    except ValueError:
        return False
    return split.scheme == "http" and _address(split.netloc) == _address(host)


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True
