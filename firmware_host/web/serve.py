"""Serving the web page: localhost by default, the network only with a token."""

from __future__ import annotations

import asyncio
import ipaddress
import secrets
from collections.abc import Awaitable

import uvicorn

from engine.errors import GameboardError
from firmware_host.web.app import Session, create_app

LOCAL_HOSTS = {"localhost"}


def is_local(host: str) -> bool:
    if host in LOCAL_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        raise GameboardError(f"--listen {host!r} is not an IP address or localhost") from None


def access_token(host: str, token: str | None) -> str | None:
    """No token on localhost; on the network the given one or a fresh random one."""
    if is_local(host):
        return token
    return token or secrets.token_urlsafe(16)


async def serve(session: Session, host: str, port: int, *, read_only: bool, token: str | None,
                alongside: Awaitable[None] | None = None) -> None:
    """Serve the page until interrupted, running ``alongside`` (the simulated board's loop) meanwhile."""
    app = create_app(session, read_only=read_only, token=token)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off"))
    shown = f"[{host}]" if ":" in host else host
    query = f"/?token={token}" if token else "/"
    print(f"gameboard: open http://{shown}:{port}{query}", flush=True)
    loop_task = asyncio.ensure_future(alongside) if alongside is not None else None
    try:
        await server.serve()
    finally:
        if loop_task is not None:
            loop_task.cancel()
            await asyncio.gather(loop_task, return_exceptions=True)
