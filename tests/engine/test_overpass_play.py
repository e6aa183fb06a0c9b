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
from engine.games.overpass import (
    ENTER,
    ROLL,
    EndTurn,
    Exit,
    OverPass,
    OverPassMove,
    ReturnCenter,
)

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
