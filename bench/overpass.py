"""Over-Pass speed: enumerating a crowded turn, and random play over whole games.

1. The median time to enumerate the legal single moves of a mid-game four-player
   position with all 40 pieces on the board and a roll of 12 (goal: at most 1 ms on a
   development machine).  The position comes from seeded random play without exits,
   stopped when every reserve is empty.  Each move is checked against the Center Square
   rule (the centre must stay emptiable with the points left), so the same position is also
   timed with its centre empty and with one point left (every move then needs the check).
2. Random moves per second over whole games (dice rolls included), two to four players.

Run from the repository: ``/work/venv/bin/python bench/overpass.py [seconds per case]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from engine.games.overpass import OverPass, OverPassState
from engine.games.overpass_moves import Exit

REPEATS = 500


def random_move(state: OverPassState, rng: random.Random, exits: bool = True):
    if state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes())
        return rng.choices(outcomes, weights)[0]
    return rng.choice([m for m in state.legal_moves if exits or not isinstance(m, Exit)])


def crowded_position(seed: int = 3, budget: int = 12, centre_empty: bool = False) -> OverPassState:
    """Four players, 40 pieces on the board, a roll of 12 with ``budget`` points left to spend;
    with ``centre_empty`` the Center Square's piece (if any) is put back in its reserve."""
    rng = random.Random(seed)
    state = OverPass(players=4).new_initial_state()
    while any(state.reserve.values()) or state.phase != "roll":
        state.push(random_move(state, rng, exits=False))
    position = state.position()
    position.update(phase="move", roll=[6, 6], budget=budget)
    if centre_empty and "center" in position["board"]:
        position["reserve"][position["board"].pop("center")] += 1
    return state.game.state_from_position(position)


def enumeration_ms(state: OverPassState) -> tuple[float, int]:
    """Median milliseconds to enumerate the moves (uncached, nothing learnt earlier in the turn),
    and how many there are."""
    times = []
    for _ in range(REPEATS):
        fresh = state.clone()
        start = time.perf_counter()
        moves = fresh._turn_moves()  # the enumeration the state otherwise keeps per position
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, len(moves)


def random_moves_per_second(players: int, seconds: float) -> tuple[float, int]:
    """Moves per second over ``seconds`` of random play, and the games finished."""
    rng = random.Random(players)
    game = OverPass(players=players)
    state, moves, games = game.new_initial_state(), 0, 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        if state.is_terminal():
            state, games = game.new_initial_state(), games + 1
        state.push(random_move(state, rng))
        moves += 1
    return moves / elapsed, games


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    for state in (crowded_position(), crowded_position(centre_empty=True), crowded_position(budget=1)):
        pieces = sum(c is not None for c in state.contents().values())
        median, count = enumeration_ms(state)
        print(f"crowded turn ({pieces} pieces, centre {state.cells['center'] or 'empty'}, roll 12, "
              f"{state.budget} left): {count} moves, median {median:.3f} ms to enumerate (goal <= 1 ms)")
    for players in (2, 3, 4):
        rate, games = random_moves_per_second(players, seconds)
        print(f"random play, {players} players: {rate:>8,.0f} moves/s   ({games} games finished)")


if __name__ == "__main__":
    main()
