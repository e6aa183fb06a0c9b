"""Every game played on the simulator by a person who has never read the rules (issue 13's "done when").

``LedPerson`` sees the LEDs (each colour by the legend, and which blink), reads the
status line, and has hands, the box and the buttons; it never asks the engine what is
legal.  It is lost, and the test fails, whenever the lights and the status leave it
nothing to do.  Every game is played to its end but Groups-of-Three, which random
choices make run for thousands of moves: it is played for its first ones
(``bench/guided.py`` plays it to the end).  Either way the board the person leaves is
the game's board: the LEDs guided every flip and every capture, and every token the
sensors could not tell from another was confirmed where the status named it.

A random two-player Pawns Crossing runs for over a thousand moves (``bench/guided.py``
plays eight to their end: 1,159 to 2,994; none of 44 deals and seeds ended within 800);
this one (three players, deal 13, the person's seed 0) ends after 695, a few seconds.
"""

from __future__ import annotations

import pytest

from engine.registry import available_games
from firmware_host.sim import SimSession
from firmware_host.sim_person import LedPerson
from hal.clock import ManualClock

#: Moves played of the games random choices do not finish quickly; the others are played to their end.
OPENINGS = {"groups-of-three": 300}
#: The options and seed of a short whole game where the defaults make a long one.
SHORT = {"pawns-crossing": ({"players": 3, "seed": 13}, 0)}
LIMIT = 5000  # moves: a game still going after them is lost


@pytest.mark.parametrize("name", list(available_games()))
def test_a_person_plays_from_the_leds_and_the_status_alone(tmp_path, name) -> None:
    options, seed = SHORT.get(name, ({}, 1))
    clock = ManualClock()
    session = SimSession(name, options, journal=tmp_path / "journal.sqlite3", clock=clock, seed=seed)
    person = LedPerson(session, clock, seed=seed)
    moves = person.play(OPENINGS.get(name, LIMIT))
    state = session.daemon.state
    if name in OPENINGS:
        assert moves >= OPENINGS[name]
    else:
        assert state.is_terminal(), f"{name} not over after {moves} moves"
    assert {loc: piece for loc, piece in state.contents().items() if piece} == \
        {loc: piece for loc, piece in session.mock.contents.items() if piece}, "the board is the game's"
