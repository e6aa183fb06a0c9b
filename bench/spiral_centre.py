"""Can the Over-Pass Spiral's last piece end in the centre?  A search that meets in the middle.

Backwards from one piece in the centre: every position of 2, 3, ... ``--meet`` pieces from
which the centre can be reached (a move undone: the landing piece goes back to the piece
it passed last, the mover comes back beside the bridge; each kept only if the game's own
move generator makes that move).  Forwards from the spiral (or from ``--from-ply`` moves
along the golden record): the removal-puzzle depth-first search for the centre, which
cuts positions with no piece near enough to it, stopping at ``--meet`` pieces to look the
position up in the backward set.  Prints the backward sets' sizes, progress, and a
solution if one is found (checked by replaying it), or that none exists from there if
the search is exhausted.

Run: ``.venv/bin/python bench/spiral_centre.py [--meet 6] [--minutes 20] [--from-ply N]``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from engine import new_game
from engine.games.overpass_spiral import OverPassSpiral
from engine.solvers import Budget
from engine.solvers.endgame import build
from engine.solvers.removal import RemovalSearch

GOLDEN = Path(__file__).parents[1] / "tests" / "data" / "overpass_spiral" / "one_piece_left.json"


def backward_sets(game: OverPassSpiral, pieces: int) -> set[int]:
    """The positions of ``pieces`` pieces from which one piece can end in the centre, one per symmetry class."""
    started = time.perf_counter()
    sets = build(game, pieces, centre=True)
    for k, found in enumerate(sets[1:], 2):
        print(f"  {k} pieces: {len(found):>10,} classes of positions can end in the centre", flush=True)
    print(f"  ({time.perf_counter() - started:.1f} s)", flush=True)
    return sets[-1]


class MeetingSearch(RemovalSearch):
    """The search for the centre, ending at ``meet`` pieces with a look-up in the backward set."""

    def __init__(self, game: OverPassSpiral, budget: Budget, meet: set[int], pieces: int) -> None:
        super().__init__(game, budget, progress=self.report)
        self.meet, self.pieces, self.met = meet, pieces, 0

    def report(self, progress) -> None:
        print(f"  {progress.elapsed:7.0f} s {progress.explored:>13,} positions", flush=True)

    def _dfs(self, mask: int) -> bool:
        if mask.bit_count() == self.pieces:
            if self.symmetries.canonical(mask) in self.meet:
                self.met = mask
                return True
            return False
        return super()._dfs(mask)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--meet", type=int, default=6, help="pieces where the searches meet (default 6)")
    parser.add_argument("--minutes", type=float, default=20.0, help="the forward search's time (default 20)")
    parser.add_argument("--from-ply", type=int, default=0, help="start this many moves along the golden record")
    args = parser.parse_args()
    state = new_game("overpass-spiral")
    game = state.game
    assert isinstance(game, OverPassSpiral)
    for text in json.loads(GOLDEN.read_text())["moves"][:args.from_ply]:
        state.apply(text)
    print(f"backwards from one piece in the centre, to {args.meet} pieces:")
    meet = backward_sets(game, args.meet)
    print(f"forwards from {state.mask.bit_count()} pieces ({args.from_ply} moves along the golden record), "
          f"{args.minutes:g} minutes at most:")
    search = MeetingSearch(game, Budget(args.minutes * 60), meet, args.meet)
    report = search.run(state.mask)
    if report.solved:
        rest = RemovalSearch(game, Budget(600)).run(search.met)
        assert rest.solved, "a position of the backward set always ends in the centre"
        moves = [str(move) for move in state.history] + [str(game.move_of(step)) for step in report.path + rest.path]
        check = new_game("overpass-spiral")
        for text in moves:
            check.apply(text)
        print(f"yes: {check.outcome().reason}, {search.positions:,} positions, {report.seconds:.0f} s")
        print(json.dumps(moves))
    elif report.exhausted:
        print(f"no: every position from there that could still end in the centre was examined "
              f"({search.positions:,}, {report.seconds:.0f} s); none does")
    else:
        print(f"not answered: {search.positions:,} positions in {report.seconds:.0f} s, search not finished")


if __name__ == "__main__":
    main()
