"""The simulator page in headless Chromium: an opening turn of Over-Pass played by clicks, the page on a
phone played by touch, zoom, the new-game form, stacks, flips, the legend and the faults banner."""

import http.server
import threading
import time

import pytest

from tests.sim.browser import (drawn_box, centre, click, tap, touch_screen, pinch, drawn_size, text, led, wait_for_history, wait_for)


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


@pytest.mark.parametrize("width", [1280, 390])
def test_the_board_fills_its_part_of_the_screen_and_a_placement_is_played_by_touch(served, open_page, width):
    sim = served("squareoff")
    page = open_page(sim.url, width)
    board, hands = page.locator("#board svg").bounding_box(), page.locator("#hands").bounding_box()
    if width == 390:  # the whole width, the panels below it
        assert board["x"] == 0 and board["width"] == 390
        assert hands["y"] >= board["y"] + board["height"]
    else:  # as tall as the window allows, the panels beside it
        assert board["width"] >= 700 and board["y"] + board["height"] <= 900
        assert hands["x"] >= board["x"] + board["width"]
    wait_for(sim, lambda s: s["status"] == "ready")

    page.locator('#tray button[data-piece="black"]').tap()
    page.wait_for_selector('#hand [data-piece="black"]')
    tap(page, "p1")
    wait_for_history(sim, 1)
    assert [str(move) for move in sim.session.daemon.state.history] == ["p1"]
    page.wait_for_function("document.querySelector('#log').textContent === '1.p1'")


def test_a_pinch_zooms_the_board_and_a_tap_still_lands_on_its_place(served, open_page):
    sim = served("overpass", {"players": 2}, seed=7)
    page = open_page(sim.url, 390)
    wait_for(sim, lambda s: s["status"] == "ready")
    whole = drawn_size(page, "center")
    pinch(page, 40, 240)
    assert drawn_size(page, "center") > 4 * whole

    mover = sim.session.daemon.state.turn_piece()
    page.locator(f'#tray button[data-piece="{mover}"]').tap()
    page.wait_for_selector(f'#hand [data-piece="{mover}"]')
    tap(page, "center")  # the Center Square, between its neighbours at every zoom
    wait_for_history(sim, 1)
    assert str(sim.session.daemon.state.history[0]) == "enter"
    assert drawn_size(page, "center") > 4 * whole, "a new view keeps the zoom"

    page.locator("#zoom-fit").tap()
    assert drawn_size(page, "center") == pytest.approx(whole)


def test_the_wheel_and_the_buttons_zoom_a_drag_pans_and_a_click_still_lands_on_its_place(served, page):
    sim = served("squareoff")
    page.goto(sim.url)
    page.wait_for_selector("#board svg")
    whole = drawn_size(page, "p1")
    page.mouse.move(*centre(page, "p1"))
    page.mouse.wheel(0, -400)
    page.wait_for_function(f"document.querySelector('#board [data-loc=p1]').getBoundingClientRect().width > "
                           f"{1.5 * whole}")
    page.click("#zoom-in")
    zoomed = drawn_size(page, "p1")
    assert zoomed > 3 * whole

    before = centre(page, "p1")
    page.mouse.move(*before)
    page.mouse.down()
    page.mouse.move(before[0] + 60, before[1] + 40, steps=5)
    page.mouse.up()
    after = centre(page, "p1")
    assert after == pytest.approx((before[0] + 60, before[1] + 40), abs=2), "the board follows the drag"
    assert text(page, "#error") == "", "a drag is no click"

    page.click('#tray button[data-piece="black"]')
    page.wait_for_selector('#hand [data-piece="black"]')
    click(page, "p1")
    wait_for_history(sim, 1)
    assert [str(move) for move in sim.session.daemon.state.history] == ["p1"]


def test_the_new_game_form_has_the_chosen_games_options_as_fields(served, page):
    sim = served("squareoff")
    page.goto(sim.url)
    page.wait_for_selector("#game-fields [name]")
    fields = "els => els.map(el => [el.name, el.type])"
    assert page.locator("#game-fields [name]").evaluate_all(fields) == [
        ["variant", "select-one"], ["first_player", "select-one"]]
    assert page.locator("#new-game input[placeholder]").count() == 0, "no JSON box"

    page.select_option("#game-name", "pawns-crossing")
    assert page.locator("#game-fields [name]").evaluate_all(fields) == [
        ["players", "select-one"], ["seed", "number"], ["fair_colours", "checkbox"]]
    assert page.locator("#game-fields label").first.get_attribute("title") == "number of players"
    page.select_option('[name="players"]', label="3")
    page.fill('[name="seed"]', "5")
    page.click('#new-game button[type="submit"]')
    page.wait_for_function("document.querySelector('#title').textContent === 'Pawns Crossing'")
    assert sim.call(lambda: sim.session.daemon.state.game.options) == {"players": 3, "seed": 5, "fair_colours": False}

    page.wait_for_function("document.querySelector('[name=seed]').placeholder === 'a fresh deal (this game: 5)'")
    assert page.input_value('[name="seed"]') == "", "left empty, a new game is dealt afresh"
    page.click('#new-game button[type="submit"]')
    page.wait_for_function("document.querySelector('[name=seed]').placeholder !== 'a fresh deal (this game: 5)'")
    assert sim.call(lambda: sim.session.daemon.state.game.options["seed"]) != 5

    page.fill('[name="seed"]', "1.5")
    page.click('#new-game button[type="submit"]')
    page.wait_for_function("document.querySelector('#error').textContent !== ''")
    assert text(page, "#error") == "pawns-crossing: option seed=1.5 is of the wrong kind: its default is 0"


def test_touching_a_stack_says_what_a_tap_does_and_sliding_away_does_nothing(served, open_page):
    sim = served("pawns-crossing", {"seed": 0})  # the deal that puts red's three tokens on t4.1
    page = open_page(sim.url, 390)
    stack, touch = centre(page, "t4.1"), touch_screen(page)
    touch("touchStart", stack)
    assert text(page, "#next") == "t4.1: lifts the red piece off this stack of 3"
    touch("touchMove", (stack[0] + 40, stack[1]))
    touch("touchEnd")
    assert sim.call(lambda: (sim.session.mock.contents["t4.1"], sim.session.hand)) == ("red+red+red", [])

    tap(page, "t4.1")
    page.wait_for_selector('#hand [data-piece="red"]')
    assert text(page, "#next").startswith("a click on an empty place puts the red piece there, on a tile")
    touch("touchStart", stack)
    assert text(page, "#next") == "t4.1: puts the red piece back on this stack of 2"
    touch("touchEnd")
    page.wait_for_function("document.querySelector('#hand').children.length === 0")
    assert sim.call(lambda: sim.session.mock.contents["t4.1"]) == "red+red+red"


def test_flip_mode_turns_a_piece_over_by_touch(served, open_page):
    sim = served("hexover")
    page = open_page(sim.url, 390)
    assert sim.call(lambda: sim.session.mock.contents["h1"]) == "black"
    page.locator("#flip-mode").tap()
    assert page.locator("#flip-mode").get_attribute("aria-pressed") == "true"
    assert text(page, "#next") == "flip mode: a tap turns a piece over"
    tap(page, "h1")
    page.wait_for_selector('#board g[data-loc="h1"] [data-piece="white"]')
    page.locator("#flip-mode").tap()
    tap(page, "h1")
    page.wait_for_selector('#hand [data-piece="white"]')


def test_the_legend_the_faults_banner_the_hint_button_and_long_move_lists(served, page):
    sim = served("squareoff")
    page.goto(sim.url)
    page.wait_for_selector("#board svg")
    legend = sim.call(lambda: sim.session.view()["legend"])
    page.click("#legend-panel summary")
    assert page.locator("#legend li").count() == len(legend)
    blinking = [light["name"] for light in legend if light["blinks"]]
    assert page.locator("#legend li:has(.swatch.blinks)").evaluate_all("els => els.map(el => el.dataset.light)") \
        == blinking
    assert all(item.endswith("(blinks)") for item in page.locator("#legend li:has(.blinks)").all_inner_texts())
    assert text(page, 'button[data-button="hint"]') == "Hint"

    assert page.locator("#faults").is_hidden()
    sim.call(sim.session.mock.unplug_sensors)
    page.wait_for_selector("#faults", state="visible")
    assert text(page, "#faults") == "the board cannot see: the mock board's sensor cable is unplugged"
    sim.call(sim.session.mock.repair_sensors)
    page.wait_for_selector("#faults", state="hidden")

    # The page's own drawing of a game 120 plies long: the numbers of three digits are shown whole.
    page.evaluate("render({...current, log: Array.from({length: 120}, (_, i) => 'p' + (i % 24 + 1))})")
    number = page.locator("#log li:last-child .ply")
    assert number.inner_text() == "120."
    assert number.bounding_box()["x"] >= page.locator("#log").bounding_box()["x"]
    assert number.evaluate("el => el.scrollWidth <= el.clientWidth")


def test_a_game_against_the_computer_from_the_form_its_move_shown_and_carried_out_by_auto(served, page):
    sim = served("squareoff")
    page.goto(sim.url)
    page.wait_for_selector("#seat-fields select")
    assert page.locator("#seat-fields select").count() == 2
    page.select_option("#game-name", "overpass")
    assert page.locator("#seat-fields select").count() == 4, "as many seats as Over-Pass's players option"
    page.select_option('[name="players"]', label="2")
    assert page.locator("#seat-fields select").count() == 2
    page.select_option("#game-name", "squareoff")
    page.select_option('[name="seat-0"]', "computer:easy")
    page.click('#new-game button[type="submit"]')
    shown = wait_for(sim, lambda s: s["carry"] is not None)
    assert sim.call(lambda: [str(seat) for seat in sim.session.daemon.seats]) == ["computer:easy", "human"]
    target = shown["carry"]["put"][0]
    page.wait_for_function("document.querySelector('#status').textContent.includes('(computer)')")
    assert f"black (computer): {target}" in text(page, "#status")
    page.wait_for_function(f"""document.querySelector('#board g[data-loc="{target}"] circle.led') !== null""")
    page.check("#auto")
    wait_for_history(sim, 1)
    assert sim.call(lambda: dict(sim.session.mock.contents)) == {target: "black"}
