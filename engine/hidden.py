"""What the rules hide and who may know it: Pawns Crossing's token values.

Pawns Crossing hides the value under every token from all but its owner until the
token is declared, which shows it to everyone.  Every colour's values are public as a
set (``token_values``), so what is unseen can be dealt at random from what each colour
has left.  Remote play publishes only the public position (its hash) and what a move
reveals; a participant learns a revealed value into its own copy of the setup.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Collection
from typing import Any

from engine.core import Move, State

#: The player no seat is: what every participant (and a spectator) sees.
PUBLIC = -1
#: The games whose rules hide values.
HIDING = frozenset({"pawns-crossing"})


def hides_values(state: State) -> bool:
    return state.game.name in HIDING


def seen_by(state: State, player: int) -> dict[str, Any]:
    """The position as ``player`` (or ``PUBLIC``) may see it: values it cannot know are None."""
    if not hides_values(state):
        return state.position()
    return state.position_seen_by(player)  # type: ignore[attr-defined]


def revealed(state: State, move: Move) -> dict[str, int]:
    """The hidden values ``move`` shows everyone (a declared token's), read before it is made."""
    from engine.games.pawns_moves import Declare

    if hides_values(state) and isinstance(move, Declare):
        return {move.token: state.values[move.token]}  # type: ignore[attr-defined]
    return {}


def deal_unseen(state: State, position: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``position`` (of ``state``'s game) with every unseen (None) value dealt at random from those its
    colour has left; the position is changed in place and returned."""
    if not hides_values(state):
        return position
    from engine.games.pawns_setup import colour_of, token_values

    tokens = position["tokens"]
    public = token_values(state.game.board.equipment, len(position["seats"]))  # type: ignore[attr-defined]
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
    return position


def learn(position: dict[str, Any], values: dict[str, Any], fixed: Collection[str]) -> dict[str, Any]:
    """``position`` (a setup whose unseen values were dealt at random) with ``values`` learnt: each token
    takes its revealed value, swapping with a token of its colour whose value was a guess.  ``fixed``
    are the tokens whose values are facts (a seat's own, those revealed before).  A value that cannot
    be, or a game that hides none, is a ValueError.  The position is changed in place and returned."""
    from engine.games.pawns_setup import colour_of

    tokens = position.get("tokens")
    if not isinstance(tokens, dict):
        raise ValueError("this game hides no values: a move reveals none")
    for token, value in values.items():
        entry = tokens.get(token) if isinstance(token, str) else None
        if entry is None:
            raise ValueError(f"no token {token!r} to reveal")
        if type(value) is not int:  # a bool or a float would equal a value, and take its place
            raise ValueError(f"token {token}: {value!r} is not a value")
        if entry["value"] == value:
            continue
        if token in fixed:
            raise ValueError(f"token {token} is known to hold {entry['value']}, not {value!r}")
        other = next((name for name, other in sorted(tokens.items()) if name != token and name not in fixed
                      and colour_of(name) == colour_of(token) and other["value"] == value), None)
        if other is None:
            raise ValueError(f"no {colour_of(token)} token left may hold {value!r}")
        tokens[other]["value"], entry["value"] = entry["value"], value
    return position


def facts(state: State, players: Collection[int]) -> set[str]:
    """The tokens whose values ``players`` know for certain: their own, and those declared so far."""
    if not hides_values(state):
        return set()
    owned = {token for player in players for token in state.token_values(player)}  # type: ignore[attr-defined]
    return owned | set(state.shown)  # type: ignore[attr-defined]
