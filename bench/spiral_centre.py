"""Can the Over-Pass Spiral's last piece end in the centre?  Yes: a beam search that meets a backward set.

Backwards from one piece in the centre: every position of 2, 3, ... ``--meet`` pieces from
which the centre can be reached (``engine/solvers/endgame.py``: a move undone, kept only if
the game's own move generator makes that move), one per symmetry class.  Forwards from the
spiral (or from ``--from-ply`` moves along the golden record), one of two searches:

* a beam search (the default): from each layer of positions, every move; the ``--width``
  positions that look best are kept for the next layer (fewest pieces with no neighbour,
  then pieces near the centre: ``promise``).  At ``--meet`` pieces each kept position is
  looked up.  It proves nothing when it finds nothing; when it finds a position of the
  backward set, the rest is searched and the whole line replayed.
* ``--depth-first``: the removal-puzzle search for the centre, which cuts positions with
  no piece near enough to it, stopping at ``--meet`` pieces to look the position up.  Run
  to the end, it proves that no line exists from its start.

Prints the backward sets' sizes, progress, and a solution if one is found (checked by
replaying it through the state API), or how far the search got.

Run: ``.venv/bin/python bench/spiral_centre.py [--width 2500] [--meet 6] [--depth-first [--minutes 20]]
[--from-ply N]``.  2026-11-27, this machine: the beam with width 2500 found a line in 11 minutes.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from engine import new_game
from engine.games.overpass_spiral import OverPassSpiral
from engine.games.removal_puzzle import Step
from engine.solvers import Budget
from engine.solvers.endgame import build
from engine.solvers.removal import PROBES, RemovalSearch
from engine.solvers.symmetry import Symmetries

GOLDEN = Path(__file__).parents[1] / "tests" / "data" / "overpass_spiral" / "one_piece_left.json"


def backward_sets(game: OverPassSpiral, pieces: int) -> set[int]:
    """The positions of ``pieces`` pieces from which one piece can end in the centre, one per symmetry class."""
    started = time.perf_counter()
    sets = build(game, pieces, centre=True)
    for k, found in enumerate(sets[1:], 2):
        print(f"  {k} pieces: {len(found):>10,} classes of positions can end in the centre", flush=True)
    print(f"  ({time.perf_counter() - started:.1f} s)", flush=True)
    return sets[-1]


def promise(game: OverPassSpiral, distance: list[int], mask: int) -> float:
    """How far a position looks from ending in the centre (lower is better): two for each piece with no
    neighbour (it cannot move or be taken until one comes), plus the pieces' mean and least distance to
    the centre in steps along the lines (the last piece walks there one step per move)."""
    steps = [distance[i] for i in range(mask.bit_length()) if mask >> i & 1]
    return 2 * game.stranded(mask) + sum(steps) / len(steps) + min(steps)


def beam(game: OverPassSpiral, start: int, width: int, meet: set[int], pieces: int) -> list[Step] | None:
    """A line from ``start`` to a position of the backward set ``meet`` (``pieces`` pieces), or None."""
    distance = [next(r for r, ring in enumerate(game.centre_rings) if ring >> i & 1)
                for i in range(len(game.locations))]
    symmetries = Symmetries(game.symmetries, len(game.locations))
    started = time.perf_counter()
    layer: dict[int, list[Step]] = {start: []}
    while layer and next(iter(layer)).bit_count() > pieces:
        following: dict[int, list[Step]] = {}
        for mask, path in layer.items():
            for step in game.steps(mask):
                child = mask ^ (1 << step[0]) ^ (1 << step[1]) ^ (1 << step[2])
                if child not in following and game.may_reach_centre(child):
                    following[child] = [*path, step]
        kept = sorted(following, key=lambda mask: promise(game, distance, mask))[:width]
        layer = {mask: following[mask] for mask in kept}
        print(f"  {start.bit_count() - len(next(iter(layer.values()), [])):>3} pieces: {len(following):>10,} "
              f"positions, {len(layer):,} kept ({time.perf_counter() - started:.0f} s)", flush=True)
    met = [mask for mask in layer if symmetries.canonical(mask) in meet]
    print(f"  at {pieces} pieces: {len(met):,} of the {len(layer):,} kept can end in the centre", flush=True)
    return layer[met[0]] if met else None


class MeetingSearch(RemovalSearch):
    """The search for the centre, ending at ``meet`` pieces with a look-up in the backward set."""

    def __init__(self, game: OverPassSpiral, budget: Budget, meet: set[int], pieces: int) -> None:
        super().__init__(game, budget, progress=self.report)
        self.meet, self.pieces, self.met = meet, pieces, 0

    def report(self, progress) -> None:
        print(f"  {progress.elapsed:7.0f} s {progress.explored:>13,} positions", flush=True)

    def _search(self, mask: int, limit: int | None = None, rows: int = len(PROBES)) -> bool | None:
        if mask.bit_count() == self.pieces:
            if self.symmetries.canonical(mask) in self.meet:
                self.met = mask
                return True
            return False
        return super()._search(mask, limit, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--meet", type=int, default=6, help="pieces where the searches meet (default 6)")
    parser.add_argument("--width", type=int, default=2500, help="positions the beam keeps per layer (default 2500)")
    parser.add_argument("--depth-first", action="store_true", help="search depth-first instead (proves a no)")
    parser.add_argument("--minutes", type=float, default=20.0, help="the depth-first search's time (default 20)")
    parser.add_argument("--from-ply", type=int, default=0, help="start this many moves along the golden record")
    args = parser.parse_args()
    state = new_game("overpass-spiral")
    game = state.game
    assert isinstance(game, OverPassSpiral)
    for text in json.loads(GOLDEN.read_text())["moves"][:args.from_ply]:
        state.apply(text)
    print(f"backwards from one piece in the centre, to {args.meet} pieces:")
    meet = backward_sets(game, args.meet)
    started = time.perf_counter()
    if args.depth_first:
        print(f"forwards, depth-first, from {state.mask.bit_count()} pieces ({args.from_ply} moves along the golden "
              f"record), {args.minutes:g} minutes at most:")
        search = MeetingSearch(game, Budget(args.minutes * 60), meet, args.meet)
        report = search.run(state.mask)
        if report.exhausted:
            print(f"no: every position from there that could still end in the centre was examined "
                  f"({search.positions:,}, {report.seconds:.0f} s); none does")
            return
        if not report.solved:
            print(f"not answered: {search.positions:,} positions in {report.seconds:.0f} s, search not finished")
            return
        path, met = report.path, search.met
    else:
        print(f"forwards, a beam {args.width:,} wide, from {state.mask.bit_count()} pieces:")
        found = beam(game, state.mask, args.width, meet, args.meet)
        if found is None:
            print("not answered: the beam kept no position that can end in the centre (this proves nothing)")
            return
        path, met = found, state.mask
        for step in found:
            met ^= (1 << step[0]) ^ (1 << step[1]) ^ (1 << step[2])
    rest = RemovalSearch(game, Budget(600)).run(met)
    assert rest.solved, "a position of the backward set always ends in the centre"
    moves = [str(move) for move in state.history] + [str(game.move_of(step)) for step in path + rest.path]
    check = new_game("overpass-spiral")
    for text in moves:
        check.apply(text)
    outcome = check.outcome()
    assert outcome is not None
    print(f"yes: {outcome.reason}, {len(moves)} moves, replayed ({time.perf_counter() - started:.0f} s forwards)")
    print(json.dumps(moves))


if __name__ == "__main__":
    main()
