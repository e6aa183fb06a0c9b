"""The board as the page draws it, in headless Chromium: lights blink in the page (no view is sent for a blink),
lights in the colours the legend shows, arrows for the moves, the places' names on request and Hexover's
winning path."""

import random

from engine import new_game
from tests.sim.browser import led, text, wait_for, wait_for_history

#: How long the page is watched while a light blinks: five blinks at the default 400 ms.
BLINKS_S = 2.0


def received(page):
    """From now on, the page counts the characters the server sends it (``page.evaluate("sent")``) and the
    messages that carry the board's drawing (``drawings``)."""
    page.evaluate("""window.sent = 0; window.drawings = 0; socket.addEventListener('message', (event) => {
        sent += event.data.length; drawings += 'drawing' in (JSON.parse(event.data).view || {}); })""")


def test_a_blinking_light_blinks_in_the_page_and_the_board_sends_nothing_meanwhile(served, page):
    sim = served("squareoff", seats=["computer:easy", "human"])
    page.goto(sim.url)
    shown = wait_for(sim, lambda s: s["carry"] is not None and not s["thinking"])
    target = shown["carry"]["put"][0]
    ring = f'#board g[data-loc="{target}"] circle.led'
    page.wait_for_selector(ring)
    received(page)
    page.wait_for_timeout(BLINKS_S * 1000)
    assert page.evaluate("sent") < 500, "a blink's phase is no change of the view"
    assert page.locator(ring).evaluate("el => getComputedStyle(el).animationName") == "phase1"
    assert page.locator(ring).evaluate("el => getComputedStyle(el).animationDuration") == "0.8s", \
        "on 400 ms, off 400 ms, as the LEDs"

    # A change sends what changed: the places whose pieces or lights changed, not the drawing of the board.
    whole = page.evaluate("JSON.stringify(current).length")
    received(page)
    page.check("#auto")
    wait_for_history(sim, 1)
    page.wait_for_selector(f'#board g[data-loc="{target}"] [data-piece="black"]')
    assert page.evaluate("drawings") == 0
    assert 0 < page.evaluate("sent") < whole, "the move, from the auto switch to the next turn, in less than a view"

    # A page that reconnects gets the whole view again.
    page.evaluate("socket.close()")
    page.wait_for_function("document.querySelector('#connection').textContent === 'live'")
    page.wait_for_selector(f'#board g[data-loc="{target}"] [data-piece="black"]')
    assert page.locator("#board [data-spot]").count() == 24


def test_the_whose_turn_glow_is_drawn_in_the_colour_the_legend_shows(served, page):
    """The glow was drawn as the strips' dimmed PWM value, rgb(18,18,31) round black pieces: almost black."""
    sim = served("hexover")
    page.goto(sim.url)
    shown = wait_for(sim, lambda s: s["status"] == "ready")
    glow = f"turn_{shown['turn_piece']}"
    glowing = next(location for location, piece in shown["expected"].items()  # a piece of the mover's, lit
                   if piece == shown["turn_piece"] and shown["leds"].get(location, "#000000") != "#000000")
    page.wait_for_selector(f'#board g[data-loc="{glowing}"] circle.led')
    page.click("#legend-panel summary")
    swatch = page.locator(f'#legend li[data-light="{glow}"] .swatch').evaluate("el => el.style.background")
    assert led(page, glowing) == swatch


def test_arrows_show_the_computers_move_the_last_move_and_the_hint(served, page):
    sim = served("crooked-jumps", seats=["computer:easy"])
    page.goto(sim.url)
    carry = wait_for(sim, lambda s: s["carry"] is not None and not s["thinking"])["carry"]
    through = f'{carry["lift"][0]} {carry["put"][0]}'
    page.wait_for_selector(f'#board g.arrow-carry[data-through="{through}"]')
    page.check("#auto")
    wait_for_history(sim, 1)
    page.wait_for_selector(f'#board g.arrow-last_move[data-through="{through}"]')

    hinted = served("crooked-jumps")
    page.goto(hinted.url)
    wait_for(hinted, lambda s: s["status"] == "ready")
    page.click('#buttons button[data-button="hint"]')
    hint = wait_for(hinted, lambda s: s["carry"] is not None)["carry"]
    page.wait_for_selector(f'#board g.arrow-hint[data-through="{hint["lift"][0]} {hint["put"][0]}"]')
    assert page.locator("#board g.arrow-carry").count() == 0


def test_the_places_names_the_status_uses_are_drawn_on_request(served, page):
    sim = served("squareoff", seats=["computer:easy", "human"])
    page.goto(sim.url)
    target = wait_for(sim, lambda s: s["carry"] is not None)["carry"]["put"][0]
    page.wait_for_function("document.querySelector('#status').textContent.includes('(computer)')")
    assert target in text(page, "#status")
    name = page.locator("#board .labels text", has_text=target).filter(has_text=f"{target}").first
    assert not name.is_visible()
    page.click("#names")
    assert name.is_visible() and name.text_content() == target
    page.click("#names")
    assert not name.is_visible()


def a_game_won_by_a_path(seed=0):
    """Hexover moves (notation) of a random game that ends with a winning path."""
    rng = random.Random(seed)
    while True:
        state = new_game("hexover")
        while not state.is_terminal():
            state.apply(state.random_move(rng))
        if "winning path" in state.outcome().reason:
            return [str(move) for move in state.history], state.outcome()


def test_the_winning_hexover_path_is_marked_at_the_end(served, page):
    moves, outcome = a_game_won_by_a_path()
    sim = served("hexover")

    def all_but_the_last_move():
        session = sim.session
        for move in moves[:-1]:
            session.daemon.game.push(session.daemon.state.parse_move(move))
        session.start("hexover", {}, resume=True)  # the board as the journal left it

    sim.call(all_but_the_last_move)
    page.goto(sim.url)
    wait_for(sim, lambda s: s["status"] == "ready" and len(s["history"]) == len(moves) - 1)
    assert page.locator("#board g.line").count() == 0
    last = sim.call(lambda: sim.session.daemon.state.parse_move(moves[-1]))
    sim.call(lambda: [sim.session.mock.place(change.location, change.after)
                      for change in sim.session.daemon.state.footprint(last).changes if change.before is None])
    wait_for(sim, lambda s: s["outcome"] is not None)
    line = page.wait_for_selector("#board g.line polyline", state="attached")
    drawn = [tuple(float(n) for n in point.split(",")) for point in line.get_attribute("points").split()]
    centres = [tuple(float(page.locator(f'#board g[data-loc="{cell}"] circle.piece').get_attribute(axis))
                     for axis in ("cx", "cy")) for cell in outcome.line]
    assert drawn == centres
