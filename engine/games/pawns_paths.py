"""Pawns Crossing's token paths: the spaces a token may end on with the number its die shows
(see the rule readings in docs/rules.md)."""

from __future__ import annotations

from engine.boards.pawns_layout import PawnsBoard
from engine.games.pawns_setup import Domino, Tile


def destinations(board: PawnsBoard, start: str, colour: str, roll: int, tile_at: dict[str, Tile],
                 domino_at: dict[str, Domino], pusher: Domino, pusher_at: str | None,
                 where: dict[str, str | None], pawns: dict[str, str | None]) -> list[str]:
    """The spaces the token of ``colour`` on ``start`` may end on with ``roll``; ``where`` places
    every token, ``pawns`` every pawn, the rest is what lies where."""
    from_tile = start in tile_at
    on_dominoes = {at for at in where.values() if at and at not in tile_at}
    blocked = {hole for c, hole in pawns.items() if hole and c != colour}
    found: dict[str, None] = {}
    seen = {start}
    stack = [start]
    while stack:
        space = stack.pop()
        for step, hole in board.links[space]:
            if hole in blocked or step == start:
                continue
            if step in tile_at:
                if not from_tile:
                    found[step] = None
                continue
            if step in board.pusher_halves and board.half_slot[step][0] != pusher_at:
                continue
            if step not in on_dominoes:
                found[step] = None
            value = 0 if step in on_dominoes else space_value(board, step, tile_at, domino_at, pusher)
            if value < roll and step not in seen:
                seen.add(step)
                stack.append(step)
    return list(found)


def space_value(board: PawnsBoard, space: str, tile_at: dict[str, Tile], domino_at: dict[str, Domino],
                pusher: Domino) -> int:
    """The number on a space: a tile's rank, a half-domino's pips."""
    if space in tile_at:
        return tile_at[space][1]
    slot, half = board.half_slot[space]
    return domino_at.get(slot, pusher)[half]
