"""The computer's speed: search simulations per second for every game.

For each game, the default level's search (its playout cut-off and evaluation) from the
start and from a position 12 random plies in; then, where OpenSpiel is installed (the test extras on
x86_64), its ``mcts.py`` (random rollouts, as ours) on its C++ ``nine_mens_morris``
against ours on Square Off, the same game until a player is down to three pieces (which moves each picks:
``bench/openspiel_moves.py``).  Levels are deadlines: the seconds a turn takes at each level are
``bench/turn_time.py``'s.  Run from the repository: ``.venv/bin/python bench/search.py``.
"""

from __future__ import annotations

import dataclasses
import random
import time

from engine.ai.hidden import hides_values, sample
from engine.ai.mcts import Settings, search, search_dealt
from engine.ai.player import DEALS, Computer
from engine.positions import random_position
from engine.registry import GAMES, new_game

SIMULATIONS = 200


def simulations_per_second(state) -> float:
    """Simulations per second of the default level's search (its playouts, evaluation and candidates)."""
    settings = dataclasses.replace(Computer().settings(state), simulations=SIMULATIONS)
    start = time.perf_counter()
    if hides_values(state):
        deals = [sample(state, state.current_player, random.Random(n)) for n in range(DEALS)]
        search_dealt(deals, settings, random.Random(0))
    else:
        search(state, settings, random.Random(0))
    return SIMULATIONS / (time.perf_counter() - start)


def main() -> None:
    print(f"simulations per second ({SIMULATIONS} simulations, the default level's playouts; Over-Pass with 2 players)")
    for name in GAMES:
        rates = []
        for plies in (0, 12):
            state = random_position(name, {"players": 2} if name == "overpass" else {}, plies, seed=1)
            rates.append(f"{simulations_per_second(state):>8,.0f}" if not state.is_terminal() else "    over")
        print(f"  {name:<18} start {rates[0]}   12 plies in {rates[1]}")
    against_openspiel()


def against_openspiel(simulations: int = 300, repeats: int = 3) -> None:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ModuleNotFoundError:
        print("OpenSpiel is not installed: no comparison")
        return
    game = pyspiel.load_game("nine_mens_morris")
    times = []
    for seed in range(repeats):
        bot = mcts.MCTSBot(game, 1.4, simulations, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                           random_state=np.random.RandomState(seed))
        start = time.perf_counter()
        bot.step(game.new_initial_state())
        times.append(time.perf_counter() - start)
    ours = []
    for seed in range(repeats):
        start = time.perf_counter()
        search(new_game("squareoff"), Settings(simulations), random.Random(seed))
        ours.append(time.perf_counter() - start)
    print(f"{simulations} simulations from the start, best of {repeats}: OpenSpiel's mcts.py on nine_mens_morris "
          f"{min(times):.2f} s, ours on Square Off {min(ours):.2f} s")


if __name__ == "__main__":
    main()
