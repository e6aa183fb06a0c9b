"""Groups-of-Three and Full House under random play: invariants on every state, and golden records.

A golden record (tests/data/groups_of_three/*.json) is a seeded random game: its moves
and the position after each tenth of them.  Replaying it must give the same legal moves
and positions, so any change of the rules shows up as a diff to review.
"""

import json
import random
from pathlib import Path

import pytest

from engine import Footprint
from engine.games.full_house import FullHouse
from engine.games.groups_of_three import PIECES_PER_COLOUR, GroupsOfThree
from engine.games.groups_of_three_layout import load_layout
from engine.games.groups_of_three_movement import Add, Step

GOLDEN = Path(__file__).parent.parent / "data" / "groups_of_three"
MOVE_CAP = 300
#: Full House is rebuilt from its class: the registry may not list its module yet.
GAMES = {"groups-of-three": GroupsOfThree, "full-house": FullHouse}
#: The golden records: file stem -> (game, options, seed, moves).
RECORDS = {
    "two_players": ("groups-of-three", {"players": 2}, 1, 300),
    "three_players": ("groups-of-three", {"players": 3}, 2, 300),
    "four_players": ("groups-of-three", {"players": 4}, 3, 300),
    "full_house": ("full-house", {"pieces": 40}, 4, 200),
}


def rebuild(data):
    """A state from ``State.to_json()`` output, for either game."""
    return GAMES[data["game"]](**data["options"]).state_from_position(data["position"])


def random_move(state, rng):
    if state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes())
        return rng.choices(outcomes, weights)[0]
    return rng.choice(list(state.legal_moves))


def check_invariants(state):
    """What every Groups-of-Three position keeps, whatever was played."""
    layout, contents = load_layout(), state.contents()
    position = state.position()
    assert contents["center"] is None
    resting_in_transit = [layout.faces[i] for i in layout.transit if contents[layout.faces[i]]]
    assert len(resting_in_transit) <= 1
    if resting_in_transit:
        assert "end" not in {str(m) for m in state.legal_moves}
    total = state.game.target if isinstance(state.game, FullHouse) else PIECES_PER_COLOUR
    for colour in state.colours:
        on_board = sum(1 for c in contents.values() if c == colour)
        assert on_board + position["reserve"][colour] + position["borne_off"][colour] == total
        if position["reserve"][colour] and not isinstance(state.game, FullHouse):
            assert on_board >= 2, "a colour with reserve pieces keeps two on the board"
    assert all(contents[face] is None for face in position["pending_adds"])


def check_footprints(state, rng):
    for move in rng.sample(list(state.legal_moves), min(4, len(state.legal_moves))):
        before, saved = state.contents(), state.position()
        footprint = state.footprint(move)
        state.push(move)
        assert set(Footprint.between(before, state.contents()).changes) == set(footprint.changes)
        state.pop()
        assert state.position() == saved


@pytest.mark.parametrize("game", [GroupsOfThree(players=2), GroupsOfThree(players=3), GroupsOfThree(players=4),
                                  FullHouse(pieces=40)], ids=["2p", "3p", "4p", "full-house"])
def test_random_play_keeps_the_invariants(game):
    rng = random.Random(7)
    for _ in range(3):
        state = game.new_initial_state()
        for _ in range(MOVE_CAP):
            check_invariants(state)
            check_footprints(state, rng)
            copy = rebuild(json.loads(json.dumps(state.to_json())))
            assert copy.position() == state.position()
            assert sorted(map(str, copy.legal_moves)) == sorted(map(str, state.legal_moves))
            if state.is_terminal():
                break
            state.apply(random_move(state, rng))


def purposeful_move(state, rng):
    """A player's plan: take every add, bear off when allowed, then head inward once the reserve is in."""
    if state.is_chance_node():
        return random_move(state, rng)
    moves = list(state.legal_moves)
    board = state.game.board
    adds = [m for m in moves if isinstance(m, Add)]
    bear_offs = [m for m in moves if isinstance(m, Step) and m.target == "center"]
    inward = [m for m in moves if isinstance(m, Step) and board.radius(m.target) < board.radius(m.source)]
    if adds or bear_offs:
        return rng.choice(adds or bear_offs)
    if inward and not state.reserve[state._mover()] and rng.random() < 0.8:
        return rng.choice(inward)
    return rng.choice(moves)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_purposeful_play_ends_with_a_winner_keeping_the_invariants(players):
    rng = random.Random(players)
    state = GroupsOfThree(players=players).new_initial_state()
    for _ in range(5000):
        check_invariants(state)
        if state.is_terminal():
            break
        state.apply(purposeful_move(state, rng))
    outcome = state.outcome()
    assert outcome is not None and len(outcome.winners) == 1
    winner_colours = [state.colours[c] for c in state.game.seat_colours[outcome.winner]]
    assert all(state.position()["borne_off"][c] == PIECES_PER_COLOUR for c in winner_colours)


def record(name, options, seed, moves):
    """Play a seeded random game: the record a golden file holds."""
    state = GAMES[name](**options).new_initial_state()
    start = state.to_json()
    rng = random.Random(seed)
    played, checkpoints = [], []
    for number in range(1, moves + 1):
        if state.is_terminal():
            break
        played.append(str(state.apply(random_move(state, rng))))
        if number % (moves // 10) == 0:
            checkpoints.append({"after": number, "position": state.position(),
                                "legal": sorted(map(str, state.legal_moves))})
    return {"start": start, "seed": seed, "moves": played, "checkpoints": checkpoints}


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_golden_records_replay_exactly(path):
    golden = json.loads(path.read_text())
    state = rebuild(golden["start"])
    checkpoints = {c["after"]: c for c in golden["checkpoints"]}
    for number, text in enumerate(golden["moves"], 1):
        state.apply(text)
        if number in checkpoints:
            assert state.position() == checkpoints[number]["position"], f"{path.name}: position after move {number}"
            assert sorted(map(str, state.legal_moves)) == checkpoints[number]["legal"], (
                f"{path.name}: legal moves after move {number}")


def test_every_golden_record_is_present():
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == sorted(RECORDS)


if __name__ == "__main__":
    # Rewrite the golden records after a deliberate rule change (then review the diff):
    #   /work/venv/bin/python tests/engine/test_groups_of_three_play.py
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for stem, (name, options, seed, moves) in RECORDS.items():
        (GOLDEN / f"{stem}.json").write_text(json.dumps(record(name, options, seed, moves), indent=1) + "\n")


@pytest.mark.parametrize("game", ["groups-of-three", "full-house"])
def test_steps_kept_by_neighbourhood_are_the_steps_worked_out_piece_by_piece(game):
    """The listing reuses a piece's steps wherever its neighbours' occupancy and the flags match."""
    rng, layout = random.Random(f"kept {game}"), load_layout()
    state = GAMES[game]().new_initial_state()
    for _ in range(600):
        if state.is_terminal():
            state = GAMES[game]().new_initial_state()
        if not state.is_chance_node():
            colour, steps_left = state._mover(), state._steps_left()
            sources = [state.transit] if state.transit >= 0 else [
                i for i in range(len(layout.faces)) if state.occupied >> i & 1 and state.cells[i] == colour]
            expected = [Step(layout.faces[s], layout.faces[t]) for s in sources
                        for t in state._exits(s, colour, steps_left)] if steps_left > 0 else []
            assert [m for m in state.legal_moves if isinstance(m, Step)] == expected
        state.push(random_move(state, rng))
