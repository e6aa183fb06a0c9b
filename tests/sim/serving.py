"""A page server and its session run on an event loop in a thread of their own, as the commands run them."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any


class Running:
    """A server started by ``serve_in_thread``: its session, its loop, and ``stop``."""

    def __init__(self, session: Any, server: Any, loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
        self.session, self.server, self.loop, self._thread = session, server, loop, thread

    def stop(self) -> None:
        self.server.should_exit = True
        self._thread.join(10)


def serve_in_thread(make: Callable[[], tuple[Any, Any]]) -> Running:
    """Build ``(session, server)`` with ``make`` on a new loop in a new thread, run the session's ``run()`` beside
    the server, and return once the server is listening (at most 10 s)."""
    ready = threading.Event()
    box: dict[str, Any] = {}

    def serve() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        session, server = make()
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
    return Running(box["session"], box["server"], box["loop"], thread)
