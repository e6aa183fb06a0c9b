"""How long the computer takes a turn, per game and level, here and modelled on a Raspberry Pi 4.

Levels are deadlines for a whole turn on a Pi 4 (``engine/ai/levels.py``).  Every game
(Over-Pass with 2 players, Pawns Crossing with 2) is played by the computer in every seat at
each level, from several positions (a few random plies in, then the computer's turns), on
the process's CPU clock at the model's speed (``speed.PI4_SLOWER``: this machine as five
Pi 4s), so each turn's deadline here is the level's Pi 4 seconds divided by five.  For each
game and level: CPU seconds per whole turn here (median, p90, max), the same modelled on a
Pi 4 (x ``PI4_SLOWER``), the longest first step of a turn of several (the board lights it
meanwhile), and the most a turn ran past its deadline (held: within ``PAST_MS``).  Then the hint (the person's whole
turn within ``HINT_SECONDS`` on a Pi 4) on the positions met: median and max; a puzzle's hint comes from its
solver instead (``bench/puzzle_hints.py``).

    .venv/bin/python bench/turn_time.py [--turns 8] [--seeds 3] [--games overpass hexover]

CPU time, not the wall's, so another process sharing the cores does not count; a Pi 4 is
a model, not a measurement (there is no Pi in CI).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field

from engine.ai.levels import DEFAULT_LEVEL, HINT_SECONDS, LEVELS
from engine.ai.player import Computer
from engine.ai.speed import PI4_SLOWER
from engine.core import Move, State
from engine.registry import GAMES, new_game
from engine.solvers import SOLVERS

#: Options of the games measured: two players where a game takes more.
OPTIONS = {"overpass": {"players": 2}, "pawns-crossing": {"players": 2}}
#: How far past its deadline a turn may run (Pi 4 ms): a scan period or so (5 ms at 200 Hz), read on a CPU clock
#: that ticks in milliseconds.
PAST_MS = 10.0
#: Random plies before the computer's turns, for each seed in turn: the positions differ.
OPENINGS = (0, 9, 23)


@dataclass
class Figures:
    """One game at one level: each turn's CPU seconds, its first step's, and how far past its deadline it ran."""

    turns: list[float] = field(default_factory=list)
    firsts: list[float] = field(default_factory=list)
    overrun: float = 0.0
    hints: list[float] = field(default_factory=list)


def timed_turn(computer: Computer, state: State) -> tuple[list[Move], float, float | None]:
    """The computer's turn from ``state``, its CPU seconds until its last step is given (its trees are freed
    after that), and its first step's where it has more than one."""
    start = time.process_time()
    moves: list[Move] = []
    first, spent = None, 0.0
    for move in computer.steps(state):
        spent = time.process_time() - start
        if not moves:
            first = spent
        moves.append(move)
    return moves, spent, first if len(moves) > 1 else None


def measure(name: str, level: str, turns: int, seeds: int, hints: bool) -> Figures:
    figures = Figures()
    for seed in range(seeds):
        rng = random.Random(seed)
        state = new_game(name, **OPTIONS.get(name, {}))
        for _ in range(OPENINGS[seed % len(OPENINGS)]):
            if state.is_terminal():
                break
            state.push(state.random_move(rng))
        computer = Computer(level, seed, speed=PI4_SLOWER, clock=time.process_time)
        deadline = computer.seconds or 0.0
        played = 0
        while played < turns and not state.is_terminal():
            if state.is_chance_node():
                state.push(state.random_move(rng))
                continue
            if hints:
                hint = Computer(DEFAULT_LEVEL, seed, speed=PI4_SLOWER, clock=time.process_time, seconds=HINT_SECONDS)
                figures.hints.append(timed_turn(hint, state)[1])
            moves, spent, first = timed_turn(computer, state)
            figures.turns.append(spent)
            figures.overrun = max(figures.overrun, spent - deadline)
            if first is not None:
                figures.firsts.append(first)
            for move in moves:
                state.push(move)
            played += 1
    return figures


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=8, help="the computer's turns measured from each position")
    parser.add_argument("--seeds", type=int, default=3, help="positions (random openings) per game")
    parser.add_argument("--games", nargs="+", choices=list(GAMES), default=list(GAMES))
    args = parser.parse_args()
    pi4 = PI4_SLOWER
    print(f"CPU seconds per whole turn here (median / p90 / max) and modelled on a Raspberry Pi 4 (x {pi4:g}); "
          f"first step: the longest of a turn of several (Pi 4); past: the most a turn ran past its deadline "
          f"(Pi 4 ms); {args.seeds} positions x {args.turns} turns")
    print("| game | level | deadline (Pi 4) | turns | here: median / p90 / max | Pi 4: median / p90 / max "
          "| first step (Pi 4) | past (Pi 4) | held |")
    print("|---|---|---|---|---|---|---|---|---|")
    hint_rows = []
    for name in args.games:
        for level in LEVELS:
            figures = measure(name, level, args.turns, args.seeds, hints=level == DEFAULT_LEVEL and name not in SOLVERS)
            turns = figures.turns
            here = (statistics.median(turns), p90(turns), max(turns))
            first = f"{max(figures.firsts) * pi4:.2f} s" if figures.firsts else "(one step)"
            past = max(0.0, figures.overrun) * pi4 * 1000
            held = "yes" if past <= PAST_MS else "NO"
            print(f"| {name} | {level} | {LEVELS[level].seconds:g} s | {len(turns)} | "
                  + " / ".join(f"{value:.3f}" for value in here) + " | "
                  + " / ".join(f"{value * pi4:.2f}" for value in here) + f" | {first} | {past:.0f} ms | {held} |")
            if figures.hints:
                hint_rows.append((name, figures.hints))
    print(f"\nhints ({DEFAULT_LEVEL} capped at {HINT_SECONDS:g} s on a Pi 4: the person's whole turn), CPU here and "
          "modelled on a Pi 4")
    print("| game | hints | here: median / max | Pi 4: median / max |")
    print("|---|---|---|---|")
    for name, hints in hint_rows:
        print(f"| {name} | {len(hints)} | {statistics.median(hints):.3f} / {max(hints):.3f} | "
              f"{statistics.median(hints) * pi4:.2f} / {max(hints) * pi4:.2f} |")


if __name__ == "__main__":
    main()
