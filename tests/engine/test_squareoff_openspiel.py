"""Square Off against OpenSpiel's independent ``nine_mens_morris``, where the two agree.

Both play nine pieces each on the 24-point board, place then slide, capture after a
mill (any piece when every opposing piece stands in one) and end at two pieces.  They
part where a player is down to three pieces: OpenSpiel lets them fly, Square Off does
not, so each game is compared until then.  OpenSpiel's points are mapped to ours by
where they sit in its text diagram, not by a hand-written table.
"""

import random

import pytest

from engine.boards import load_board
from engine.games.squareoff import SquareOff

pyspiel = pytest.importorskip("pyspiel")

GAMES = 40
NUM_POINTS = 24
#: OpenSpiel's players: 0 places first with "W", 1 with "B".
COLOUR_OF_PLAYER = ("white", "black")
SYMBOL = {"W": "white", "B": "black", ".": None}


def diagram(state) -> list[str]:
    """The board rows of OpenSpiel's text picture (the lines before the first blank one)."""
    return str(state).split("\n\n")[0].split("\n")


def openspiel_points(state) -> list[tuple[int, int]]:
    """(row, column) of OpenSpiel's points 0..23 in its diagram, in reading order."""
    cells = [(r, c) for r, line in enumerate(diagram(state)) for c, ch in enumerate(line) if ch in SYMBOL]
    assert len(cells) == NUM_POINTS
    return cells


def point_map(state) -> list[str]:
    """Our point id for each OpenSpiel point: both boards are the same 7x7 lattice of places."""
    cells = openspiel_points(state)
    rows = sorted({r for r, _ in cells})
    cols = sorted({c for _, c in cells})
    board = load_board("squareoff")
    xs = sorted({board.xy(p)[0] for p in board.points})
    ys = sorted({board.xy(p)[1] for p in board.points}, reverse=True)
    return [board.point_at((xs[cols.index(c)], ys[rows.index(r)])) for r, c in cells]


def notation(action: int, capturing: bool, ours: list[str]) -> str:
    if action < NUM_POINTS:
        return f"x{ours[action]}" if capturing else ours[action]
    origin, target = divmod(action - NUM_POINTS, NUM_POINTS)
    return f"{ours[origin]}-{ours[target]}"


def openspiel_contents(state, ours: list[str]) -> dict[str, str | None]:
    rows = diagram(state)
    return {ours[k]: SYMBOL[rows[r][c]] for k, (r, c) in enumerate(openspiel_points(state))}


def flying(ours_state) -> bool:
    """True once a player is down to three pieces: OpenSpiel's flying rule starts there."""
    hands = ours_state.position()["in_hand"]
    counts = {colour: hands[colour] for colour in hands}
    for colour in ours_state.contents().values():
        if colour:
            counts[colour] += 1
    return min(counts.values()) <= 3


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
            capturing = "Capture time!" in str(spiel)
            expected = {notation(a, capturing, ours_map) for a in spiel.legal_actions()}
            assert {str(m) for m in state.legal_moves} == expected, f"after {[str(m) for m in state.history]}"
            assert state.turn_piece() == COLOUR_OF_PLAYER[spiel.current_player()]
            assert state.contents() == openspiel_contents(spiel, ours_map)
            action = rng.choice(spiel.legal_actions())
            state.apply(notation(action, capturing, ours_map))
            spiel.apply_action(action)
            compared += 1
    assert compared > GAMES * 30
