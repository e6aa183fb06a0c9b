"""A simulator served on a free port, in a thread of its own."""

import asyncio
import socket

import pytest

from firmware_host.sim import SimSession
from firmware_host.web.doorman import REQUEST_TIMEOUT
from firmware_host.web.serve import Listener
from tests.sim.browser import browser, open_page, page  # noqa: F401 (fixtures of the browser tests)
from tests.sim.serving import serve_in_thread


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

        def make():
            session = SimSession(game, options, journal=tmp_path / f"journal-{listener.guard.port}.sqlite3", **kwargs)
            return session, listener.server(session, read_only=read_only, request_timeout=request_timeout)

        running = serve_in_thread(make)
        started.append(running)
        return Served(running.session, listener, running.loop)

    yield start
    for running in started:
        running.stop()
