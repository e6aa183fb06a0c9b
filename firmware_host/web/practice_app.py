"""The calibration practice's page: its own small page and websocket, behind the same guard as the simulator's.

The practice sends its whole view on every change (a question, a piece put down, an LED
lit): its page is small and self-contained, so the simulator page's transport can change
without it.
"""

from __future__ import annotations

import asyncio
import json

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp
from starlette.websockets import WebSocket, WebSocketDisconnect

from firmware_host.web.app import STATIC, Session, handle_message
from firmware_host.web.guard import Guard, GuardMiddleware, NoFraming


def create_practice_app(session: Session, *, guard: Guard) -> ASGIApp:
    """The ASGI app of the practice page (``static/practice.html``), its assets and its websocket."""

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "practice.html")

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        sender = asyncio.create_task(_push_views(websocket, session))
        try:
            while (message := await websocket.receive())["type"] != "websocket.disconnect":
                reply = handle_message(session, message.get("text") or message.get("bytes") or "", False)
                if reply:
                    await websocket.send_text(json.dumps(reply))
        except WebSocketDisconnect:
            pass
        finally:
            sender.cancel()

    routes = [Route("/", page), WebSocketRoute("/ws", socket), Mount("/static", StaticFiles(directory=STATIC))]
    return NoFraming(Starlette(routes=routes, middleware=[Middleware(GuardMiddleware, guard=guard)]))


async def _push_views(websocket: WebSocket, session: Session) -> None:
    while True:
        event = session.changed()
        await websocket.send_text(json.dumps({"type": "view", "view": session.view()}))
        await event.wait()
