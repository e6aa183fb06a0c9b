"""Over-Pass random play (OpenSpiel style) with the game's own invariants, and golden records.

One seeded whole game per set of options is played to its end (or a cap) with the cheap
invariants; two thousand short random games, started from positions met along those, check
every state fully; golden records are replayed move by move.
"""

import json
import random
from collections import Counter, deque
from functools import cache
from pathlib import Path

import pytest

from engine import Footprint, state_from_json
from engine.board import CENTER
from engine.games.overpass import OverPass
from engine.games.overpass_moves import ENTER, ROLL, EndTurn, Exit, OverPassMove, ReturnCenter

RECORDS = sorted((Path(__file__).parent.parent / "data" / "overpass").glob("*.json"))
CONFIGS = [(2, "one"), (2, "both"), (3, "one"), (4, "one")]
SHORT_GAMES = 2000
SHORT_CAP = 10
WHOLE_CAP = 3000
CHECKPOINT_EVERY = 20


def random_move(state, rng):
    if state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes())
        return rng.choices(outcomes, weights)[0]
    return rng.choice(list(state.legal_moves))


def hurried_move(state, rng):
    """A random move that takes an Exit half the time and ends the turn a third of the
    time when it can: whole games end in a few thousand moves instead of many more."""
    if state.is_chance_node():
        return random_move(state, rng)
    moves = list(state.legal_moves)
    exits = [m for m in moves if isinstance(m, Exit)]
    if exits and rng.random() < 0.5:
        return rng.choice(exits)
    if EndTurn() in moves and rng.random() < 0.3:
        return EndTurn()
    return rng.choice(moves)


@cache
def whole_game(players, goal):
    """A seeded hurried game to its end (or the cap), checked on every move, and the
    positions met every few moves, from the opening to empty reserves and the end."""
    rng = random.Random(f"whole {players} {goal}")
    state = OverPass(players=players, goal=goal).new_initial_state()
    positions = [state.position()]
    for ply in range(WHOLE_CAP):
        if state.is_terminal():
            break
        move = hurried_move(state, rng)
        check_cheap(state, move)
        state.push(move)
        if ply % CHECKPOINT_EVERY == 0:
            positions.append(state.position())
    return state, positions


def bridge_witness(state, move):
    """A path of pieces the move can pass over, found independently of the engine: None if none."""
    board, cells = state.game.tables.board, state.cells
    colour = cells[move.start]
    on_exit = move.start in board.exits
    parents = {move.start: None}
    queue = deque([move.start])
    while queue:
        here = queue.popleft()
        for there in board.neighbours[here]:
            if there in parents or (on_exit and (here, there) not in board.perimeter):
                continue
            if there == move.end and here != move.start:
                path = [here]
                while parents[path[-1]] != move.start:
                    path.append(parents[path[-1]])
                return path
            if cells[there] is not None and cells[there] != colour:
                parents[there] = here
                queue.append(there)
    return None


def check_cheap(state, move):
    """The Over-Pass invariants, around one move."""
    game = state.game
    on_board = Counter(state.cells.values())
    for colour in game.turn_colours:
        assert on_board[colour] + state.reserve[colour] + state.home[colour] == game.layout.pieces_per_colour
    assert state.budget >= 0
    if state.history and isinstance(state.history[-1], (EndTurn, ReturnCenter)):
        assert state.phase in (ENTER, ROLL)
        assert state.cells[CENTER] is None, "the Center Square is empty when a turn ends"
    if isinstance(move, OverPassMove):
        path = bridge_witness(state, move)
        assert path, f"{move}: no bridge of other colours leads there"
        assert all(state.cells[p] not in (None, state.cells[move.start]) for p in path)


def check_full(state, move):
    """Everything: JSON round trip, the footprint, the position restored by pop."""
    copy = state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.position() == state.position()
    assert state.parse_move(str(move)) == move
    before, position = state.contents(), state.position()
    footprint = state.footprint(move)
    state.push(move)
    assert set(Footprint.between(before, state.contents()).changes) == set(footprint.changes)
    assert state.budget >= 0
    state.pop()
    assert state.position() == position


def check_footprints_tell_moves_apart(state):
    """The daemon knows a player's move by its footprint: no two legal moves may share one."""
    if state.is_chance_node():
        return
    footprints = [frozenset(state.footprint(m).changes) for m in state.legal_moves]
    assert len(set(footprints)) == len(footprints)


@pytest.mark.parametrize("players, goal", CONFIGS)
def test_thousands_of_short_random_games_keep_every_rule(players, goal):
    rng = random.Random(f"short {players} {goal}")
    game = OverPass(players=players, goal=goal)
    _, starts = whole_game(players, goal)
    for _ in range(SHORT_GAMES // len(CONFIGS)):
        state = game.state_from_position(rng.choice(starts))
        check_footprints_tell_moves_apart(state)
        for _ in range(SHORT_CAP):
            if state.is_terminal():
                break
            move = random_move(state, rng)
            check_cheap(state, move)
            check_full(state, move)
            state.push(move)


@pytest.mark.parametrize("players, goal", CONFIGS)
def test_whole_random_games_end_with_a_winner_or_reach_the_cap(players, goal):
    state, positions = whole_game(players, goal)
    assert any(not any(p["reserve"].values()) for p in positions), "play went on past the reserves"
    if state.is_terminal():
        winner = state.outcome().winner
        assert state.game.has_won(state.home, winner)
        assert [p for p in range(players) if state.game.has_won(state.home, p)] == [winner]
    else:
        assert len(state.history) == WHOLE_CAP


def test_most_whole_games_end():
    assert sum(whole_game(*config)[0].is_terminal() for config in CONFIGS) >= 2


def can_empty_the_center_square(state, seen):
    """Whether some sequence of moves within the points left empties the Center Square: every
    sequence tried (a win ends a line of play), the reference for the engine's search."""
    if state.cells[CENTER] is None:
        return True
    key = (tuple(state.cells.values()), state.budget)
    if key not in seen:
        seen[key] = False
        for move in state.board_moves():
            state.push(move)
            seen[key] = not state.is_terminal() and can_empty_the_center_square(state, seen)
            state.pop()
            if seen[key]:
                break
    return seen[key]


def small_random_position(rng):
    """A few pieces around the Center Square, often of its piece's colour on the spoke ends
    (so that the way out takes several moves), now and then one on an exit point, after a roll
    with up to 3 points left."""
    game = OverPass()
    tables = game.tables
    near = [p for p in tables.points if max(map(abs, tables.board.xy(p))) <= 2 and p != CENTER]
    board = {p: rng.choice(game.turn_colours) for p in rng.sample(near, rng.randint(3, 6))}
    board |= {p: rng.choice(game.turn_colours) for p in rng.sample(sorted(tables.exits), rng.randint(0, 1))}
    if rng.random() < 0.8:
        board[CENTER] = rng.choice(game.turn_colours)
        board |= {p: board[CENTER] for p in tables.board.neighbours[CENTER] if rng.random() < 0.7}
    on_board = Counter(board.values())
    roll = sorted(rng.choices(range(1, 7), k=2))
    return game.state_from_position({
        "turn": rng.choice(game.turn_colours), "phase": "move", "roll": roll, "budget": rng.randint(0, min(3, sum(roll))),
        "board": board, "reserve": {c: 10 - on_board[c] for c in game.turn_colours},
        "home": dict.fromkeys(game.turn_colours, 0)})


def test_the_center_square_rule_agrees_with_trying_every_sequence_of_moves():
    """``return`` exactly when nothing empties the centre; otherwise exactly the moves after
    which something still can (or that win)."""
    rng = random.Random("center square")
    returns = 0
    for _ in range(200):
        state, seen = small_random_position(rng), {}
        moves = {str(m) for m in state.legal_moves}
        possible = can_empty_the_center_square(state, seen)
        expected = set()
        for move in state.board_moves():
            state.push(move)
            if not possible or state.is_terminal() or can_empty_the_center_square(state, seen):
                expected.add(str(move))
            state.pop()
        expected.add("end" if state.cells[CENTER] is None else "return" if not possible else None)
        assert moves == expected - {None}, state.position()
        returns += not possible
    assert 10 < returns < 190, "both kinds of position are tried"


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_golden_records_replay_move_by_move(record):
    data = json.loads(record.read_text())
    game = OverPass(**data["options"])
    state = game.state_from_position(data["start"]) if data.get("start") else game.new_initial_state()
    for number, text in enumerate(data["moves"], 1):
        try:
            state.apply(text)
        except Exception as exc:  # name the failing move of the record
            raise AssertionError(f"{record.name}: move {number} {text!r}: {exc}") from exc
    assert state.position() == data["final"]
