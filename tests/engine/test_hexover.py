"""Hexover's rules, sentence by sentence (see the Hexover table in docs/rules.md)."""

import json
from pathlib import Path

import pytest

from engine import PositionError, new_game
from engine.boards import load_board
from engine.games.hexover import Hexover

DATA = Path(__file__).parents[1] / "data" / "hexover"
BOARD = load_board("hexover")
CORNERS = [(4, 0), (0, 4), (-4, 4), (-4, 0), (0, -4), (4, -4)]


def c(q: int, r: int) -> str:
    """A cell by axial coordinates (see engine/boards/hexover.json)."""
    return BOARD.cell_at[(q, r)]


def setup(white=(), black=(), to_move="white"):
    """A state from the cells of each colour, given by axial coordinates."""
    board = {c(*a): "white" for a in white} | {c(*a): "black" for a in black}
    return Hexover().state_from_position({"board": board, "to_move": to_move})


def legal(state) -> set[str]:
    return {str(m) for m in state.legal_moves}


def changes(state, move: str) -> set[tuple]:
    return {(ch.location, ch.before, ch.after) for ch in state.footprint(state.parse_move(move)).changes}


def test_game_starts_from_figure_3_and_white_plays_first():
    state = new_game("hexover")
    assert {cell: colour for cell, colour in state.contents().items() if colour} == BOARD.setup
    assert state.turn_piece() == "white" and state.current_player == 0


def test_figures_4_to_6_white_outflanks_and_flips_two_disks():
    record = json.loads((DATA / "figures-4-6.json").read_text())
    state = Hexover().state_from_position(record["figure_4"])
    assert state.position() == new_game("hexover").position(), "Figure 4 is the Figure 3 setup"
    move = record["figure_5_move"]
    assert move in legal(state)
    assert changes(state, move) == {tuple(change) for change in record["footprint"]}
    state.apply(move)
    assert state.position() == Hexover().state_from_position(record["figure_6"]).position()


def test_a_move_must_outflank():
    state = setup(white=[(0, 0)], black=[(1, 0), (0, 1)])
    assert legal(state) == {c(2, 0), c(0, 2)}


def test_outflanking_needs_an_unbroken_run_closed_by_ones_own_disk():
    state = setup(white=[(0, 0)], black=[(1, 0), (3, 0)])
    assert c(4, 0) not in legal(state), "(2, 0) is a gap between (3, 0) and the white disk"
    assert changes(state, c(2, 0)) == {(c(2, 0), None, "white"), (c(1, 0), "black", "white")}, (
        "(3, 0) runs to the edge with no white disk behind it: it stays")


def test_one_move_flips_in_every_direction_it_outflanks():
    state = setup(white=[(-2, 0), (0, 2), (3, 0)], black=[(-1, 0), (0, 1), (1, 0)])
    assert changes(state, c(0, 0)) == {(c(0, 0), None, "white"), (c(-1, 0), "black", "white"),
                                       (c(0, 1), "black", "white")}, "(1, 0) is not closed off: (2, 0) is empty"
    state = setup(white=[(-2, 0), (0, 2), (2, 0)], black=[(-1, 0), (0, 1), (1, 0)])
    assert len(state.footprint(state.parse_move(c(0, 0))).changes) == 4


def test_red_cells_take_disks_that_flip_and_outflank():
    assert {c(1, 1), c(2, 1)} <= set(BOARD.red)
    state = setup(white=[(0, 1)], black=[(1, 1), (2, 1)])
    assert changes(state, c(3, 1)) == {(c(3, 1), None, "white"), (c(1, 1), "black", "white"),
                                       (c(2, 1), "black", "white")}
    state = setup(white=[(3, 1)], black=[(2, 1)])
    assert changes(state, c(1, 1)) == {(c(1, 1), None, "white"), (c(2, 1), "black", "white")}


def test_red_cells_never_count_for_a_winning_row():
    line_through_red = [(-1, 1), (0, 1), (1, 1), (2, 1), (3, 1)]
    state = setup(white=line_through_red, black=[(0, 0)], to_move="black")
    assert state.outcome() is None and legal(state)
    assert setup(white=[(q, 0) for q in range(5)], black=[(0, 1)]).outcome().winner == 0


def test_completing_a_winning_path_wins():
    state = setup(white=[(0, 0), (1, 0), (2, 0), (3, 0), (2, 2)], black=[(3, 1)])
    state.apply(c(4, 0))
    assert state.is_terminal() and state.outcome().winner == 0
    assert state.outcome().reason == "white completed a winning path"


def test_a_flip_can_complete_the_winning_path():
    state = setup(white=[(0, 0), (1, 0), (3, 0), (4, 0), (2, -1)], black=[(2, 0), (-3, 1)])
    state.apply(c(2, 1))
    assert state.contents()[c(2, 0)] == "white" and state.outcome().winner == 0


def test_a_player_without_a_move_passes():
    # Black everywhere but white corners (breaking every path), white (2, 1) and the empty (1, 1).
    board = dict.fromkeys(BOARD.cells, "black") | {c(*a): "white" for a in [*CORNERS, (2, 1)]} | {c(1, 1): None}
    state = Hexover().state_from_position({"board": board, "to_move": "white"})
    assert legal(state) == {"pass"}
    move = state.parse_move("pass")
    assert state.footprint(move).changes == () and move.button == "end_turn"
    state.apply(move)
    assert state.turn_piece() == "black" and legal(state) == {c(1, 1)}
    state.apply(c(1, 1))
    assert state.is_terminal() and state.outcome().winner == 1
    assert state.outcome().reason == "neither can move: white 6, black 55"


def test_when_neither_can_move_most_disks_wins():
    state = setup(white=[(0, 0), (-3, 0)], black=[(3, 0)])
    assert state.is_terminal() and state.outcome().winner == 0
    assert state.outcome().reason == "neither can move: white 2, black 1"


def test_when_neither_can_move_equal_counts_draw():
    outcome = setup(white=[(0, 0)], black=[(3, 0)]).outcome()
    assert outcome.winners == () and outcome.returns == (0.0, 0.0)


@pytest.mark.parametrize("position, message", [
    ({"board": {"h62": "white"}, "to_move": "white"}, "'h62' is not a cell"),
    ({"board": {"h1": "red"}, "to_move": "white"}, "'red' is not a colour"),
    ({"board": {}, "to_move": "blue"}, "'blue' is not a colour"),
    ({"board": {c(q, 0): "white" for q in range(5)} | {c(q, -4): "black" for q in range(5)}, "to_move": "white"},
     "both colours hold a complete"),
])
def test_positions_that_break_the_rules_are_refused(position, message):
    with pytest.raises(PositionError, match=message):
        Hexover().state_from_position(position)
