"""Practising the calibration: the real walk on a simulated board, answered by a person through the page's actions."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from engine.boards import load_board
from engine.errors import GameboardError
from firmware_host.calibration.practice import PracticeSession
from firmware_host.calibration.walk import Settings
from firmware_host.web.practice_app import create_practice_app
from firmware_host.web.doorman import Doorman
from firmware_host.web.serve import Listener, PageServer
from tests.sim.browser import browser, centre, text  # noqa: F401 (the browser fixture)
from tests.sim.serving import serve_in_thread
from wiring.check import check_wiring
from wiring.files import read_wiring

FAST = Settings(samples=1, chase_pause=0.001)


class PageHands:
    """A person at the practice page: reads the question and the lit places, clicks places and keys."""

    def __init__(self, session: PracticeSession) -> None:
        self.session = session

    def act(self, view: dict) -> None:
        question = view["question"]
        for location in self.pieces_down():  # lift every piece first, as the walk asks for one at a time
            self.session.act({"type": "hand", "location": location})
        wanted = question["piece_class"]
        if wanted:  # analog sensors: take a piece of the class asked for
            piece = next(piece for piece, named in view["classes"].items() if named == wanted)
            self.session.act({"type": "piece", "piece": piece})
        if question["phase"] in ("sensors", "leds"):
            where = question["locations"] or view["lit"]  # the place named, or the one the light is over
            assert len(where) == 1, view
            self.session.act({"type": "hand", "location": where[0]})
        elif question["locations"]:  # the class step: a piece on each lit place
            for location in question["locations"]:
                self.session.act({"type": "hand", "location": location})
        key = {"chase": "y"}.get(question["phase"], "")
        self.session.act({"type": "key", "key": key})

    def pieces_down(self) -> list[str]:
        return sorted(self.session.mock.contents)


async def walk_through(session: PracticeSession, hands: PageHands, limit: int = 2000) -> dict:
    """Answer every question the page shows until the walk ends; the outcome the page shows then."""
    running = asyncio.ensure_future(session.run())
    asked = None
    for _ in range(limit):
        event = session.changed()
        if session.outcome:
            await running
            return session.view()["outcome"]
        if session.question is not None and session.question is not asked:  # the page shows a new question
            asked = session.question
            hands.act(session.view())
        await asyncio.wait_for(event.wait(), 5)
    raise AssertionError("the walk did not end")


def test_the_walk_is_practised_end_to_end_on_the_simulated_board(tmp_path: Path) -> None:
    """Square Off soldered in an order the walk does not know: every place asked, the piece put down by a click,
    each channel and LED found as soldered, and the file written passes the check."""
    board = load_board("squareoff")
    session = PracticeSession(board, tmp_path / "wiring.toml", seed=7, settings=FAST)
    assert '<g class="labels"' in session.view()["svg"]  # every place's id drawn, as the walk names them
    outcome = asyncio.run(walk_through(session, PageHands(session)))
    assert outcome == {"path": str(tmp_path / "wiring.toml"), "notes": [], "problems": [],
                       "channels_right": 24, "leds_right": 24, "places": 24}
    written = read_wiring(tmp_path / "wiring.toml").wiring
    assert written.channel_of == session.truth.channel_of
    assert written.leds == session.truth.leds
    assert check_wiring(written, board, lambda *path: 0) == []
    assert any(text.startswith("Wrote ") for text in session.told)


def test_hexover_with_linear_hall_sensors_is_practised_with_both_colours(tmp_path: Path) -> None:
    """Analog sensors: the walk asks for white (north) pieces place by place, then black (south) ones a handful
    at a time; the file it writes bands every channel for both and passes the check."""
    board = load_board("hexover")
    session = PracticeSession(board, tmp_path / "wiring.toml", settings=FAST, sensing="analog")
    assert session.view()["classes"] == {"white": "north", "black": "south"}
    outcome = asyncio.run(walk_through(session, PageHands(session)))
    assert (outcome["channels_right"], outcome["leds_right"], outcome["problems"]) == (61, 61, [])
    written = read_wiring(tmp_path / "wiring.toml").wiring
    assert written.sensing == "analog" and len(written.calibration) == 61
    assert check_wiring(written, board, lambda *path: 0) == []


def test_a_piece_forgotten_and_the_wrong_key_are_told(tmp_path: Path) -> None:
    async def scene() -> list[str]:
        session = PracticeSession(load_board("squareoff"), tmp_path / "w.toml", settings=FAST)
        running = asyncio.ensure_future(session.run())
        while session.question is None or session.question.phase != "empty":
            await asyncio.sleep(0.005)
        with pytest.raises(GameboardError, match="'y' is not a key offered now"):
            session.act({"type": "key", "key": "y"})
        with pytest.raises(GameboardError, match="'z9' is not a place of the squareoff board"):
            session.act({"type": "hand", "location": "z9"})
        session.act({"type": "key", "key": ""})
        while session.question is None or session.question.phase != "sensors":
            await asyncio.sleep(0.005)
        asked = session.question
        session.act({"type": "key", "key": ""})  # Enter with no piece down
        while session.question is not None and session.question is asked and len(session.told) < 1:
            await asyncio.sleep(0.005)
        session.act({"type": "key", "key": "q"})
        await running
        return [*session.told, session.outcome["stopped"]]

    told = asyncio.run(scene())
    assert told[0].startswith("No channel sees a piece. Check that the piece is on p1")
    assert told[-1].startswith("stopped; ")


@pytest.fixture
def practice_page(tmp_path):
    """A practice served on a free port, as ``gameboard calibrate --practice`` serves it."""
    listener = Listener("127.0.0.1", 0)

    def make():
        session = PracticeSession(load_board("squareoff"), tmp_path / "w.toml", seed=3, settings=FAST)
        return session, PageServer(create_practice_app(session, guard=listener.guard), Doorman(listener.socket))

    running = serve_in_thread(make)
    yield running.session, f"http://127.0.0.1:{listener.guard.port}/"
    running.stop()


def test_the_page_asks_the_person_puts_the_piece_the_walk_confirms(practice_page, browser) -> None:  # noqa: F811
    session, url = practice_page
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(url)
        page.wait_for_selector("#keys button")
        assert "Take every piece off the board" in text(page, "#question")
        page.keyboard.press("Enter")  # the terminal's key works on the page too
        page.wait_for_selector("#board [data-loc='p1'].asked")
        assert "Put a piece on p1" in text(page, "#question")
        page.mouse.click(*centre(page, "p1"))
        page.wait_for_selector("#board [data-loc='p1'][data-stack] .piece")  # the piece is down, drawn
        page.click("#keys button[data-key='']")
        channel = session.truth.channel_of["p1"]
        page.wait_for_function(f"() => document.getElementById('told').textContent.includes('p1 = channel {channel}')")
        page.wait_for_selector("#board [data-loc='p2'].asked")
        page.click("#keys button[data-key='q']")
        page.wait_for_selector("#outcome:not([hidden])")
        assert text(page, "#outcome").startswith("stopped;")
    finally:
        page.close()
