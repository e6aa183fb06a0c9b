"""Move quality beside OpenSpiel's ``mcts.py``: the moves each search picks in the same positions, judged.

Square Off's Classic game is OpenSpiel's ``nine_mens_morris`` until a player is down to
three pieces (``engine/openspiel_morris.py``).  Positions come from random play in OpenSpiel (4-30
plies, both players above three pieces).  In each, our search (the computer with a fixed
number of simulations, as a level's deadline gives it about 300 a move at normal on a Pi 4)
and OpenSpiel's ``MCTSBot`` (random rollouts, the same simulations and exploration
constant) each pick a move.  Where they differ, a judge, OpenSpiel's ``MCTSBot`` with
many more simulations and its solver, values the position after each move for the
player who made it; the bench prints how often the two agree, and how often each move
was judged the better.  Run from the repository (``pip install -e '.[test]'`` has OpenSpiel):
``.venv/bin/python bench/openspiel_moves.py [--positions N] [--simulations 300] [--judge SIMULATIONS]``.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from engine.ai.player import Computer
from engine.games.squareoff import SquareOff
from engine.openspiel_morris import capturing, flying, notation, point_map

#: Judged values closer than this count as a tie: the judge's own noise.
TIE = 0.05


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=300, help="each search's simulations a move")
    parser.add_argument("--judge", type=int, default=3000, help="the judge's simulations per position judged")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ModuleNotFoundError:
        print("OpenSpiel is not installed (pip install -e '.[test]'): no comparison")
        return
    game = pyspiel.load_game("nine_mens_morris")
    simulations = args.simulations
    rng = random.Random(args.seed)
    agree = ours_better = theirs_better = ties = 0
    seconds = {"ours": 0.0, "openspiel": 0.0}
    for number in range(args.positions):
        spiel, state = random_position(game, rng)
        start = time.perf_counter()
        ours = str(Computer(seed=args.seed + number, simulations=simulations).choose(state))
        seconds["ours"] += time.perf_counter() - start
        bot = mcts.MCTSBot(game, 1.4, simulations, mcts.RandomRolloutEvaluator(1, np.random.RandomState(number)),
                           random_state=np.random.RandomState(number))
        start = time.perf_counter()
        action = bot.step(spiel)
        seconds["openspiel"] += time.perf_counter() - start
        ours_map = point_map(spiel)
        theirs = notation(action, capturing(spiel), ours_map)
        if ours == theirs:
            agree += 1
            verdict = "same move"
        else:
            by_action = {notation(a, capturing(spiel), ours_map): a for a in spiel.legal_actions()}
            judged = {name: judge(game, spiel, by_action[move], args.judge, number, mcts, np)
                      for name, move in (("ours", ours), ("openspiel", theirs))}
            gap = judged["ours"] - judged["openspiel"]
            if abs(gap) < TIE:
                ties += 1
            elif gap > 0:
                ours_better += 1
            else:
                theirs_better += 1
            verdict = f"ours {ours} {judged['ours']:+.2f}, OpenSpiel {theirs} {judged['openspiel']:+.2f}"
        print(f"position {number + 1:>2} ({len(state.history)} plies): {verdict}", flush=True)
    differ = args.positions - agree
    print(f"\n{args.positions} positions, {simulations} simulations each; judge {args.judge} "
          f"simulations with the solver, ties within {TIE}")
    print(f"same move: {agree}; different: {differ} (ours judged better {ours_better}, OpenSpiel's better "
          f"{theirs_better}, ties {ties})")
    print(f"seconds per decision: ours {seconds['ours'] / args.positions:.2f}, "
          f"OpenSpiel {seconds['openspiel'] / args.positions:.2f}")


def random_position(game: Any, rng: random.Random) -> tuple[Any, SquareOff]:
    """The same random position in OpenSpiel and in Square Off, both players above three pieces."""
    while True:
        spiel = game.new_initial_state()
        ours_map = point_map(spiel)
        state = SquareOff(first_player="white").new_initial_state()
        for _ in range(rng.randint(4, 30)):
            if spiel.is_terminal() or flying(state):
                break
            action = rng.choice(spiel.legal_actions())
            state.apply(notation(action, capturing(spiel), ours_map))
            spiel.apply_action(action)
        if not spiel.is_terminal() and not flying(state) and len(spiel.legal_actions()) > 1:
            return spiel, state


def judge(game: Any, spiel: Any, action: int, simulations: int, seed: int, mcts: Any, np: Any) -> float:
    """The value of the position after ``action`` for the player who made it, by a deep search."""
    mover = spiel.current_player()
    after = spiel.child(action)
    if after.is_terminal():
        return after.returns()[mover]
    bot = mcts.MCTSBot(game, 1.4, simulations, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                       solve=True, random_state=np.random.RandomState(seed))
    root = bot.mcts_search(after)
    value = root.outcome[root.player] if root.outcome is not None else root.total_reward / root.explore_count
    return value if root.player == mover else -value


if __name__ == "__main__":
    main()
