"""Serving the web page: localhost by default, the network only with a token."""

from __future__ import annotations

import asyncio
import errno
import os
import socket
from collections.abc import Awaitable, Iterable
from dataclasses import replace
from urllib.parse import urlencode

import uvicorn

from engine.errors import GameboardError
from firmware_host.web.app import Session, create_app
from firmware_host.web.guard import Guard


class Listener:
    """The page's port, bound as soon as it is asked for.

    A port in use is reported before any address is printed (the address would be
    another program's), and nothing can take the port between that check and the
    serving: uvicorn serves on this very socket.
    """

    def __init__(self, host: str, port: int, *, token: str | None = None, allow_hosts: Iterable[str] = ()) -> None:
        guard = Guard.for_listener(host, port, token, allow_hosts)  # refuses a bad --listen before binding
        self.socket = _bind(host, port)
        self.guard = replace(guard, port=self.socket.getsockname()[1])  # the port bound, when asked for any (0)
        shown = f"[{host}]" if ":" in host else host
        query = f"?{urlencode({'token': self.guard.token})}" if self.guard.token else ""
        self.address = f"http://{shown}:{self.guard.port}/{query}"

    async def serve(self, session: Session, *, read_only: bool, alongside: Awaitable[None] | None = None) -> None:
        """Serve the page until interrupted, running ``alongside`` (the simulated board's loop) meanwhile."""
        app = create_app(session, read_only=read_only, guard=self.guard)
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
        print(f"gameboard: open {self.address}", flush=True)
        loop_task = asyncio.ensure_future(alongside) if alongside is not None else None
        try:
            await server.serve(sockets=[self.socket])
        finally:
            if loop_task is not None:
                loop_task.cancel()
                await asyncio.gather(loop_task, return_exceptions=True)


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise GameboardError(f"port {port} is in use by another program: choose another with --port") from None
        raise GameboardError(f"cannot listen on {host} port {port} ({os.strerror(exc.errno)}): "
                             f"choose another --listen or --port") from None
