"""The computer-restart test's target: Square Off, a person against the computer, killed mid-turn.

Usage: python computer_kill_target.py JOURNAL SEED.  It resumes the journal's game (or starts
one and makes the person's first move, p1), waits for the computer's move to be shown,
prints "worker PID" (0 with no worker left to plan) and "shown MOVE", then waits to be killed.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

from firmware_host.seats import Seat


def load(name: str):
    """A helper module beside this script (it runs alone, outside the test package)."""
    spec = importlib.util.spec_from_file_location(f"computer_kill_{name}", Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(journal_path: str, seed: int) -> None:
    """``seed``: the computer's; a turn planned to a deadline differs from run to run, as a turn from another seed does."""
    daemon, mock, clock = load("kill_target").resumed_table(journal_path, seats=(Seat(), Seat("computer", "easy")),
                                                            computer_seed=seed)
    person = load("hands").Hands(daemon, mock, clock)
    if not daemon.state.history:
        person.play(daemon.state, daemon.state.parse_move("p1"))
    while daemon.carry is None:
        person.run(0.01)
        time.sleep(0.002)
    worker = daemon.thinker._process  # none when the journal kept the whole turn: nothing left to plan
    print(f"worker {worker.pid if worker is not None else 0}", flush=True)
    print(f"shown {daemon.carry.move}", flush=True)
    time.sleep(600)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
