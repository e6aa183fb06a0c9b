"""Only the page itself may use the board: foreign origins, rebound names and missing tokens are turned away."""

import asyncio
import http.client
import json
import socket

import pytest
import websockets

from firmware_host.web.guard import REFUSED, Guard

#: What every response says so that no other site shows the page in a frame (clickjacking).
UNFRAMED = {"content-security-policy": "frame-ancestors 'none'", "x-frame-options": "DENY"}
TOKEN_REFUSED = "a token is needed: open the address printed by gameboard"
HOST_REFUSED = "is not an address of this board: open the address gameboard printed, or add the name with --allow-host"


def endpoint(served) -> tuple[str, int]:
    """Where to connect to the served page (on this machine, whatever Host says)."""
    address, port = served.listener.socket.getsockname()[:2]
    return ("127.0.0.1" if address == "0.0.0.0" else address), port


def get(served, host: str, path: str = "/") -> tuple[int, str]:
    """GET ``path`` from the served page with this Host header: (status, body)."""
    connection = http.client.HTTPConnection(*endpoint(served), timeout=10)
    try:
        connection.request("GET", path, headers={"Host": host})
        response = connection.getresponse()
        return response.status, response.read().decode(errors="replace")  # an icon is no text
    finally:
        connection.close()


def talk(served, host: str, *, origin: str | None = None, query: str = "") -> tuple[str, object]:
    """Open the websocket with this Host (and Origin), try to put a black piece on p1.

    ("view", contents of the board afterwards) when the socket was served; ("refused",
    (code, reason)) when it was closed at once.
    """
    async def run():
        connection = socket.create_connection(endpoint(served))
        async with websockets.connect(f"ws://{host}/ws{query}", sock=connection, origin=origin) as ws:
            try:
                first = json.loads(await ws.recv())
            except websockets.ConnectionClosedError as closed:
                return "refused", (closed.rcvd.code, closed.rcvd.reason)
            assert first["type"] == "view"
            for action in ({"type": "take", "piece": "black"}, {"type": "click", "loc": "p1"}, {"type": "end"}):
                await ws.send(json.dumps(action))
            while json.loads(await ws.recv())["type"] != "error":  # the reply to the unknown "end": all done
                pass
            return "view", served.call(lambda: dict(served.session.mock.contents))
    return asyncio.run(run())


@pytest.mark.parametrize("origin", [
    "http://evil.example",
    "http://evil.example:{port}",
    "http://localhost:9",  # another program's page on this machine
    "https://127.0.0.1:{port}",
    "http://127.0.0.1:{port}.evil.example",
    "null",  # a sandboxed frame or a file
])
def test_a_page_from_another_origin_may_not_use_the_websocket(served, origin):
    sim = served("squareoff")
    origin = origin.format(port=sim.port)
    outcome, (code, reason) = talk(sim, f"127.0.0.1:{sim.port}", origin=origin)
    assert (outcome, code) == ("refused", REFUSED)
    assert reason == f"a page from {origin!r} may not use this board: open the address gameboard printed"
    assert sim.call(lambda: dict(sim.session.mock.contents)) == {}


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "[::1]", "LOCALHOST"])
def test_the_page_on_a_loopback_name_may_use_the_board(served, name):
    sim = served("squareoff")
    host = f"{name}:{sim.port}"
    assert get(sim, host)[0] == 200
    assert talk(sim, host, origin=f"http://{host}") == ("view", {"p1": "black"})


def test_a_program_sends_no_origin_and_may_use_the_board(served):
    """Browsers always send Origin on a websocket; a program without one is no page of another site."""
    sim = served("squareoff")
    assert talk(sim, f"127.0.0.1:{sim.port}") == ("view", {"p1": "black"})


@pytest.mark.parametrize("host", [
    "evil.example:{port}",  # a name rebound to 127.0.0.1
    "localhost.evil.example:{port}",
    "127.0.0.1:9",  # the right name, another port
])
def test_a_rebound_name_gets_403_and_a_refused_socket(served, host):
    sim = served("squareoff")
    host = host.format(port=sim.port)
    assert get(sim, host) == (403, f"{host!r} {HOST_REFUSED}")
    assert get(sim, host, "/static/app.js")[0] == 403
    assert talk(sim, host) == ("refused", (REFUSED, f"{host!r} {HOST_REFUSED}"[:123]))


@pytest.mark.parametrize("host", ["evil.example@127.0.0.1:{port}", "127.0.0.1:{port}/x", "127.0.0.1:x", ""])
def test_a_host_that_is_not_a_name_and_a_port_gets_403(served, host):
    sim = served("squareoff")
    host = host.format(port=sim.port)
    assert get(sim, host) == (403, f"{host!r} {HOST_REFUSED}")


def test_on_the_network_the_machine_answers_to_its_addresses_its_names_and_the_names_given(served):
    sim = served("squareoff", listen="0.0.0.0", token="s3cret", allow_hosts=["Board.lan"])
    machine = socket.gethostname().lower()
    for name in ("192.0.2.7", "[2001:db8::7]", machine, f"{machine}.local", "board.lan", "localhost"):
        host = f"{name}:{sim.port}"
        assert get(sim, host, "/?token=s3cret")[0] == 200, host
        assert talk(sim, host, origin=f"http://{host}", query="?token=s3cret")[0] == "view", host
    assert get(sim, f"evil.example:{sim.port}", "/?token=s3cret")[0] == 403
    # An address in Host is no rebound name, but a page at another address is another site.
    refusal = talk(sim, f"127.0.0.1:{sim.port}", origin=f"http://192.0.2.7:{sim.port}", query="?token=s3cret")
    assert refusal == ("refused", (REFUSED, f"a page from 'http://192.0.2.7:{sim.port}' may not use this board: "
                                            f"open the address gameboard printed"))


def test_a_page_on_the_network_needs_the_token(served):
    sim = served("squareoff", token="s3cret")
    host = f"127.0.0.1:{sim.port}"
    assert get(sim, host) == (403, TOKEN_REFUSED)
    assert get(sim, host, "/?token=s3cret")[0] == 200
    assert talk(sim, host) == ("refused", (REFUSED, TOKEN_REFUSED))
    assert talk(sim, host, query="?token=s3cret") == ("view", {"p1": "black"})


def test_a_token_that_is_not_ascii_is_compared_as_bytes(served):
    """A non-ASCII token once raised TypeError in compare_digest: HTTP 500 and a traceback."""
    sim = served("squareoff", token="s3cret")
    host = f"127.0.0.1:{sim.port}"
    assert get(sim, host, "/?token=%C3%A9") == (403, TOKEN_REFUSED)
    assert talk(sim, host, query="?token=%C3%A9") == ("refused", (REFUSED, TOKEN_REFUSED))

    accented = served("squareoff", token="é")
    assert accented.listener.address.endswith("/?token=%C3%A9")
    host = f"127.0.0.1:{accented.port}"
    assert get(accented, host, "/?token=%C3%A9")[0] == 200
    assert talk(accented, host, query="?token=%C3%A9") == ("view", {"p1": "black"})


def test_on_the_network_an_allowed_name_still_needs_the_token(served):
    sim = served("squareoff", listen="0.0.0.0", token="s3cret")
    host = f"192.0.2.7:{sim.port}"
    assert get(sim, host) == (403, TOKEN_REFUSED)
    assert get(sim, host, "/?token=wrong") == (403, TOKEN_REFUSED)
    assert get(sim, host, "/static/app.js")[0] == 200  # the page's assets hold nothing of the game
    assert talk(sim, host, origin=f"http://{host}") == ("refused", (REFUSED, TOKEN_REFUSED))
    assert sim.call(lambda: dict(sim.session.mock.contents)) == {}


def test_listening_on_one_address_answers_to_it_and_not_to_other_addresses(served):
    sim = served("squareoff", listen="127.0.0.2", token="s3cret")
    assert get(sim, f"127.0.0.2:{sim.port}", "/?token=s3cret")[0] == 200
    assert get(sim, f"localhost:{sim.port}", "/?token=s3cret")[0] == 200
    assert get(sim, f"192.0.2.7:{sim.port}", "/?token=s3cret")[0] == 403


def test_the_names_a_guard_answers_to():
    machine = socket.gethostname().lower()
    on_loopback = Guard.for_listener("127.0.0.1", 8300, None, ["Board.lan"])
    assert on_loopback.names == {"localhost", "127.0.0.1", "::1", "board.lan"} and not on_loopback.any_address
    on_one_address = Guard.for_listener("192.0.2.1", 8300, None)
    assert on_one_address.names == {"localhost", "127.0.0.1", "::1", "192.0.2.1", machine, f"{machine}.local"}
    assert not on_one_address.any_address
    assert Guard.for_listener("::", 8300, None).any_address


def test_the_icon_is_served_through_the_guard(served):
    """Browsers ask for /favicon.ico whatever the page links; the page links the static copy, which needs no token."""
    sim = served("squareoff", token="s3cret")
    host = f"127.0.0.1:{sim.port}"
    status, icon = get(sim, host, "/favicon.ico?token=s3cret")
    assert (status, icon[:4]) == (200, "\0\0\1\0")  # the header of an .ico file
    assert get(sim, host, "/favicon.ico") == (403, TOKEN_REFUSED)
    assert get(sim, host, "/static/favicon.ico")[0] == 200
    assert get(sim, f"evil.example:{sim.port}", "/favicon.ico?token=s3cret")[0] == 403


@pytest.mark.parametrize("method, host, path, status", [
    ("GET", "127.0.0.1:{port}", "/?token=s3cret", 200),
    ("GET", "127.0.0.1:{port}", "/static/app.js", 200),
    ("GET", "127.0.0.1:{port}", "/favicon.ico?token=s3cret", 200),
    ("GET", "127.0.0.1:{port}", "/", 403),
    ("GET", "evil.example:{port}", "/?token=s3cret", 403),
    ("GET", "127.0.0.1:{port}", "/nothing?token=s3cret", 404),
    ("POST", "127.0.0.1:{port}", "/?token=s3cret", 405),
])
def test_no_response_may_be_shown_in_another_sites_frame(served, method, host, path, status):
    sim = served("squareoff", token="s3cret")
    connection = http.client.HTTPConnection(*endpoint(sim), timeout=10)
    try:
        connection.request(method, path, headers={"Host": host.format(port=sim.port)})
        response = connection.getresponse()
        assert response.status == status
        assert {name: response.getheader(name) for name in UNFRAMED} == UNFRAMED
    finally:
        connection.close()


@pytest.mark.parametrize("query", ["?token=s3cret", ""])
def test_the_websocket_handshake_says_it_may_not_be_framed_served_or_refused(served, query):
    sim = served("squareoff", token="s3cret")

    async def handshake():
        async with websockets.connect(f"ws://127.0.0.1:{sim.port}/ws{query}") as ws:
            return {name: ws.response.headers.get(name) for name in UNFRAMED}
    assert asyncio.run(handshake()) == UNFRAMED
