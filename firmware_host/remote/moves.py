"""Moves heard from the broker: who makes each, the checks before one is applied, and what it reveals.

The same for a board (``firmware_host.daemon``) and a spectator: a move is applied only if
it comes from the holder of the seat to move, is legal, and leads to the position its sender
reached (the hashes agree).  A hidden value it reveals (Pawns Crossing's declared token) must open
its sender's seal (``seals``); it is learnt into the game's setup first, and the game replayed on it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from typing import Any

from engine.core import IllegalMoveError, Move, State
from engine.hidden import facts, learn, revealed
from engine.registry import state_from_json
from firmware_host.remote.protocol import MoveMessage, position_hash
from firmware_host.remote.seals import Seals, openings, revealed_values


def mover(state: State) -> int:
    """Who makes the next move: the player to move or, at a chance node, the player whose roll it is."""
    if not state.is_chance_node():
        return state.current_player
    state.push(state.chance_outcomes()[0][0])
    try:
        return state.current_player
    finally:
        state.pop()


def check(state: State, message: MoveMessage, holder: str | None) -> Move | str:
    """The move ``message`` carries if it comes from ``holder``, is legal in ``state`` and leads to the
    position its sender reached; else why not."""
    if message.by != holder:
        return f"{message.by} does not hold the seat to move ({holder} does)"
    try:
        move = state.parse_move(message.move)
    except IllegalMoveError as exc:
        return str(exc)
    state.push(move)
    try:
        reached = position_hash(state)
    finally:
        state.pop()
    if reached != message.hash:
        return f"it leads to position {reached} here, not {message.hash}: the boards' games differ"
    return move


def learnt(setup: dict[str, Any], message: MoveMessage, seals: Seals | None, state: State,
           known_to: Collection[int]) -> dict[str, Any]:
    """``setup`` (``State.to_json()`` of the game's start) with the values ``message`` reveals learnt, each
    opening its sender's ``seals``, given what the players ``known_to`` know for certain in ``state``; a
    ValueError if they do not open the seals or cannot be this game's."""
    values = revealed_values(state, message.move, message.reveal, seals)
    if not values:
        return setup
    position = learn(json.loads(json.dumps(setup["position"])), values, facts(state, known_to))
    return {**setup, "position": position}


def replay(setup: dict[str, Any], moves: Sequence[str]) -> State:
    state = state_from_json(setup)
    for move in moves:
        state.apply(move)
    return state


def published(state: State, name: str, holds: Callable[[int], bool],
              key: str | None = None) -> dict[int, MoveMessage]:
    """The moves of the seats ``name`` holds in ``state``'s history, as they were published (what they reveal
    opened with the salts of the game's secret ``key``: needed in a game hiding values)."""
    messages, plies = {}, len(state.history)
    popped = [state.pop() for _ in range(plies)]  # popped[i] is the move of ply plies - i
    try:
        for seq, move in enumerate(reversed(popped), 1):
            made_by, reveal = mover(state), openings(key, revealed(state, move))
            state.push(move)
            if holds(made_by):
                messages[seq] = MoveMessage(seq, str(move), name, position_hash(state), reveal)
    finally:
        while len(state.history) < plies:
            state.push(popped[plies - 1 - len(state.history)])
    return messages
