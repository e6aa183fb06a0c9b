"""The web companion: the board as the LEDs show it, pushed over a websocket.

One page serves both jobs.  In the simulator it is the board: a click lifts or
places a piece, as a hand would.  Beside a real board (``gameboard run --web``) it
is a read-only mirror.  A network listener needs a token; localhost does not.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from pathlib import Path
from typing import Any, Protocol

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

STATIC = Path(__file__).parent / "static"


class Session(Protocol):
    """What the page talks to: the simulator's session or the daemon's mirror."""

    def view(self) -> dict[str, Any]:
        """Everything the page shows, JSON-ready (including the board drawing as SVG)."""

    def act(self, action: dict[str, Any]) -> None:
        """Carry out a person's action; raises GameboardError with a message to show."""

    def changed(self) -> asyncio.Event:
        """An event set whenever the view changes (a new one after each wait)."""


def create_app(session: Session, *, read_only: bool = False, token: str | None = None) -> Starlette:
    """The ASGI app serving the page, its assets and the websocket."""

    def allowed(params: Any) -> bool:
        return token is None or hmac.compare_digest(params.get("token", ""), token)

    async def index(request: Request) -> Response:
        if not allowed(request.query_params):
            return PlainTextResponse("a token is needed: open the address printed by gameboard", status_code=403)
        return FileResponse(STATIC / "index.html")

    async def socket(websocket: WebSocket) -> None:
        if not allowed(websocket.query_params):
            await websocket.close(code=4403)
            return
        await websocket.accept()
        sender = asyncio.create_task(_push_views(websocket, session, read_only))
        try:
            while True:
                message = await websocket.receive_text()
                reply = handle_message(session, message, read_only)
                if reply:
                    await websocket.send_text(json.dumps(reply))
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()

    routes = [
        Route("/", index),
        WebSocketRoute("/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)


async def _push_views(websocket: WebSocket, session: Session, read_only: bool) -> None:
    """Send the view now and after every change, dropping views superseded meanwhile."""
    while True:
        event = session.changed()
        view = dict(session.view(), read_only=read_only)
        await websocket.send_text(json.dumps({"type": "view", "view": view}))
        await event.wait()


def handle_message(session: Session, message: str, read_only: bool) -> dict[str, Any] | None:
    """Apply one message from the page; the reply (if any) is an error to show."""
    from engine.errors import GameboardError

    try:
        action = json.loads(message)
    except json.JSONDecodeError:
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
