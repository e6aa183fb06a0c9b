"""The compiled removal search on the Spiral (engine/solvers/_removal_fast.c) against ``RemovalSearch``'s
Python search, the definition: the same verdict, path, best position and count of positions.

A fake clock makes the time limit a limit on positions: it moves on one second each time it is
read, and both searches read it at the same counts (every ``CHECK_EVERY`` positions), so a search
given n seconds stops n * ``CHECK_EVERY`` positions in, at the same place in both.
"""

from __future__ import annotations

import json
import random

import pytest

import engine.solvers
from engine.bitsets import members
from engine.games.overpass_spiral import OverPassSpiral
from engine.solvers import LINES, Budget
from engine.solvers import removal
from engine.solvers.endgame import shipped_table
from engine.solvers.removal import RemovalSearch, SearchReport, compiled_search

pytestmark = pytest.mark.skipif(
    compiled_search(OverPassSpiral(), True, None) is None,
    reason="engine/solvers/_removal_fast.c was not built (no C compiler or Python headers at install): "
           "the hints search the Spiral in Python alone")

#: Positions a search may see before it is stopped, in looks at the clock (of CHECK_EVERY positions each).
LOOKS = 30


class Ticks:
    """A clock that moves on one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def played(game: OverPassSpiral, rng: random.Random) -> list[int]:
    """A person's play: the position after some random moves, then the positions before it, latest first
    (the order in which a hint steps back to find the move that lost the puzzle)."""
    state, masks = game.new_initial_state(), []
    for _ in range(rng.randint(8, 36)):
        if state.is_terminal():
            break
        masks.append(state.mask)
        state.push(state.random_move(rng))
    return [state.mask, *reversed(masks[-2:])]


def on_the_centre_line(game: OverPassSpiral, rng: random.Random) -> list[int]:
    """Late positions along the line that ships ending in the centre (each can still be won), latest first."""
    line = next(line["moves"] for line in json.loads(LINES.read_text())["lines"]
                if line["game"] == game.name and line["moves"][-1].endswith(">center"))
    state, masks = game.new_initial_state(), []
    for text in line[:rng.randint(24, 34)]:
        masks.append(state.mask)
        state.apply(text)
    return [state.mask, *reversed(masks[-2:])]


def symmetric(game: OverPassSpiral, rng: random.Random) -> int:
    """A position that the board's symmetries map onto itself (the search's memo then keys positions by their
    symmetry class): the points near the centre but for a few holes and their images."""
    near = game.centre_rings[rng.randint(4, 6)]
    holes = rng.sample(list(members(near)), rng.randint(1, 3))
    return near & ~sum({1 << perm[i] for perm in game.symmetries for i in holes})


def runs(game: OverPassSpiral, masks: list[int], compiled: bool, centre: bool, table: bool) -> list[SearchReport]:
    """One search object run from each of ``masks`` in turn (its memo carries over), each within ``LOOKS``."""
    engine.solvers.CLOCK = Ticks()
    search = RemovalSearch(game, Budget(LOOKS), centre=centre, table=shipped_table(game.name) if table else None,
                           compiled=compiled)
    assert (search.compiled is not None) == compiled
    reports = []
    for mask in masks:
        search.budget = Budget(LOOKS)
        reports.append(search.run(mask))
    return reports


@pytest.mark.parametrize("centre, table, memo_limit", [(True, False, removal.MEMO_LIMIT), (False, False, 300),
                                                       (False, True, removal.MEMO_LIMIT)])
def test_the_compiled_search_finds_what_the_python_search_finds(monkeypatch, centre, table, memo_limit):
    monkeypatch.setattr(removal, "CHECK_EVERY", 64)
    monkeypatch.setattr(removal, "MEMO_LIMIT", memo_limit)
    monkeypatch.setattr(engine.solvers, "CLOCK", engine.solvers.CLOCK)  # put back after
    game, rng = OverPassSpiral(), random.Random(f"compiled {centre} {table}")
    ends = set()
    for k in range(12):
        masks = (played, on_the_centre_line, lambda *given: [symmetric(*given)])[k % 3](game, rng)
        python, compiled = (runs(game, masks, flag, centre, table) for flag in (False, True))
        for mask, want, got in zip(masks, python, compiled):
            assert (got.solved, got.exhausted, got.path, got.best_mask, got.positions) == (
                want.solved, want.exhausted, want.path, want.best_mask, want.positions), hex(mask)
            ends.add("solved" if want.solved else "exhausted" if want.exhausted else "stopped")
    assert ends == {"solved", "exhausted", "stopped"}


def test_an_error_in_the_progress_callback_ends_the_compiled_search(monkeypatch):
    monkeypatch.setattr(removal, "CHECK_EVERY", 64)

    def fails(progress: engine.solvers.Progress) -> None:
        raise RuntimeError(f"at {progress.explored} positions")

    game = OverPassSpiral()
    with pytest.raises(RuntimeError, match="at 64 positions"):
        RemovalSearch(game, Budget(60), fails, centre=True).run(game.start_mask)
