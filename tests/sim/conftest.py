"""A simulator served on a free port, in a thread of its own."""

import asyncio
import socket
import threading
import time

import pytest

from firmware_host.sim import SimSession
from firmware_host.web.doorman import REQUEST_TIMEOUT
from firmware_host.web.serve import Listener
from tests.sim.browser import browser, open_page, page  # noqa: F401 (fixtures of the browser tests)


def free_port() -> int:
    """A port free a moment ago, for a command that must be given one."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A session and the address of its page (on 127.0.0.1, without the token); ``call`` runs
    code on the server's loop."""

    def __init__(self, session: SimSession, listener: Listener, loop: asyncio.AbstractEventLoop) -> None:
        self.session, self.listener, self.loop = session, listener, loop
        self.port = listener.guard.port
        self.url = f"http://127.0.0.1:{self.port}/"

    def call(self, fn):
        return asyncio.run_coroutine_threadsafe(_async(fn), self.loop).result(5)


async def _async(fn):
    return fn()


@pytest.fixture
def served(tmp_path):
    """``served(game, options, *, token, read_only, listen, allow_hosts, request_timeout, **session_options)`` -> a
    running simulator, served as ``gameboard sim`` serves it, stopped after the test."""
    started = []

    def start(game="overpass", options=None, *, token=None, read_only=False, listen="127.0.0.1", allow_hosts=(),
              request_timeout=REQUEST_TIMEOUT, **kwargs):
        listener = Listener(listen, 0, token=token, allow_hosts=allow_hosts)
        ready = threading.Event()
        box = {}

        def serve():
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            session = SimSession(game, options, journal=tmp_path / f"journal-{listener.guard.port}.sqlite3", **kwargs)
            server = listener.server(session, read_only=read_only, request_timeout=request_timeout)
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
        return Served(box["session"], listener, box["loop"])

    yield start
    for server, thread in started:
        server.should_exit = True
        thread.join(10)
