"""Which moves the tree tries at a decision, where a game offers many that a cheap ranking narrows.

Mono-Line offers some two hundred placements: every open intersection in either of the
player's two colours.  The colour changes nothing but which supply a piece comes from,
so the tree tries each intersection once, in the colour with more pieces left, and of
those only the ``MONO_LINE`` that close the most intersections still open to the
opponent: 300 simulations then look at a dozen placements some twenty-five times each,
not at two hundred once or twice (measured in the arena: against the greedy baseline
this took the computer from 29 wins in 40 to 40).

Hexover: a drop that completes a path is the only candidate; otherwise the drops after
which the opponent cannot complete one at once (all of them where each lets them), so the
tree sees a win or a loss one move ahead without spending simulations to find it.

Over-Pass offers some 300 moves a step in the middle game: the tree tries the ``OVERPASS``
that gain the most (every Exit first, then by how much nearer an exit point they bring the
mover's pieces and how much farther the others', by the evaluation's worth of each
intersection) and ``end`` or ``return`` where legal, so a few hundred simulations look
several steps deep instead of trying each move once.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.ai.evaluate import overpass_worth
from engine.ai.wins import hexover_winning_drop
from engine.core import Move, State

Candidates = Callable[[State], list[Move]]

#: Mono-Line placements the tree tries at a decision.
MONO_LINE = 12


def _mono_line(state: State) -> list[Move]:
    from engine.games.mono_line import Place

    if state.pending is not None or state.conflict():  # type: ignore[attr-defined]
        return list(state.legal_moves)
    ranked = sorted(state.closing(), key=lambda pair: -pair[1])  # type: ignore[attr-defined]
    colour, locations = state.placing_colour(), state.game.locations  # type: ignore[attr-defined]
    return [Place(colour, locations[point]) for point, _ in ranked[:MONO_LINE]] or list(state.legal_moves)


#: Over-Pass board moves the tree tries at a decision (besides ``end`` or ``return``).
OVERPASS = 12
#: What an Exit is worth in the ranking, against a piece's worth on the board (``overpass_worth``).
OVERPASS_EXIT = 2.0


def _overpass(state: State) -> list[Move]:
    from engine.games.overpass_moves import MOVE, BoardMove

    moves = list(state.legal_moves)
    if state.phase != MOVE or len(moves) <= OVERPASS + 1:  # type: ignore[attr-defined]
        return moves
    gain = _overpass_gain(state)
    board_moves = [move for move in moves if isinstance(move, BoardMove)]
    board_moves.sort(key=gain, reverse=True)
    return board_moves[:OVERPASS] + [move for move in moves if not isinstance(move, BoardMove)]


def _overpass_gain(state: State) -> Callable[[Move], float]:
    """How much a move brings the mover's pieces nearer home and the others' pieces away from it."""
    from engine.games.overpass_moves import Exit, OverPassMove, Slide, Trade

    game, cells, player = state.game, state.cells, state.current_player  # type: ignore[attr-defined]
    worth = overpass_worth(game.board_name)
    owner = game.owner

    def side(point: str) -> int:
        return 1 if owner[cells[point]] == player else -1

    def gain(move: Move) -> float:
        if isinstance(move, Exit):
            return OVERPASS_EXIT
        if isinstance(move, (OverPassMove, Slide)):
            return side(move.start) * (worth[move.end] - worth[move.start])
        if isinstance(move, Trade):
            return (side(move.a) - side(move.b)) * (worth[move.b] - worth[move.a])
        return 0.0

    return gain


def _hexover(state: State) -> list[Move]:
    from engine.games.hexover import Drop

    win = hexover_winning_drop(state)
    if win is not None:
        return [Drop(state.t.cells[win])]  # type: ignore[attr-defined]
    moves = list(state.legal_moves)
    if len(moves) == 1:
        return moves
    safe = []
    for move in moves:
        state.push(move)
        if hexover_winning_drop(state) is None:
            safe.append(move)
        state.pop()
    return safe or moves


#: Game name -> the moves its tree tries, for the games that narrow them.
CANDIDATES: dict[str, Candidates] = {"mono-line": _mono_line, "hexover": _hexover, "overpass": _overpass}


def candidates(game_name: str) -> Candidates | None:
    """How the game narrows the moves its tree tries; None for every legal move."""
    return CANDIDATES.get(game_name)
