"""A simulator served on a free localhost port, in a thread of its own."""

import asyncio
import socket
import threading
import time

import pytest

from firmware_host.sim import SimSession
from firmware_host.web.app import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A session and the address of its page; ``call`` runs code on the server's loop."""

    def __init__(self, session: SimSession, url: str, loop: asyncio.AbstractEventLoop) -> None:
        self.session, self.url, self.loop = session, url, loop

    def call(self, fn):
        return asyncio.run_coroutine_threadsafe(_async(fn), self.loop).result(5)


async def _async(fn):
    return fn()


@pytest.fixture
def served(tmp_path):
    """``served(game, **session_options)`` -> a running simulator, stopped after the test."""
    import uvicorn

    started = []

    def start(game="overpass", options=None, *, token=None, read_only=False, **kwargs):
        port = free_port()
        ready = threading.Event()
        box = {}

        def serve():
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            session = SimSession(game, options, journal=tmp_path / f"journal-{port}.sqlite3", **kwargs)
            server = uvicorn.Server(uvicorn.Config(create_app(session, read_only=read_only, token=token),
                                                   host="127.0.0.1", port=port, log_level="warning",
                                                   lifespan="off"))
            box.update(session=session, server=server, loop=loop)
            stepping = loop.create_task(session.run())
            ready.set()
            loop.run_until_complete(server.serve())
            stepping.cancel()
            loop.run_until_complete(asyncio.gather(stepping, return_exceptions=True))
            loop.close()

        thread = threading.Thread(target=serve, daemon=True)
        thread.start()
        ready.wait(10)
        deadline = time.monotonic() + 10
        while not box["server"].started and time.monotonic() < deadline:
            time.sleep(0.02)
        started.append((box["server"], thread))
        return Served(box["session"], f"http://127.0.0.1:{port}/", box["loop"])

    yield start
    for server, thread in started:
        server.should_exit = True
        thread.join(10)
