"""What a seat can know: positions sampled from a seat's view where the rules hide values.

Pawns Crossing hides the value under every token from all but its owner until a
declaration shows it (the token goes home, or back to its ace: shown for good).  A sample
keeps everything the seat can see, the values shown among it, and deals the values it
cannot see at random from those still unaccounted for in each colour (``engine.hidden``).
The real values are never read: the sample starts from what the seat sees.
"""

from __future__ import annotations

import random

from engine.core import State
from engine.hidden import deal_unseen, hides_values, seen_by

__all__ = ["hides_values", "sample"]


def sample(state: State, player: int, rng: random.Random) -> State:
    """A position ``player`` cannot tell from ``state``, its hidden values dealt at random."""
    return state.game.state_from_position(deal_unseen(state, seen_by(state, player), rng))
