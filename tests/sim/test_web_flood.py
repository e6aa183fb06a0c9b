"""A flood of half-open connections leaves the page to its visitors, the daemon its descriptors, the log its size.

The page's server runs as a real process (``gameboard run --web``, ``gameboard sim``) with
``RLIMIT_NOFILE`` lowered to 256, and gets 300 connections that send ``GET / HTTP/1.1``
and nothing more: before, it ran out of descriptors, a visitor waited in vain and asyncio
logged each failed accept (566,513 times in a minute with 1,030 connections).  In the
test process, with a short request timeout: a connection in a request (a websocket) is
never timed out, one that stops halfway through its next request is.  How fast it all
goes is bench/web_flood.py's business; the timeouts here only bound a failure.
"""

import asyncio
import http.client
import json
import logging
import os
import re
import resource
import socket
import subprocess
import time
from pathlib import Path

import pytest
import websockets

from firmware_host.web.quiet_log import Collapse
from tests.sim.conftest import free_port
from tests.sim.test_web import COMMAND

NOFILE = 256
HALF_OPEN = 300  # more than the server has descriptors
GIVE_UP = 60.0  # seconds: a bound on failure, not a measure of speed


def lowered_nofile() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (NOFILE, NOFILE))


@pytest.fixture(params=["run", "sim"])
def page(request, tmp_path):
    """``gameboard run --mock squareoff --web`` or ``gameboard sim squareoff`` on the network, with 256
    descriptors: (port, token, stderr's file)."""
    args = {"run": ["run", "--mock", "squareoff", "--web"],
            "sim": ["sim", "squareoff", "--journal", str(tmp_path / "sim.sqlite3")]}[request.param]
    port, log = free_port(), tmp_path / "stderr"
    with log.open("w") as stderr:
        process = subprocess.Popen([COMMAND, *args, "--listen", "0.0.0.0", "--port", str(port)],
                                   stdout=subprocess.PIPE, stderr=stderr, text=True, preexec_fn=lowered_nofile,
                                   env=dict(os.environ, XDG_STATE_HOME=str(tmp_path)))
    try:
        while "gameboard: open" not in (line := process.stdout.readline()):
            assert line, log.read_text()
        yield port, re.search(r"token=(\S+)", line).group(1), log
    finally:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def closed_by_server(connection: socket.socket, deadline: float) -> bool:
    """Whether the server closes ``connection`` before ``deadline`` (monotonic), reading whatever it sent."""
    try:
        while (left := deadline - time.monotonic()) > 0:
            connection.settimeout(left)
            if not connection.recv(4096):
                return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        pass
    return False


def test_half_open_connections_leave_the_page_to_a_visitor_and_are_closed(page):
    port, token, log = page
    half_open = [socket.create_connection(("127.0.0.1", port)) for _ in range(HALF_OPEN)]
    for connection in half_open:
        connection.sendall(b"GET / HTTP/1.1\r\n")
    dripping = socket.create_connection(("127.0.0.1", port))  # a header now and then, never the end
    dripping.sendall(b"GET / HTTP/1.1\r\n")
    try:
        visitor = http.client.HTTPConnection("127.0.0.1", port, timeout=GIVE_UP)
        visitor.request("GET", f"/?token={token}")
        response = visitor.getresponse()
        assert (response.status, b"<html" in response.read()) == (200, True)
        visitor.close()

        deadline = time.monotonic() + GIVE_UP
        while time.monotonic() < deadline and not closed_by_server(dripping, time.monotonic() + 1):
            dripping.sendall(b"X-Slow: 1\r\n")
        assert time.monotonic() < deadline, f"a dripping request still open {GIVE_UP} s later"
        still_open = sum(not closed_by_server(connection, deadline) for connection in half_open)
        assert still_open == 0
    finally:
        for connection in [*half_open, dripping]:
            connection.close()
    lines = log.read_text().splitlines()
    assert len(lines) <= 6, lines[:20]  # the daemon's two lines, and the page's one a minute for each kind
    assert not any("Traceback" in line for line in lines)


@pytest.mark.parametrize("listen", ["127.0.0.1", "::1"])
def test_a_websocket_outlives_the_request_timeout(served, listen):
    """A connection whose request is in the app (here a websocket) waits for nothing: it is never timed out."""
    sim = served("squareoff", listen=listen, request_timeout=0.3)
    host = f"[{listen}]" if ":" in listen else listen

    async def talk():
        async with websockets.connect(f"ws://{host}:{sim.port}/ws") as ws:
            await ws.recv()
            await asyncio.sleep(1.5)  # five timeouts
            await ws.send(json.dumps({"type": "take", "piece": "black"}))
            return json.loads(await asyncio.wait_for(ws.recv(), GIVE_UP))["view"]["hand"]
    assert asyncio.run(talk()) == ["black"]


def test_a_connection_stopping_halfway_through_its_next_request_is_closed(served):
    """uvicorn's keep-alive timer stops at the first byte of a next request, and never starts again."""
    sim = served("squareoff", request_timeout=0.3)
    visitor = http.client.HTTPConnection("127.0.0.1", sim.port, timeout=GIVE_UP)
    try:
        visitor.request("GET", "/static/style.css")
        assert visitor.getresponse().read()
        time.sleep(0.1)  # the response is over: uvicorn's keep-alive timer runs
        visitor.sock.sendall(b"GET / HTTP/1.1\r\n")
        assert closed_by_server(visitor.sock, time.monotonic() + GIVE_UP)
    finally:
        visitor.close()


def test_a_kind_of_message_passes_once_an_interval_and_then_says_how_many_were_held():
    now = [0.0]
    collapse = Collapse(interval=60, clock=lambda: now[0])

    def passes(message: str, *args: object) -> str | None:
        record = logging.LogRecord("asyncio", logging.ERROR, __file__, 1, message, args, None)
        return record.getMessage() if collapse.filter(record) else None

    assert passes("socket.accept() out of system resource\nsocket: fd=3") == (
        "socket.accept() out of system resource\nsocket: fd=3")
    assert [passes("socket.accept() out of system resource\nsocket: fd=4") for _ in range(1000)] == [None] * 1000
    assert passes("closed %s", "p1") == "closed p1"  # another kind
    now[0] = 61.0
    assert passes("socket.accept() out of system resource") == (
        "socket.accept() out of system resource (1000 more like this in the last 61 s)")
    assert passes("socket.accept() out of system resource") is None
