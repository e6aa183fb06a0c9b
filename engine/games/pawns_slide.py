"""Pawns Crossing's slide: the Pusher pushes a row or column of tiles and dominoes one place on."""

from __future__ import annotations

from engine.boards.pawns_layout import PawnsBoard
from engine.games.pawns_moves import Slide
from engine.games.pawns_setup import Domino, Tile


def push_line(board: PawnsBoard, move: Slide, tile_at: dict[str, Tile], domino_at: dict[str, Domino],
              pusher: Domino, pusher_at: str | None) -> tuple[dict[str, str], Domino, str]:
    """Push the line: tiles and dominoes move one place on, tokens riding along.

    The Pusher (with any token on it) is brought to the entry end and enters the
    line; the last tile re-enters at the entry end; the last domino, pushed out at
    the far end, lies there as the new Pusher.  Dominoes keep their orientation.
    ``tile_at`` and ``domino_at`` are changed in place; returned are where the contents of each
    space that moved went (a token there rides along), the new Pusher and its place.
    """
    line = board.lines[move.line]
    forward = move.direction == line.forward
    tiles = list(line.tiles) if forward else list(reversed(line.tiles))
    slots = list(line.slots) if forward else list(reversed(line.slots))
    exit_place = line.ends[1] if forward else line.ends[0]
    to = {tiles[i]: tiles[(i + 1) % len(tiles)] for i in range(len(tiles))}
    carried = list(zip(slots, slots[1:] + [exit_place]))
    if pusher_at:
        carried.append((pusher_at, slots[0]))
    for source, target in carried:
        to.update(zip(board.halves(source), board.halves(target)))
    old_tiles = [tile_at[t] for t in tiles]
    for i, place in enumerate(tiles):
        tile_at[place] = old_tiles[i - 1]
    old = [domino_at[s] for s in slots]
    domino_at[slots[0]] = pusher
    for i in range(1, len(slots)):
        domino_at[slots[i]] = old[i - 1]
    return to, old[-1], exit_place
