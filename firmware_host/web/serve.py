"""Serving the web page: localhost by default, the network only with a token, its connections bounded."""

from __future__ import annotations

import asyncio
import errno
import os
import socket
from collections.abc import Awaitable, Iterable
from dataclasses import replace
from urllib.parse import urlencode

import uvicorn
from starlette.types import ASGIApp

from engine.errors import GameboardError
from firmware_host.web.app import Session, create_app
from firmware_host.web.doorman import REQUEST_TIMEOUT, Doorman
from firmware_host.web.guard import Guard
from firmware_host.web.quiet_log import quiet_page_log


class Listener:
    """The page's port, bound as soon as it is asked for.

    A port in use is reported before any address is printed (the address would be
    another program's), and nothing can take the port between that check and the
    serving: the page is served on this very socket.
    """

    def __init__(self, host: str, port: int, *, token: str | None = None, allow_hosts: Iterable[str] = ()) -> None:
        guard = Guard.for_listener(host, port, token, allow_hosts)  # refuses a bad --listen before binding
        self.socket = _bind(host, port)
        self.guard = replace(guard, port=self.socket.getsockname()[1])  # the port bound, when asked for any (0)
        shown = f"[{host}]" if ":" in host else host
        query = f"?{urlencode({'token': self.guard.token})}" if self.guard.token else ""
        self.address = f"http://{shown}:{self.guard.port}/{query}"

    def server(self, session: Session, *, read_only: bool, request_timeout: float = REQUEST_TIMEOUT) -> PageServer:
        """The server of ``session``'s page on this port, to ``serve()`` on an event loop."""
        return PageServer(create_app(session, read_only=read_only, guard=self.guard),
                          Doorman(self.socket, request_timeout=request_timeout))

    async def serve(self, session: Session, *, read_only: bool, alongside: Awaitable[None] | None = None) -> None:
        """Serve the page until interrupted, running ``alongside`` (the simulated board's loop) meanwhile."""
        server = self.server(session, read_only=read_only)
        print(f"gameboard: open {self.address}", flush=True)
        loop_task = asyncio.ensure_future(alongside) if alongside is not None else None
        try:
            await server.serve()
        finally:
            if loop_task is not None:
                loop_task.cancel()
                await asyncio.gather(loop_task, return_exceptions=True)


class PageServer(uvicorn.Server):
    """uvicorn serving the page on the connections its doorman accepts (``doorman.py``), not on its own."""

    def __init__(self, app: ASGIApp, doorman: Doorman) -> None:
        quiet_page_log()
        self.doorman = doorman
        # No proxy in front: the client of a request is the connection's peer, whatever a header says.
        super().__init__(uvicorn.Config(self.doorman.watch(app), log_level="warning", log_config=None,
                                        lifespan="off", proxy_headers=False))

    def _protocol(self) -> asyncio.Protocol:
        """uvicorn's protocol for a connection, made as its own servers would make it."""
        return self.config.http_protocol_class(  # type: ignore[call-arg]
            config=self.config, server_state=self.server_state, app_state=self.lifespan.state,
            _loop=asyncio.get_running_loop())

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=[])  # uvicorn listens on nothing itself
        self.doorman.open(self._protocol)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.doorman.close()
        await super().shutdown(sockets=[self.doorman.listener])


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise GameboardError(f"port {port} is in use by another program: choose another with --port") from None
        raise GameboardError(f"cannot listen on {host} port {port} ({os.strerror(exc.errno)}): "
                             f"choose another --listen or --port") from None
