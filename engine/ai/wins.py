"""Moves that win at once, found without trying every move: what playouts and candidates play first.

Hexover is won by completing one of twelve paths of five cells, and a drop fills one cell
and flips what it outflanks: only a path with at most one empty cell can be completed in
one move (by a drop on that cell, or, with none empty, by a drop whose flips take every
opposing disk on it).  Checking those few paths is far cheaper than pushing each drop.
"""

from __future__ import annotations

from engine.core import State


def hexover_winning_drop(state: State, player: int | None = None) -> int | None:
    """A cell (index) where a drop of ``player`` (default: the mover) completes a winning path, or None.

    For the player not to move this answers "what would they win with, were it their turn",
    the threat a move must leave unanswered.
    """
    from engine.games.hexover import EMPTY

    if state.result is not None:  # type: ignore[attr-defined]
        return None
    mover = state.mover if player is None else player  # type: ignore[attr-defined]
    cells, paths = state.cells, state.t.paths  # type: ignore[attr-defined]
    drops: list[int] | None = state.drops if mover == state.mover else None  # type: ignore[attr-defined]
    for path in paths:
        empty = -1
        opposing = []
        for k in path:
            content = cells[k]
            if content == EMPTY:
                if empty >= 0:
                    break
                empty = k
            elif content != mover:
                opposing.append(k)
        else:
            if drops is None:
                drops = state._drop_cells(mover)  # type: ignore[attr-defined]
            for cell in ([empty] if empty >= 0 else drops):
                if cell in drops and _takes_all(state, mover, cell, opposing):
                    return cell
    return None


def _takes_all(state: State, mover: int, cell: int, opposing: list[int]) -> bool:
    if not opposing:
        return True
    flipped = set(state.flips(mover, cell))  # type: ignore[attr-defined]
    return all(k in flipped for k in opposing)
