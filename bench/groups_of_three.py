"""Groups-of-Three and Full House speed: random moves per second, push/pop, and the solver's time.

    /work/venv/bin/python bench/groups_of_three.py [--solver-limit S]

Prints figures only; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import time

from engine.core import Game
from engine.games.full_house import FullHouse
from engine.games.groups_of_three import GroupsOfThree
from engine.solvers.full_house import solve


def random_moves_per_second(game: Game, seconds: float = 2.0) -> tuple[float, float]:
    """Random playouts (legal moves generated at every state); then push/pop pairs per second."""
    rng = random.Random(0)
    played, began = 0, time.perf_counter()
    state = game.new_initial_state()
    while time.perf_counter() - began < seconds:
        if state.is_terminal() or played % 2000 == 0:
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.push(rng.choices(outcomes, weights)[0])
        else:
            state.push(rng.choice(list(state.legal_moves)))
        played += 1
    moves_rate = played / (time.perf_counter() - began)
    move = next(iter(state.legal_moves), None)
    pairs, began = 0, time.perf_counter()
    while move is not None and time.perf_counter() - began < seconds / 2:
        state.push(move)
        state.pop()
        pairs += 1
    return moves_rate, pairs / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solver-limit", type=float, default=20.0, help="seconds for the full Full House solve")
    args = parser.parse_args()
    for label, game in [("groups-of-three, 2 players", GroupsOfThree(players=2)),
                        ("groups-of-three, 4 players", GroupsOfThree(players=4)),
                        ("full-house", FullHouse())]:
        rate, pairs = random_moves_per_second(game)
        print(f"{label:28} {rate:10,.0f} random moves/s   {pairs:10,.0f} push/pop pairs/s")
    for pieces in (8, 10, 12, 14):
        began = time.perf_counter()
        solution = solve(time_limit=60, state=FullHouse(pieces=pieces).new_initial_state())
        status = "optimal" if solution.optimal else f"bound {solution.lower_bound}"
        print(f"full-house solver, {pieces:2} pieces: {solution.cost} moves ({status}) "
              f"in {time.perf_counter() - began:.2f} s")
    began = time.perf_counter()
    solution = solve(time_limit=args.solver_limit)
    print(f"full-house solver, 40 pieces, limit {args.solver_limit:g} s: best {solution.cost} moves, "
          f"lower bound {solution.lower_bound}, {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
