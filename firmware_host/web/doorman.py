"""The page's connections: a bounded number, none left waiting for a request that never comes.

Every open connection holds a file descriptor, and the page shares its process's
descriptors with the daemon (its journal, its serial port, the computer's worker).
A connection that sends nothing, or half a request (``GET / HTTP/1.1`` and no more),
holds one for as long as it stays open: uvicorn times out neither (its keep-alive
timer starts after a response), and asyncio's own accept loop, once out of
descriptors, logs every accept that fails, over and over.  So the page accepts its
connections itself, here:

- At most ``limit`` are open at once (``connection_limit``: a quarter of the
  process's descriptors, as a connection may hold a second one while a file is sent,
  and 128 at most); the daemon keeps the rest.
- A connection must bring a whole request (its headers) within ``request_timeout``
  seconds of connecting or of its previous request's end, or it is closed.
- At the limit, a new connection takes the place of the one that has waited longest
  for its request, once that one has had ``grace`` seconds to send it: a visitor
  gets in while a flood of silent connections holds every place.  When no place can
  be taken (every connection is in a request, or too young) accepting waits: the
  kernel queues the newcomers, which costs no descriptor.
- Out of descriptors all the same (another part of the process took them), accepting
  pauses a second and the log says so, collapsed (``quiet_log``).

Whether a connection is in a request is seen from the app's side: ``watch`` wraps the
ASGI app and marks a connection busy while a request of its own (an HTTP request, a
websocket) is in the app.  The connection is known by its peer address, which is
unique among open connections.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

logger = logging.getLogger(__name__)

#: Most connections a page keeps: a few browsers (six connections each, and a websocket) are a few dozen.
MOST_CONNECTIONS = 128
#: Seconds a connection may take to send a whole request; a browser sends one as it connects.
REQUEST_TIMEOUT = 10.0
#: Seconds a connection is left to send its request before a newer one may take its place.
GRACE = 0.25
#: Seconds accepting pauses when the process is out of descriptors.
OUT_OF_FILES_PAUSE = 1.0
#: Connections the kernel queues before the page accepts them (they hold no descriptor there).
BACKLOG = 4096

_OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)

Peer = tuple[str, int]


def connection_limit() -> int:
    """How many connections the page may hold: a quarter of the process's descriptors, at most 128."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MOST_CONNECTIONS
    return max(1, min(MOST_CONNECTIONS, soft // 4))


@dataclass(eq=False)
class _Connection:
    socket: socket.socket
    peer: Peer
    waiting_since: float | None  # when it began to wait for a request; None while one is in the app
    transport: asyncio.Transport | None = None  # once the server's protocol has it
    requests: int = 0  # requests of this connection in the app now

    @property
    def closed(self) -> bool:
        return self.socket.fileno() == -1

    def waited(self, now: float) -> float:
        return 0.0 if self.waiting_since is None else now - self.waiting_since

    def close(self) -> None:
        """At once, without waiting for a reader who never reads."""
        if self.transport is not None:
            self.transport.abort()
        else:
            self.socket.close()


class Doorman:
    """Accepts the connections of ``listener`` for the page's server (``open``)."""

    def __init__(self, listener: socket.socket, *, limit: int | None = None, request_timeout: float = REQUEST_TIMEOUT,
                 grace: float = GRACE) -> None:
        self.listener = listener
        self.limit = limit or connection_limit()
        self.request_timeout = request_timeout
        self.grace = grace
        self.batch = max(1, self.limit // 4)  # accepted per wake-up: a newcomer outlives several of them
        self._open: dict[Peer, _Connection] = {}
        self._loop: asyncio.AbstractEventLoop | None = None  # while open
        self._protocol_factory: Callable[[], asyncio.Protocol] = asyncio.Protocol
        self._accepting = False
        self._sweep: asyncio.TimerHandle | None = None
        self._starting: set[asyncio.Task[None]] = set()

    def open(self, protocol_factory: Callable[[], asyncio.Protocol]) -> None:
        """Start accepting on the running loop, each connection served by a protocol ``protocol_factory`` makes."""
        self._loop = asyncio.get_running_loop()
        self._protocol_factory = protocol_factory
        self.listener.setblocking(False)
        self.listener.listen(BACKLOG)
        self._resume()

    def close(self) -> None:
        """Stop accepting; the server closes the connections it has."""
        self._pause()
        if self._sweep is not None:
            self._sweep.cancel()
        self._loop = self._sweep = None

    def watch(self, app: ASGIApp) -> ASGIApp:
        """``app``, telling this doorman when each connection's requests enter and leave it."""
        async def watched(scope: Scope, receive: Receive, send: Send) -> None:
            client = scope.get("client")
            connection = self._open.get(tuple(client)) if client else None  # type: ignore[arg-type]
            if connection is None or connection.closed:
                await app(scope, receive, send)
                return
            connection.requests += 1
            connection.waiting_since = None
            try:
                await app(scope, receive, send)
            finally:
                connection.requests -= 1
                if not connection.requests:
                    connection.waiting_since = time.monotonic()
        return watched

    def _resume(self) -> None:
        if not self._accepting and self._loop is not None:
            self._loop.add_reader(self.listener.fileno(), self._accept)
            self._accepting = True

    def _pause(self) -> None:
        if self._accepting and self._loop is not None:
            self._loop.remove_reader(self.listener.fileno())
            self._accepting = False

    def _accept(self) -> None:
        """Accept what the kernel queued, a batch at a time, each newcomer in the place of the longest waiting
        connection once all are taken."""
        for _ in range(self.batch):
            self._forget_closed()
            making_room = len(self._open) >= self.limit
            replaced = self._longest_waiting() if making_room else None
            if making_room and replaced is None:
                self._pause()
                self._sweep_in(self._next_room())
                return
            try:
                connection, address = self.listener.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as exc:
                self._pause()
                self._sweep_in(OUT_OF_FILES_PAUSE)
                if exc.errno in _OUT_OF_RESOURCES:
                    logger.error("the page cannot accept a connection (%s): it waits a second and tries again",
                                 exc.strerror)
                else:
                    logger.error("the page cannot accept a connection (%s)", exc)
                return
            if replaced is not None:
                logger.warning("the page holds its most connections (%d): it closes those that wait longest for "
                               "their request, to let newer ones in", self.limit)
                self._drop(replaced)
            self._start(connection, (str(address[0]), int(address[1])))

    def _start(self, sock: socket.socket, peer: Peer) -> None:
        connection = _Connection(sock, peer, waiting_since=time.monotonic())
        self._open[peer] = connection
        task = asyncio.get_running_loop().create_task(self._connect(connection))
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)
        self._sweep_in(1.0)

    async def _connect(self, connection: _Connection) -> None:
        try:
            connection.transport, _ = await asyncio.get_running_loop().connect_accepted_socket(
                self._protocol_factory, connection.socket)
        except OSError as exc:  # the peer went away meanwhile
            logger.warning("a connection to the page failed as it opened (%s)", exc)
            connection.socket.close()

    def _longest_waiting(self) -> _Connection | None:
        """The connection that has waited longest for its request, if it has had its grace."""
        now = time.monotonic()
        waiting = [c for c in self._open.values() if c.transport is not None and c.waited(now) >= self.grace]
        return max(waiting, key=lambda c: c.waited(now), default=None)

    def _next_room(self) -> float:
        """Seconds until a place may be taken: the longest waiting connection's grace, or a poll for one closing."""
        now = time.monotonic()
        waits = [self.grace - c.waited(now) for c in self._open.values()
                 if c.transport is not None and c.waiting_since is not None]
        return max(0.01, min(waits, default=0.1))

    def _sweep_in(self, seconds: float) -> None:
        """Look at the connections again in ``seconds`` (or sooner, as already planned)."""
        if self._loop is None:
            return
        when = self._loop.time() + seconds
        if self._sweep is not None and self._sweep.when() <= when:
            return
        if self._sweep is not None:
            self._sweep.cancel()
        self._sweep = self._loop.call_at(when, self._look)

    def _look(self) -> None:
        """Close the connections that waited too long for a request; accept again if there is room."""
        self._sweep = None
        now = time.monotonic()
        for connection in list(self._open.values()):
            if connection.transport is not None and connection.waited(now) >= self.request_timeout:
                logger.warning("the page closes connections that send no whole request within %g s",
                               self.request_timeout)
                self._drop(connection)
        self._forget_closed()
        if not self._accepting:
            self._resume()
            self._accept()  # what the kernel queued meanwhile, at once
        if self._open and self._sweep is None:
            self._sweep_in(1.0)

    def _drop(self, connection: _Connection) -> None:
        connection.close()
        del self._open[connection.peer]

    def _forget_closed(self) -> None:
        for peer in [peer for peer, connection in self._open.items() if connection.closed]:
            del self._open[peer]
