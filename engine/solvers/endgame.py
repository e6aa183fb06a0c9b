"""Endgame tables for the removal puzzles: every position of a few pieces that can still be won.

Built backwards from the wins: a move undone puts the landing piece back beside the
piece it removed and the mover back beside that piece's group (in both puzzles the
mover stands beside the group holding the piece it takes off, which stands beside the
landing); each candidate is kept only if the game's own move generator makes that move.
One position per symmetry class is built and stored; a loaded table holds every image.

A search that reaches a table's size of position looks it up instead of searching on.
The Spiral's table for one piece anywhere (5 pieces, 379,189 positions) takes some 4 s
to build here and four times that on a Pi 4, so it ships, built by
``python -m engine.solvers.endgame``; a table that does not match the board it is loaded
for is refused with a warning, and the search goes on without it.
"""

from __future__ import annotations

import argparse
import logging
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from hashlib import sha256
from pathlib import Path

from engine.bitsets import members
from engine.games.removal_puzzle import RemovalPuzzle
from engine.registry import game_class
from engine.solvers.symmetry import Symmetries

log = logging.getLogger(__name__)

DATA = Path(__file__).parent / "data"
MAGIC = b"gameboard endgame 1\n"
#: The tables that ship: puzzle name -> pieces (aim: one piece anywhere).
SHIPPED = {"overpass-spiral": 5}


@dataclass(frozen=True)
class EndgameTable:
    """The positions of ``pieces`` pieces from which the puzzle's aim can be reached."""

    pieces: int
    positions: frozenset[int]

    def __contains__(self, mask: int) -> bool:
        return mask in self.positions


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


def encode(game: RemovalPuzzle, pieces: int, classes: set[int]) -> bytes:
    """A table file: a header, the board's fingerprint, then each class's intersections, compressed."""
    body = bytes(i for mask in sorted(classes) for i in members(mask))
    return MAGIC + bytes([pieces]) + fingerprint(game) + zlib.compress(body, 9)


def decode(game: RemovalPuzzle, data: bytes) -> EndgameTable:
    """The table in ``data``, every symmetric image included; ValueError if it is not one for ``game``."""
    head = len(MAGIC)
    if not data.startswith(MAGIC) or len(data) < head + 17:
        raise ValueError("not an endgame table")
    pieces = data[head]
    if data[head + 1:head + 17] != fingerprint(game):
        raise ValueError(f"built for another board or other rules than {game.name}'s")
    body = zlib.decompress(data[head + 17:])
    if len(body) % pieces:
        raise ValueError("truncated")
    symmetries = game.symmetries

    def images() -> Iterator[int]:
        for k in range(0, len(body), pieces):
            cells = body[k:k + pieces]
            for perm in symmetries:
                mask = 0
                for i in cells:
                    mask |= 1 << perm[i]
                yield mask

    return EndgameTable(pieces, frozenset(images()))


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
