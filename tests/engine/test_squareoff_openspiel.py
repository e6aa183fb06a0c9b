"""Square Off against OpenSpiel's independent ``nine_mens_morris``, where the two agree (until a
player is down to three pieces; the mapping is ``engine/openspiel_morris.py``)."""

import random

import pytest

from engine.boards import load_board
from engine.games.squareoff import SquareOff
from engine.openspiel_morris import COLOUR_OF_PLAYER, capturing, flying, notation, openspiel_contents, point_map

pyspiel = pytest.importorskip("pyspiel")

GAMES = 40


def test_point_map_is_one_to_one_and_keeps_the_lines():
    spiel = pyspiel.load_game("nine_mens_morris").new_initial_state()
    ours = point_map(spiel)
    assert sorted(ours) == sorted(load_board("squareoff").points)
    assert ours[0] == "p22" and ours[23] == "p24", "OpenSpiel reads from the top-left corner"


def test_moves_captures_and_boards_agree_with_openspiel():
    game = pyspiel.load_game("nine_mens_morris")
    rng = random.Random(7)
    compared = 0
    for _ in range(GAMES):
        spiel = game.new_initial_state()
        ours_map = point_map(spiel)
        state = SquareOff(first_player="white").new_initial_state()
        while not spiel.is_terminal() and not flying(state):
            taking = capturing(spiel)
            expected = {notation(a, taking, ours_map) for a in spiel.legal_actions()}
            assert {str(m) for m in state.legal_moves} == expected, f"after {[str(m) for m in state.history]}"
            assert state.turn_piece() == COLOUR_OF_PLAYER[spiel.current_player()]
            assert state.contents() == openspiel_contents(spiel, ours_map)
            action = rng.choice(spiel.legal_actions())
            state.apply(notation(action, taking, ours_map))
            spiel.apply_action(action)
            compared += 1
    assert compared > GAMES * 30
