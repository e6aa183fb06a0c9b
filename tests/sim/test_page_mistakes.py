"""The mistakes the page invited (issue 36), each played in Chromium as a person makes it: a new game thrown
away in one click, Hexover's Confirm greyed while its flips wait, a right-click recolouring a piece of a game
whose pieces never flip, a capture-only status offering a move, a phone's Box below the screen, a legend of
lights the game never shows."""

import time

import pytest

from engine.registry import available_games
from tests.sim.browser import centre, click, led, text, wait_for, wait_for_history

#: A Square Off game that formed a square: white may only take a black piece off (every legal move a capture).
SQUARE_FORMED = ["p8", "p20", "p19", "p5", "p14", "p21", "p3", "p1", "p24", "p9", "p15", "p7", "p10", "p17"]
#: How long a wait for what the fix brings may take before the test fails (milliseconds).
SHORT = 4000


def resume_after(sim, moves):
    """The simulator taken up again on its journal once ``moves`` are played, as after a restart."""
    def play():
        session = sim.session
        game = session.daemon.game
        for move in moves:
            game.push(game.state.parse_move(move))
        session.start(game.state.game.name, game.state.game.options, resume=True)
    sim.call(play)


def place_from_box(page, sim, piece, location, plies):
    page.click(f'#tray button[data-piece="{piece}"]')
    page.wait_for_selector(f'#hand [data-piece="{piece}"]')
    click(page, location)
    wait_for_history(sim, plies)


def test_new_game_asks_before_throwing_the_game_away(served, page):
    sim = served("squareoff")
    page.goto(sim.url)
    wait_for(sim, lambda s: s["status"] == "ready")
    place_from_box(page, sim, "black", "p1", 1)
    page.wait_for_function("document.querySelector('#log').textContent === '1.p1'")

    page.click('#buttons button[data-button="new_game"]')
    page.wait_for_selector("#ask[open]", timeout=SHORT)
    assert text(page, "#ask-question") == "Throw away the game under way (1 move)? Undo cannot bring it back."
    page.click("#ask-no")
    page.click('#new-game button[type="submit"]')  # the form's Start asks too
    page.wait_for_selector("#ask[open]")
    page.click("#ask-no")
    time.sleep(0.3)
    assert sim.call(lambda: [str(move) for move in sim.session.daemon.state.history]) == ["p1"], "kept"

    page.click('#buttons button[data-button="new_game"]')
    page.click("#ask-yes")
    wait_for(sim, lambda s: s["history"] == [])
    page.wait_for_function("document.querySelector('#log').textContent === ''")


def test_hexover_confirm_is_offered_while_flips_wait_and_ends_their_reminder(served, page):
    sim = served("hexover")
    page.goto(sim.url)
    wait_for(sim, lambda s: s["status"] == "ready")
    state = sim.session.daemon.state
    drop = sim.call(lambda: next(str(m) for m in state.legal_moves if len(state.footprint(m).changes) > 1))
    place_from_box(page, sim, "white", drop, 1)
    flips = [todo["location"] for todo in wait_for(sim, lambda s: s["todo"])["todo"]]
    page.wait_for_function("document.querySelector('#status').textContent.includes('(confirm when done)')")
    page.wait_for_selector('#buttons button[data-button="confirm"]:not([disabled])', timeout=SHORT)

    for location in flips:  # the person turns them over, as the status says (the sensors cannot see it)
        page.mouse.click(*centre(page, location), button="right")
    page.wait_for_function(f"document.querySelectorAll('#board [data-loc] [data-piece=\"white\"]').length "
                           f"=== {len(flips) + 1 + 3}")  # the three whites of the opening, the drop and the flips
    page.click('#buttons button[data-button="confirm"]')
    page.wait_for_function("!document.querySelector('#status').textContent.includes('confirm when done')")
    assert text(page, "#status").startswith("black to move")
    seen = []
    for _ in range(5):  # over a whole blink: the reminder no longer blinks through black's turn
        seen.append(tuple(led(page, location) for location in flips))
        time.sleep(0.2)
    assert len(set(seen)) == 1, f"still blinking: {seen}"  # the last move's steady light


def test_a_right_click_turns_a_piece_over_only_where_the_game_flips(served, page):
    sim = served("squareoff")
    page.goto(sim.url)
    wait_for(sim, lambda s: s["status"] == "ready")
    place_from_box(page, sim, "black", "p1", 1)
    page.mouse.click(*centre(page, "p1"), button="right")
    page.wait_for_function("document.querySelector('#error').textContent !== ''", timeout=SHORT)
    assert sim.call(lambda: sim.session.mock.contents["p1"]) == "black"
    assert text(page, "#error") == ("Square Off's pieces are never turned over: lift a piece to move it, take one "
                                    "from the box to add one")
    assert page.locator("#flip-mode").is_hidden(), "no flip mode in a game whose pieces never turn over"
    assert "right-click" not in text(page, "#board-help")


def test_the_capture_only_status_offers_only_captures(served, page):
    sim = served("squareoff")
    resume_after(sim, SQUARE_FORMED)
    page.goto(sim.url)
    wait_for(sim, lambda s: s["status"] == "ready")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('white to move')")
    assert text(page, "#status") == "white to move: take off a piece lit orange"


def test_on_a_phone_the_status_the_board_and_the_box_share_the_screen_in_every_game(served, open_page):
    sim = served("hexover")
    page = open_page(sim.url, 390)
    wait_for(sim, lambda s: s["status"] == "ready")

    def on_screen(selector):
        box = page.locator(selector).bounding_box()
        return 0 <= box["y"] and box["y"] + box["height"] <= 844

    def tap_unscrolled(selector):
        """A tap where the thing is now: the page is not scrolled to it first."""
        assert page.evaluate("scrollY") == 0 and on_screen(selector), f"{selector} needs a scroll"
        box = page.locator(selector).bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    state = sim.session.daemon.state
    drop = sim.call(lambda: str(next(iter(state.legal_moves))))
    tap_unscrolled('#tray button[data-piece="white"]')
    page.wait_for_selector('#hand [data-piece="white"]')
    tap_unscrolled(f'#board g[data-loc="{drop}"]')
    wait_for_history(sim, 1)

    for game in available_games():  # Over-Pass's board is the tallest
        sim.call(lambda: sim.session.start(game, {}, resume=False))
        page.wait_for_function(f"document.body.dataset.game === '{game}'")
        page.wait_for_function("document.querySelector('#status').textContent !== ''")
        assert [on_screen(part) for part in ("#status", "#buttons", "#board svg", "#tray", "#drop")] == [True] * 5, game


@pytest.mark.parametrize("game, absent, present", [
    ("hexover", {"removal", "todo_put", "todo_remove", "todo_restack", "carry_from", "carry_path",
                 "hint_path", "candidate", "selected", "dice_first", "dice_second", "fault_remote"},
     {"turn_white", "turn_black", "destination", "lifted", "last_move", "todo_flip", "hint", "fix_to"}),
])
def test_a_games_legend_lists_only_the_lights_it_can_show(served, page, game, absent, present):
    sim = served(game)
    page.goto(sim.url)
    page.click("#legend-panel summary")
    page.wait_for_selector("#legend li")
    wait_for(sim, lambda snapshot: sim.session.daemon.lights.legend_known)  # worked out off the loop, then sent
    page.wait_for_function(f"!document.querySelector('#legend li[data-light=\"{sorted(absent)[0]}\"]')")
    shown = set(page.locator("#legend li").evaluate_all("els => els.map(el => el.dataset.light)"))
    assert shown >= present and not shown & absent, sorted(shown & absent)
