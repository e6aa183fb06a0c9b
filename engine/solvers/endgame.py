"""Endgame tables for the removal puzzles: every position of a few pieces that can still be won.

Built backwards from the wins: a move undone puts the landing piece back beside the
piece it removed and the mover back beside that piece's group (in both puzzles the
mover stands beside the group holding the piece it takes off, which stands beside the
landing); each candidate is kept only if the game's own move generator makes that move.
One position per symmetry class is built, stored and held: a position is looked up by its
class, the image of it that is the smallest bitset.  Each class is held as its rank among
the sets of that many intersections (colexicographic, the order of the bitsets), in a sorted
array: a few megabytes where a set of every image would take hundreds.

A search that reaches a table's size of position looks it up instead of searching on.
The Spiral's table for one piece anywhere (6 pieces, 626,679 classes) takes some 80 s to
build here and four times that on a Pi 4, so it ships, built by
``python -m engine.solvers.endgame``; a table that does not match the board it is loaded
for is refused with a warning, and the search goes on without it.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from functools import cache
from hashlib import sha256
from itertools import accumulate
from math import comb
from pathlib import Path

from engine.bitsets import members
from engine.games.removal_puzzle import RemovalPuzzle
from engine.registry import game_class
from engine.solvers.symmetry import Symmetries

log = logging.getLogger(__name__)

DATA = Path(__file__).parent / "data"
MAGIC = b"gameboard endgame 2\n"
#: The tables that ship: puzzle name -> pieces (aim: one piece anywhere).
SHIPPED = {"overpass-spiral": 6}


class EndgameTable:
    """The positions of ``pieces`` pieces from which the puzzle's aim can be reached, one rank per symmetry class."""

    def __init__(self, pieces: int, ranks: array, symmetries: Symmetries) -> None:
        self.pieces = pieces
        self.ranks = ranks
        self.symmetries = symmetries
        self._comb = binomials(len(symmetries.bits[0]), pieces)

    def __len__(self) -> int:
        return len(self.ranks)

    def __contains__(self, mask: int) -> bool:
        if mask.bit_count() != self.pieces:
            return False
        rank = colex_rank(self.symmetries.canonical(mask), self._comb)
        k = bisect_left(self.ranks, rank)
        return k < len(self.ranks) and self.ranks[k] == rank


def binomials(size: int, pieces: int) -> list[list[int]]:
    """``comb(i, k)`` at ``[i][k]``, for the ``size`` intersections and up to ``pieces`` pieces."""
    return [[comb(i, k) for k in range(pieces + 1)] for i in range(size)]


def colex_rank(mask: int, table: Sequence[Sequence[int]]) -> int:
    """The rank of ``mask`` among the bitsets of as many bits, in the order of the bitsets (``table`` from
    ``binomials``)."""
    return sum(table[i][k] for k, i in enumerate(members(mask), 1))


def predecessors(game: RemovalPuzzle, after: int) -> set[int]:
    """Every position one move before ``after``."""
    found = set()
    near = game.neighbour_masks
    for landing in members(after):
        for last in members(near[landing] & ~after):
            before = after & ~(1 << landing) | 1 << last
            for start in members(game.around(game.group(before, 1 << last)) & ~before & ~(1 << landing)):
                if (start, landing, last) in game.steps_from(before | 1 << start, start):
                    found.add(before | 1 << start)
    return found


def build(game: RemovalPuzzle, pieces: int, centre: bool) -> list[set[int]]:
    """``sets[k - 1]``: one position per symmetry class of k pieces that can still be won, k = 1 .. ``pieces``."""
    symmetries = Symmetries(game.symmetries, len(game.locations))
    wins = [1 << game.goal] if centre else [1 << i for i in range(len(game.locations))]
    sets = [{symmetries.canonical(mask) for mask in wins}]
    while len(sets) < pieces:
        sets.append({symmetries.canonical(before) for after in sets[-1] for before in predecessors(game, after)})
    return sets


def fingerprint(game: RemovalPuzzle) -> bytes:
    """What a table depends on: the puzzle's rules and the board's lines, as a short digest."""
    lines = ";".join(f"{p}:{','.join(sorted(game.line_board.neighbours[p]))}" for p in game.locations)
    return sha256(f"{game.name}|{lines}".encode()).digest()[:16]


def encode(game: RemovalPuzzle, pieces: int, positions: Iterable[int]) -> bytes:
    """A table file of ``positions`` and their images: a header, the board's fingerprint, then the rank of
    each symmetry class, as gaps between them (unsigned 64-bit little-endian), compressed."""
    symmetries = Symmetries(game.symmetries, len(game.locations))
    table = binomials(len(game.locations), pieces)
    ranks = sorted({colex_rank(symmetries.canonical(mask), table) for mask in positions})
    gaps = array("Q", (b - a for a, b in zip([0, *ranks], ranks)))
    if sys.byteorder == "big":
        gaps.byteswap()
    return MAGIC + bytes([pieces]) + fingerprint(game) + zlib.compress(gaps.tobytes(), 9)


def decode(game: RemovalPuzzle, data: bytes) -> EndgameTable:
    """The table in ``data``; ValueError if it is not one for ``game``."""
    head = len(MAGIC)
    if not data.startswith(MAGIC) or len(data) < head + 17:
        raise ValueError("not an endgame table")
    pieces = data[head]
    if data[head + 1:head + 17] != fingerprint(game):
        raise ValueError(f"built for another board or other rules than {game.name}'s")
    body = zlib.decompress(data[head + 17:])
    if len(body) % 8:
        raise ValueError("truncated")
    gaps = array("Q", body)
    if sys.byteorder == "big":
        gaps.byteswap()
    if 0 in gaps[1:]:
        raise ValueError("ranks out of order")
    return EndgameTable(pieces, array("Q", accumulate(gaps)), Symmetries(game.symmetries, len(game.locations)))


def table_path(name: str) -> Path:
    return DATA / f"{name}-endgame-{SHIPPED[name]}.bin"


@cache
def shipped_table(name: str) -> EndgameTable | None:
    """The table that ships for the puzzle ``name`` (one piece anywhere), or None."""
    if name not in SHIPPED:
        return None
    path = table_path(name)
    game = game_class(name)()
    assert isinstance(game, RemovalPuzzle)
    try:
        return decode(game, path.read_bytes())
    except (OSError, ValueError, zlib.error) as exc:
        log.warning("%s: endgame table not used (%s); run python -m engine.solvers.endgame to build it", path, exc)
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description="Build the endgame tables that ship with the removal puzzles.")
    parser.parse_args()
    for name, pieces in SHIPPED.items():
        game = game_class(name)()
        assert isinstance(game, RemovalPuzzle)
        started = time.perf_counter()
        sets = build(game, pieces, centre=False)
        path = table_path(name)
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(encode(game, pieces, sets[-1]))
        print(f"{path}: {len(sets[-1]):,} classes of {pieces} pieces that can end with one piece "
              f"({', '.join(f'{len(s):,}' for s in sets)} for 1 to {pieces}), {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
