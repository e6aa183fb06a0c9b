"""The page's move list to step through and its record, in headless Chromium: a record imported from a file plays
on, a click on a move shows the position after it in place of the board while the game waits untouched, the
buttons step, and Export downloads the record."""

import random

from engine import new_game
from engine.record import parse_record, record_game, write_record
from tests.sim.browser import wait_for_history


def test_a_record_is_imported_stepped_through_and_exported(served, open_page, tmp_path):
    state = new_game("squareoff")
    start = state.clone()
    rng = random.Random(6)
    for _ in range(8):
        state.push(state.random_move(rng))
    text = write_record(record_game(start, state.history, seats=["human", "human"], date=0))
    moves = [str(move) for move in state.history]
    sim = served("squareoff")
    page = open_page(sim.url)

    page.set_input_files("#replay-file", files=[{"name": "game.txt", "mimeType": "text/plain",
                                                 "buffer": text.encode()}])
    wait_for_history(sim, 8)
    page.wait_for_function("document.querySelectorAll('#log li').length === 8")

    page.click("#log li:nth-child(2)")  # the position after move 2: the first two pieces, the second lit
    page.wait_for_selector("#replay-board svg")
    assert page.locator("#board").is_hidden()
    assert page.locator(f'#replay-board g[data-loc="{moves[0]}"] [data-piece]').count() == 1
    assert page.locator(f'#replay-board g[data-loc="{moves[1]}"] circle.led').count() == 1
    assert page.locator(f'#replay-board g[data-loc="{moves[2]}"] [data-piece]').count() == 0
    assert page.locator("#log li.replayed").inner_text().endswith(moves[1])
    assert "after move 2 of 8" in page.locator("#replay-status").inner_text()
    assert sim.call(lambda: len(sim.session.daemon.state.history)) == 8  # the game waits as it is

    page.click('#replay-tools button[aria-label="the move before"]')
    page.wait_for_function("document.querySelector('#replay-status').textContent.includes('after move 1 of 8')")
    page.click('#replay-tools button[aria-label="the game as it is now"]')
    page.wait_for_selector("#board svg", state="visible")
    assert page.locator("#replay-board").is_hidden() and page.locator("#log li.replayed").count() == 0

    with page.expect_download() as download:
        page.click("#replay-export")
    exported = parse_record(open(download.value.path()).read())
    assert exported.moves == tuple(moves) and exported.seats == ("human", "human")
    assert download.value.suggested_filename.startswith("squareoff-")
