"""What a seat can know: positions sampled from a seat's view where the rules hide values.

Pawns Crossing hides the value under every token from all but its owner until the
token goes home.  A sample keeps everything the seat can see and deals the values it
cannot see at random from those still unaccounted for in each colour (every colour's
values are public: each destination rank, and a null with 3-4 players).  The real
values are never read: the sample starts from ``position_seen_by``.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable

from engine.core import State

Sampler = Callable[[State, int, random.Random], State]


def _pawns_crossing(state: State, player: int, rng: random.Random) -> State:
    from engine.games.pawns_setup import colour_of, token_values

    seen = state.position_seen_by(player)  # type: ignore[attr-defined]
    tokens = seen["tokens"]
    public = token_values(state.game.board.equipment, len(seen["seats"]))  # type: ignore[attr-defined]
    known: dict[str, Counter[int]] = defaultdict(Counter)
    unknown: dict[str, list[str]] = defaultdict(list)
    for token, entry in tokens.items():
        if entry["value"] is None:
            unknown[colour_of(token)].append(token)
        else:
            known[colour_of(token)][entry["value"]] += 1
    for colour, hidden in unknown.items():
        pool = list((Counter(public) - known[colour]).elements())
        rng.shuffle(pool)
        for token, value in zip(sorted(hidden), pool):
            tokens[token]["value"] = value
    return state.game.state_from_position(seen)


#: Game name -> how to sample a position consistent with what a seat can see.
SAMPLERS: dict[str, Sampler] = {"pawns-crossing": _pawns_crossing}


def hides_values(state: State) -> bool:
    return state.game.name in SAMPLERS


def sample(state: State, player: int, rng: random.Random) -> State:
    """A position ``player`` cannot tell from ``state``, its hidden values dealt at random."""
    return SAMPLERS[state.game.name](state, player, rng)
