"""How playouts pick their moves, where uniform random play says too little about a game.

A playout is the search's guess at how a position goes on: uniform random moves
(``State.random_move``) unless a game's random play hides what matters.

- Pawns Crossing: a turn is a roll, a pawn move or one of sixteen slides, and only the
  roll moves tokens: at random a player would roll one turn in thirty and no token would
  get far in a playout, so a playout player rolls three turns in four.
- Mono-Line: the first player loses a game in which both place all their pieces, so
  the game is won by blocking, and random placements block nothing in particular.  Every
  other placement of a playout takes the open intersection whose lines close the most
  intersections still open to the opponent.
- Hexover: a quarter of random positions offer a player a winning path at once, which a
  random player mostly misses: a playout player completes a path whenever one drop does.
- Square Off: a random player forms a row only by chance; a playout player forms one
  whenever a move does, but for a share of its moves made at random.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.ai.wins import hexover_winning_drop
from engine.core import Move, State

PlayoutMove = Callable[[State, random.Random], Move]

#: The share of Pawns Crossing turns a playout player begins with a roll.
PAWNS_ROLLS = 0.75


def _pawns_crossing(state: State, rng: random.Random) -> Move:
    from engine.games.pawns_moves import Roll

    if state.phase == "choose" and rng.random() < PAWNS_ROLLS:  # type: ignore[attr-defined]
        return Roll()
    return state.random_move(rng)


#: The share of Mono-Line playout placements made at random rather than blocking the most.
MONO_RANDOM = 0.5


def _mono_line(state: State, rng: random.Random) -> Move:
    from engine.games.mono_line import Place

    if state.pending is not None or state.conflict() or rng.random() < MONO_RANDOM:  # type: ignore[attr-defined]
        return state.random_move(rng)
    closing = state.closing()  # type: ignore[attr-defined]
    if not closing:  # only blocked placements left (the faithful and friendly modes allow them)
        return state.random_move(rng)
    most = max(count for _, count in closing)
    point = rng.choice([point for point, count in closing if count == most])
    return Place(state.placing_colour(), state.game.locations[point])  # type: ignore[attr-defined]


def _hexover(state: State, rng: random.Random) -> Move:
    from engine.games.hexover import Drop

    win = hexover_winning_drop(state)
    return state.random_move(rng) if win is None else Drop(state.t.cells[win])  # type: ignore[attr-defined]


#: The share of Square Off playout moves made at random even where a move would form a row.
SQUAREOFF_RANDOM = 0.2


def _squareoff(state: State, rng: random.Random) -> Move:
    from engine.games.squareoff_moves import EMPTY, Jump, Place, Slide

    moves = list(state.generate_moves())
    if state.captures or rng.random() < SQUAREOFF_RANDOM:  # type: ignore[attr-defined]
        return rng.choice(moves)
    player, index, rows = state.current_player, state.t.index, state._rows  # type: ignore[attr-defined]
    forming = [move for move in moves
               if (isinstance(move, Place) and rows(player, index[move.point], EMPTY))
               or (isinstance(move, (Slide, Jump)) and rows(player, index[move.target], index[move.origin]))]
    return rng.choice(forming or moves)


#: Game name -> its playout policy, for the games that need one.
POLICIES: dict[str, PlayoutMove] = {"pawns-crossing": _pawns_crossing, "mono-line": _mono_line,
                                    "hexover": _hexover, "squareoff": _squareoff}


def playout_move(game_name: str) -> PlayoutMove | None:
    """The game's playout policy; None for uniform random moves."""
    return POLICIES.get(game_name)
