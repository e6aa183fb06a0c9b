"""Pawns Crossing speed: random moves per second, footprints per second, token reach per second.

    /work/venv/bin/python bench/pawns_crossing.py [--seconds S]

Prints figures only; nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import time

from engine.games.pawns_crossing import PawnsCrossing, PawnsState


def random_play(players: int, seconds: float) -> tuple[float, float, list[PawnsState]]:
    """Random playouts (legal moves generated at every state), restarting every 2000 moves.

    Returns moves/s, footprints/s (every legal move of every visited state) and some states.
    """
    rng = random.Random(players)
    game = PawnsCrossing(players=players)
    state, played, samples = game.new_initial_state(), 0, []
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        if state.is_terminal() or played % 2000 == 0:
            state = PawnsCrossing(players=players, seed=played).new_initial_state()
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.push(rng.choices(outcomes, weights)[0])
        else:
            state.push(rng.choice(list(state.legal_moves)))
        played += 1
        if played % 97 == 0:
            samples.append(state.clone())
    moves_rate = played / (time.perf_counter() - began)
    footprints, began = 0, time.perf_counter()
    for sample in samples:
        for move in sample.legal_moves:
            sample.footprint(move)
            footprints += 1
    return moves_rate, footprints / (time.perf_counter() - began), samples


def reach_rate(samples: list[PawnsState]) -> float:
    """Token destination searches per second (every token, every roll 1-5)."""
    searches, began = 0, time.perf_counter()
    for state in samples:
        for token, at in state.where.items():
            if at:
                for roll in range(1, 6):
                    state.destinations(token, roll)
                    searches += 1
    return searches / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of random play per player count")
    args = parser.parse_args()
    for players in (2, 3, 4):
        moves, footprints, samples = random_play(players, args.seconds)
        print(f"pawns-crossing, {players} players: {moves:9,.0f} random moves/s  "
              f"{footprints:9,.0f} footprints/s  {reach_rate(samples):9,.0f} token searches/s")


if __name__ == "__main__":
    main()
