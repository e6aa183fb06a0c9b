"""The page's voice (static/speech.js): ticked, it says the moments the board's voice says, once each; unticked or
just opened, nothing.  The browser's speech is the audio boundary: its ``speak`` is recorded, not heard.
And the new-game menu's "How to play" link (static/play.js) to the chosen game's page for players, served with
its pictures."""

import time

from tests.sim.browser import click

#: Records what the page asks the browser to say (a headless Chromium has no voices to hear).
RECORD_SPEECH = """
window.said = [];
SpeechSynthesis.prototype.speak = function (utterance) { window.said.push(utterance.text); };
SpeechSynthesis.prototype.cancel = function () {};
"""


def said(page):
    return page.evaluate("window.said")


def test_ticked_the_page_says_each_moment_once_as_the_board_enters_it(served, page):
    sim = served("squareoff", seats=["human", "computer:easy"])
    page.add_init_script(RECORD_SPEECH)
    page.goto(sim.url)
    page.wait_for_selector("#board svg")
    page.wait_for_timeout(300)
    assert said(page) == [], "the moment shown when the page opens is not said"
    page.check("#speak")
    assert said(page) == ["black to move"], "ticked: where the game is"
    page.click('#tray button[data-piece="black"]')
    page.wait_for_selector('#hand [data-piece="black"]')
    click(page, "p1")
    page.wait_for_function("window.said.length >= 2", timeout=15000)
    computer = said(page)[1]
    assert computer.startswith("white (computer): put a white on p"), computer
    page.wait_for_timeout(600)  # the step to carry out blinks: it is not said again
    assert said(page) == ["black to move", computer]
    page.uncheck("#speak")
    target = computer.rsplit(" ", 1)[1]
    page.click('#tray button[data-piece="white"]')
    page.wait_for_selector('#hand [data-piece="white"]')
    click(page, target)
    page.wait_for_function("document.querySelector('#log').children.length >= 2", timeout=15000)
    page.wait_for_timeout(600)
    assert said(page) == ["black to move", computer], "unticked: silent"


def test_how_to_play_opens_the_chosen_games_page_with_its_pictures(served, page):
    sim = served("hexover")
    page.goto(sim.url)
    page.wait_for_selector("#board svg")
    link = page.locator("#how-to-play")
    assert link.inner_text() == "How to play Hexover" and link.get_attribute("href") == "/static/play/hexover"
    page.select_option("#game-name", "squareoff")
    assert link.inner_text() == "How to play Square Off"
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.locator("h1").inner_text() == "How to play Square Off"
    sizes = rules.evaluate("[...document.images].map((img) => [img.getAttribute('src'), img.naturalWidth])")
    assert [src for src, _ in sizes] == ["squareoff-places.svg", "squareoff-row.svg", "squareoff-capture.svg"]
    assert all(width > 0 for _, width in sizes), sizes
    missing = rules.goto(sim.url + "static/play/chess")
    assert missing.status == 404 and "docs/play/GAME.md" in rules.locator("body").inner_text()


def test_a_script_that_loads_late_still_gets_the_first_view(served, page):
    """The page connects once all its scripts have run: a first view that came while play.js still loaded
    reached no listener of it, and the link stayed empty until the next change."""
    sim = served("hexover")

    def late(route):
        time.sleep(1.0)
        route.continue_()

    page.route("**/static/play.js", late)
    page.goto(sim.url)
    page.wait_for_selector("#board svg")
    page.wait_for_timeout(300)
    assert page.locator("#how-to-play").inner_text() == "How to play Hexover"
