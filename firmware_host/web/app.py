"""The web companion: the board as the LEDs show it, pushed over a websocket.

One page serves both jobs.  In the simulator it is the board: a click lifts or
places a piece, as a hand would.  Beside a real board (``gameboard run --web``) it
is a read-only mirror.  Who may reach it is the guard's business (``guard.py``).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp
from starlette.websockets import WebSocket, WebSocketDisconnect

from engine.errors import GameboardError
from firmware_host.web.guard import Guard, GuardMiddleware, NoFraming
from firmware_host.web.play_docs import play_page
from firmware_host.web.transport import change, whole

STATIC = Path(__file__).parent / "static"


class Session(Protocol):
    """What the page talks to: the simulator's session or the daemon's mirror."""

    def view(self) -> dict[str, Any]:
        """Everything the page shows, JSON-ready (the board's drawing as SVG: ``view.BoardPicture``)."""

    def act(self, action: dict[str, Any]) -> None:
        """Carry out a person's action, a JSON object with a string "type" and fields not yet
        checked; raises GameboardError with a message to show."""

    def changed(self) -> asyncio.Event:
        """An event set whenever the view changes (a new one after each wait)."""


def create_app(session: Session, *, guard: Guard, read_only: bool = False) -> ASGIApp:
    """The ASGI app serving the page, its assets and the websocket to the requests the guard lets through;
    no response of it may be framed, not even an error's."""

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def favicon(request: Request) -> Response:
        """Where browsers look for the icon whatever the page says (the page links the static one,
        which needs no token)."""
        return FileResponse(STATIC / "favicon.ico")

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        sender = asyncio.create_task(_push_views(websocket, session, read_only))
        try:
            while (message := await websocket.receive())["type"] != "websocket.disconnect":
                frame = message.get("text") or message.get("bytes") or ""  # a text frame, or a binary one
                reply = handle_message(session, frame, read_only)
                if reply:
                    await websocket.send_text(json.dumps(reply))
        except WebSocketDisconnect:
            pass  # the page went away while a reply was on its way
        finally:
            sender.cancel()

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        WebSocketRoute("/ws", socket),
        Route("/static/play/{name}", play_page),  # the players' pages, docs/play (firmware_host/web/play_docs.py)
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return NoFraming(Starlette(routes=routes, middleware=[Middleware(GuardMiddleware, guard=guard)]))


async def _push_views(websocket: WebSocket, session: Session, read_only: bool) -> None:
    """Send the whole view now, then after every change what changed (``transport.py``), dropping views
    superseded meanwhile."""
    shown: dict[str, Any] | None = None
    while True:
        event = session.changed()
        view = dict(session.view(), read_only=read_only)
        message = whole(view) if shown is None else change(shown, view)
        if message is not None:
            await websocket.send_text(json.dumps(message))
        shown = view
        await event.wait()


def handle_message(session: Session, message: str | bytes, read_only: bool) -> dict[str, Any] | None:
    """Apply one message from the page; the reply (if any) is an error to show."""
    try:
        action = json.loads(message)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, a number too long, nested too deep
        return {"type": "error", "message": "not a JSON message"}
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return {"type": "error", "message": 'a message needs a "type"'}
    if read_only:
        return {"type": "error", "message": "this page mirrors a real board: play on the board"}
    try:
        session.act(action)
    except GameboardError as exc:
        return {"type": "error", "message": str(exc)}
    return None
