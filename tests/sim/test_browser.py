"""The simulator page in headless Chromium: an opening turn of Over-Pass played by clicks."""

import http.server
import shutil
import threading
import time

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
playwright = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)")

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--headless=new"]


@pytest.fixture
def page():
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        yield page
        browser.close()


def click(page, location):
    """Click where a location is on the board, as a person does (whatever is drawn on top there)."""
    box = page.locator(f'#board [data-loc="{location}"]').first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def led(page, location):
    """The LED colour the page shows at a location, or None."""
    ring = page.locator(f'#board g[data-loc="{location}"] circle.led')
    return ring.get_attribute("stroke") if ring.count() else None


def wait_for_history(served, length, timeout=10.0):
    """Wait (in real time: the daemon needs its settle time) for the game to reach ``length`` moves."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if served.call(lambda: len(served.session.daemon.state.history)) >= length:
            return
        time.sleep(0.02)
    raise AssertionError(f"history stayed at {served.session.daemon.state.history}")


def wait_for(served, condition, timeout=10.0):
    """The daemon's snapshot once ``condition(snapshot)`` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snapshot = served.call(served.session.daemon.snapshot)
        if condition(snapshot):
            return snapshot
        time.sleep(0.02)
    raise AssertionError(f"the daemon never got there: {snapshot['status_text']}")


def test_opening_turn_of_overpass_by_clicks(served, page):
    sim = served("overpass", {"players": 2}, seed=7)
    page.goto(sim.url)
    page.wait_for_selector("#board svg")
    wait_for(sim, lambda s: s["status"] == "ready")  # the pieces set up are seen and settled
    state = sim.session.daemon.state
    mover = state.turn_piece()
    assert page.locator("#turn").inner_text().startswith(state.game.player_name(state.current_player))

    # Take the turn's piece from the box and put it on the Center Square.
    page.click(f'#tray button[data-piece="{mover}"]')
    page.wait_for_selector(f'#hand [data-piece="{mover}"]')
    click(page, "center")
    wait_for_history(sim, 2)  # the entry, then the daemon's roll
    assert [str(m) for m in state.history][0] == "enter"
    assert str(state.history[1]).startswith("roll ")
    page.wait_for_function("document.querySelector('#dice').textContent.startsWith('roll')")

    # Lift the piece: the LEDs light where it may go.
    click(page, "center")
    snapshot = wait_for(sim, lambda s: "center" in s["lifted"])
    destinations = snapshot["destinations"]
    assert destinations, "lifting the piece lights its destinations"
    for location in destinations:
        page.wait_for_selector(f'#board g[data-loc="{location}"] circle.led')
        assert led(page, location) == snapshot["leds"][location].replace("#", "rgb") or led(page, location)
    target = destinations[0]
    click(page, target)
    wait_for_history(sim, 3)
    assert str(state.history[2]).endswith(target)
    assert state.contents()["center"] is None and state.contents()[target] == mover

    # End the turn with the button: the other player is to move.
    page.wait_for_selector('#buttons button[data-button="end_turn"]:not([disabled])')
    page.click('#buttons button[data-button="end_turn"]')
    wait_for_history(sim, 4)
    assert str(state.history[3]) == "end"
    assert state.turn_piece() != mover
    page.wait_for_function(f"!document.querySelector('#turn').textContent.includes('({mover})')")


def test_the_page_shows_an_error_reply_and_stays_live(served, page):
    sim = served("squareoff")
    page.goto(sim.url)
    page.wait_for_selector("#board svg")
    click(page, "p1")  # nothing in hand
    page.wait_for_function("document.querySelector('#error').textContent !== ''")
    assert page.locator("#error").inner_text() == "nothing in hand: click a piece to lift it, or take one from the box"
    page.evaluate("socket.send(JSON.stringify({type: 'take', piece: [1]}))")  # once, a dropped connection
    page.wait_for_function("document.querySelector('#error').textContent.startsWith('a take action')")
    page.click('#tray button[data-piece="black"]')
    page.wait_for_selector('#hand [data-piece="black"]')
    assert page.locator("#connection").inner_text() == "live"


@pytest.fixture
def other_site():
    """Another web site on this machine (its own port), serving a page that does nothing by itself."""
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<p>an ordinary page</p>")

        def log_message(self, *args):
            pass

    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{server.server_address[1]}"
        server.shutdown()


def test_a_page_of_another_site_cannot_use_the_board(served, page, other_site):
    """The browser sends the page's Origin; the server closes the socket before anything is done.

    (Chromium itself now blocks a public site's socket to this machine, Local Network
    Access; a page served on this machine or the local network it lets through.)
    """
    sim = served("squareoff")
    page.goto(other_site)
    code, reason = page.evaluate("""(url) => new Promise((resolve) => {
        const ws = new WebSocket(url);
        ws.onopen = () => {
            ws.send(JSON.stringify({type: "take", piece: "black"}));
            ws.send(JSON.stringify({type: "click", loc: "p1"}));
        };
        ws.onmessage = (event) => resolve([0, "served: " + event.data.slice(0, 20)]);
        ws.onclose = (event) => resolve([event.code, event.reason]);
    })""", sim.url.replace("http://", "ws://") + "ws")
    assert (code, reason) == (4403, f"a page from {other_site!r} may not use this board: "
                                    "open the address gameboard printed")
    assert sim.call(lambda: dict(sim.session.mock.contents)) == {}


def test_a_refused_page_says_why_instead_of_reconnecting(served, page):
    """A page left open while the server restarted with a new token is refused for good."""
    sim = served("squareoff", token="s3cret")
    page.goto(sim.url + "?token=s3cret")
    page.wait_for_selector("#board svg")
    page.evaluate("history.replaceState(null, '', '/?token=old'); socket.close()")  # as if the token changed
    page.wait_for_function("document.querySelector('#connection').textContent === 'refused'")
    assert page.locator("#error").inner_text() == "a token is needed: open the address printed by gameboard"
