"""How playouts pick their moves, where uniform random play says too little about a game.

A playout is the search's guess at how a position goes on: uniform random moves
(``State.random_move``) unless a game's random play hides what matters.  In Pawns
Crossing a turn is a roll, a pawn move or one of sixteen slides, and only the roll moves
tokens: at random a player would roll one turn in thirty and no token would get far in
a playout, so there a playout player rolls three turns in four.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.core import Move, State

PlayoutMove = Callable[[State, random.Random], Move]

#: The share of Pawns Crossing turns a playout player begins with a roll.
PAWNS_ROLLS = 0.75


def _pawns_crossing(state: State, rng: random.Random) -> Move:
    from engine.games.pawns_crossing import Roll

    if state.phase == "choose" and rng.random() < PAWNS_ROLLS:  # type: ignore[attr-defined]
        return Roll()
    return state.random_move(rng)


#: Game name -> its playout policy, for the games that need one.
POLICIES: dict[str, PlayoutMove] = {"pawns-crossing": _pawns_crossing}


def playout_move(game_name: str) -> PlayoutMove | None:
    """The game's playout policy; None for uniform random moves."""
    return POLICIES.get(game_name)
