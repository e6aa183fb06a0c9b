"""How long a puzzle's hint takes from the positions a person asks it about, and what it says.

Positions: a person's own play, random legal moves from the start (seeded), a number of
moves drawn from each band of ``--bands`` (default per puzzle: the Spiral after 8-14 and
16-26 moves).  With ``--from stray``: a person who followed a solution for some moves, then
made one move of their own (the positions of the benches before 2026-11-28).  Each position
is asked the hint the daemon asks, within its time limit (``--limit``, default the board's
``PUZZLE_HINT_S``; Full House's own ``HINT_S`` caps it).

The limit runs on this process's CPU time (``engine.solvers.CLOCK``), and the times printed
are CPU seconds: the machine is shared, and CPU time is fair under its load.  A Raspberry Pi 4
is modelled as ``PI4_SLOWER`` (5) times as slow (``engine/ai/speed.py``).  ``--pi4`` divides the
limit by that factor and prints every time multiplied by it: what a Pi 4 answers within the
board's limit, and how long it takes.

Printed per band: how many hints named a move, proved the position lost (and of those, how
many found the move that lost it), or found nothing in time; the median, 90th percentile and
worst time; how many answered (a move or a proof) within 2 s.  A removal puzzle's hint that
proves its position lost then steps back through the moves made, to find the one that lost it,
until its time is up: the time of the verdict "lost from here" (when it starts stepping back)
is printed beside it, and how many verdicts came within 2 s.  A hint that follows the last
one's line is immediate and not measured here.

Run: ``.venv/bin/python bench/puzzle_hints.py [--puzzle NAME] [--samples N] [--seed N] [--pi4]``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

import engine.solvers
from engine import new_game
from engine.ai.speed import PI4_SLOWER
from engine.core import State
from engine.solvers import SOLVERS, hinter, removal
from engine.solvers.full_house import HINT_S
from firmware_host.thinker import PUZZLE_HINT_S

GOLDEN = Path(__file__).parents[1] / "tests" / "data" / "overpass_spiral" / "one_piece_left.json"
#: The answer the issue asks for, in seconds (on this machine, or with --pi4 on a Pi 4).
TARGET_S = 2.0
#: Bands of moves made before the hint is asked, per puzzle: (fewest, most).
BANDS = {
    "overpass-spiral": ((8, 14), (16, 26)),
    "crooked-jumps": ((2, 6), (7, 12)),
    "full-house": ((4, 20), (21, 60)),
}


def random_play(puzzle: str, moves: int, rng: random.Random) -> State:
    """The position after ``moves`` random legal moves from the start (fewer if the puzzle ends first)."""
    state = new_game(puzzle)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.push(state.random_move(rng))
    return state


def strays(puzzle: str, samples: int, rng: random.Random) -> list[State]:
    """Positions along a known solution, each after one move of the person's own choosing."""
    if puzzle == "overpass-spiral":
        line = json.loads(GOLDEN.read_text())["moves"]
    else:
        line = engine.solvers.solver(puzzle)(time_limit=5.0).moves
    found = []
    for k in range(samples):
        state = new_game(puzzle)
        for text in line[:len(line) * k // samples]:
            state.apply(text)
        if not state.is_terminal():
            state.push(state.random_move(rng))
        found.append(state)
    return found


class Verdicts:
    """The CPU time at which each removal hint proved its position lost: when it began to step back
    (``find_loss``), which it does only then."""

    def __init__(self) -> None:
        self.at: list[float] = []
        stepping_back = removal.find_loss

        def timed(*args: Any, **kwargs: Any) -> engine.solvers.Hint:
            self.at.append(time.process_time())
            return stepping_back(*args, **kwargs)

        removal.find_loss = timed


def verdict(hint: engine.solvers.Hint) -> str:
    if hint.moves:
        return "a move"
    if hint.lost:
        return "lost, since move K" if hint.lost_at is not None else "lost"
    return "no answer"


def summary(label: str, times: list[float], said: list[str], proofs: list[float], scale: float) -> str:
    times = [t * scale for t in times]
    answered = sum(what != "no answer" for what in said)
    quick = sum(t <= TARGET_S for t, what in zip(times, said) if what != "no answer")
    times.sort()
    proved = (f"; proved lost from here within {TARGET_S:g} s {sum(t * scale <= TARGET_S for t in proofs)} of "
              f"{len(proofs)} (median {statistics.median(proofs) * scale:.2f} s)" if proofs else "")
    counts = {what: said.count(what) for what in ("a move", "lost", "lost, since move K", "no answer")}
    return (f"{label}: {len(times)} positions: {counts['a move']} a move, "
            f"{counts['lost'] + counts['lost, since move K']} proved lost ({counts['lost, since move K']} with the "
            f"move that lost it), {counts['no answer']} no answer; median {statistics.median(times):.2f} s, "
            f"90th percentile {times[int(0.9 * (len(times) - 1))]:.2f} s, worst {times[-1]:.2f} s; "
            f"answered {answered}, within {TARGET_S:g} s {quick}{proved}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzle", choices=sorted(SOLVERS), action="append", help="the puzzles (default: all)")
    parser.add_argument("--samples", type=int, default=12, help="positions per band (default 12)")
    parser.add_argument("--seed", type=int, default=1, help="draws the moves (default 1)")
    parser.add_argument("--from", dest="source", choices=("play", "stray"), default="play",
                        help="play: random legal moves from the start; stray: one move off a solution")
    parser.add_argument("--limit", type=float, default=PUZZLE_HINT_S,
                        help=f"CPU seconds a hint may take here (default PUZZLE_HINT_S, {PUZZLE_HINT_S:g})")
    parser.add_argument("--pi4", action="store_true",
                        help=f"model a Pi 4: the limit divided by {PI4_SLOWER:g}, the times multiplied by it")
    args = parser.parse_args()
    scale = PI4_SLOWER if args.pi4 else 1.0
    engine.solvers.CLOCK = time.process_time
    where = "a Pi 4 (modelled)" if args.pi4 else "this machine, CPU"
    print(f"hint limit {args.limit:g} s on {where}; times in seconds on {where}")
    verdicts = Verdicts()
    for puzzle in args.puzzle or sorted(SOLVERS):
        rng = random.Random(args.seed)
        if args.source == "stray":
            bands = [("one move off a solution", strays(puzzle, args.samples, rng))]
        else:
            bands = [(f"after {low}-{high} moves", [random_play(puzzle, rng.randint(low, high), rng)
                                                   for _ in range(args.samples)])
                     for low, high in BANDS[puzzle]]
        for label, states in bands:
            times, said, proofs = [], [], []
            for state in states:
                verdicts.at.clear()
                started = time.process_time()
                cap = min(args.limit, HINT_S) if puzzle == "full-house" else args.limit
                hint = hinter(puzzle)(state, time_limit=cap / scale)
                times.append(time.process_time() - started)
                said.append(verdict(hint))
                proofs.extend(at - started for at in verdicts.at)
                proof = f" (lost from here at {proofs[-1] * scale:.2f} s)" if verdicts.at else ""
                print(f"  {puzzle:16} ply {len(state.history):3}  {times[-1] * scale:6.2f} s  {hint.explanation}"
                      f"{proof}", flush=True)
            print(summary(f"{puzzle}, {label}", times, said, proofs, scale), flush=True)


if __name__ == "__main__":
    main()
