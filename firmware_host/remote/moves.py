"""Moves heard from the broker: who makes each, the checks before one is applied, and what it reveals.

The same for a board (``firmware_host.daemon``) and a spectator: a move is applied only if
it comes from the holder of the seat to move, is legal, and leads to the history its sender
reached (the chained hashes agree: each covers the one before, so a move binds every move
before it).  A hidden value it reveals (Pawns Crossing's declared token) must open its sender's
seal (``seals``); it is learnt into the game's setup first, and the game replayed on it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from typing import Any, Protocol

from engine.core import IllegalMoveError, Move, State
from engine.hidden import facts, hides_values, learn, revealed
from engine.registry import state_from_json
from firmware_host.remote.protocol import MoveMessage, chained_hash, position_hash
from firmware_host.remote.seals import Seals, openings, revealed_values


class Chain:
    """The chained hash after each ply of a game, kept as it goes: ``hashes[n]`` is what the move message of
    ply ``n`` carries, ``hashes[0]`` the setup's position hash.  Built once from a state's history, then
    extended by ``record`` at each move and ``cut`` at a takeback, so no check replays the game."""

    def __init__(self, state: State) -> None:
        plies = len(state.history)
        popped = [state.pop() for _ in range(plies)]  # popped[i] is the move of ply plies - i
        self.hashes = [position_hash(state)]
        try:
            for move in reversed(popped):
                state.push(move)
                self.record(state)
        finally:
            while len(state.history) < plies:
                state.push(popped[plies - 1 - len(state.history)])

    def __len__(self) -> int:
        """The plies the chain covers."""
        return len(self.hashes) - 1

    @property
    def head(self) -> str:
        return self.hashes[-1]

    def following(self, state: State) -> str:
        """The chained hash of ``state``, whose last move is the ply after the chain's last."""
        return chained_hash(self.head, len(self.hashes), str(state.history[-1]), position_hash(state))

    def record(self, state: State) -> None:
        """Extend the chain by ``state``'s last move, just made."""
        if len(state.history) != len(self.hashes):
            raise ValueError(f"the chain covers {len(self)} plies; a state of {len(state.history)} does not follow")
        self.hashes.append(self.following(state))

    def cut(self, plies: int) -> None:
        """Keep the first ``plies`` plies: the rest were taken back."""
        del self.hashes[plies + 1:]


class Rolls(Protocol):
    """A game's fair dice (``dice.FairDice``) as the checks of a move ask them: why a roll is not theirs."""

    def wrong(self, state: State, chain: Chain, message: MoveMessage) -> str: ...


def mover(state: State) -> int:
    """Who makes the next move: the player to move or, at a chance node, the player whose roll it is."""
    if not state.is_chance_node():
        return state.current_player
    state.push(state.chance_outcomes()[0][0])
    try:
        return state.current_player
    finally:
        state.pop()


def check(state: State, chain: Chain, message: MoveMessage, holder: str | None) -> Move | str:
    """The move ``message`` carries if it comes from ``holder``, is legal in ``state`` (whose history
    ``chain`` covers) and leads to the history its sender reached; else why not."""
    if message.by != holder:
        return f"{message.by} does not hold the seat to move ({holder} does)"
    try:
        move = state.parse_move(message.move)
    except IllegalMoveError as exc:
        return str(exc)
    state.push(move)
    try:
        reached = chain.following(state)
    finally:
        state.pop()
    if reached != message.hash:
        return f"it leads to history {reached} here, not {message.hash}: the boards' games differ"
    return move


def check_learning(state: State, chain: Chain, message: MoveMessage, holder: str | None,
                   setup: Callable[[], dict[str, Any]], seals: Seals | None, known_to: Collection[int],
                   dice: Rolls | None) -> tuple[Move | str, dict[str, Any] | None, State]:
    """``check`` of ``message`` (from ``holder``, its seat's) in a copy of ``state`` that learnt the values it
    reveals, each opening its sender's ``seals`` (``setup()`` the game's, read only then): the move or why it is
    refused, with the setup learnt (None if nothing was) and the state to keep once the move is taken.  With
    fair ``dice``, a roll must be the one they gave."""
    if dice is not None and state.is_chance_node() and message.by == holder:
        wrong = dice.wrong(state, chain, message)
        if wrong:
            return wrong, None, state
    learnt_setup, learnt_state = None, state
    if message.by == holder and (message.reveal or hides_values(state)):
        before = setup()
        try:
            learnt_setup = learnt_from(before, message, seals, state, known_to)
            if learnt_setup == before:
                learnt_setup = None
            else:
                learnt_state = replay(learnt_setup, [str(move) for move in state.history])
        except ValueError as exc:  # the engine's EngineError too: values that cannot be this game's
            return str(exc), None, state
    return check(learnt_state, chain, message, holder), learnt_setup, learnt_state


def learnt_from(setup: dict[str, Any], message: MoveMessage, seals: Seals | None, state: State,
                known_to: Collection[int]) -> dict[str, Any]:
    """``setup`` (``State.to_json()`` of the game's start) with the values ``message`` reveals learnt, each
    opening its sender's ``seals``, given what the players ``known_to`` know for certain in ``state``; a
    ValueError if they do not open the seals or cannot be this game's."""
    values = revealed_values(state, message.move, message.reveal, seals)
    return learnt(setup, values, state, known_to) if values else setup


def learnt(setup: dict[str, Any], values: dict[str, Any], state: State, known_to: Collection[int]) -> dict[str, Any]:
    """``setup`` with revealed ``values`` learnt (already checked against their seals), given what the players
    ``known_to`` know for certain in ``state``; a ValueError if they cannot be this game's."""
    position = learn(json.loads(json.dumps(setup["position"])), values, facts(state, known_to))
    return {**setup, "position": position}


def replay(setup: dict[str, Any], moves: Sequence[str]) -> State:
    state = state_from_json(setup)
    for move in moves:
        state.apply(move)
    return state


def published(state: State, chain: Chain, holders: Sequence[str], name: str | None = None,
              key: str | None = None) -> dict[int, MoveMessage]:
    """Every ply of ``state``'s history (which ``chain`` covers) as its seat's holder published it
    (``holders`` by player, as in the header).  What the moves of ``name`` reveal is opened with the salts of
    its secret ``key`` (a game hiding values needs it); another holder's carry no reveal: only it has the salts."""
    messages, plies = {}, len(state.history)
    popped = [state.pop() for _ in range(plies)]  # popped[i] is the move of ply plies - i
    try:
        for seq, move in enumerate(reversed(popped), 1):
            made_by = mover(state)
            reveal = openings(key, revealed(state, move)) if holders[made_by] == name else {}
            state.push(move)
            messages[seq] = MoveMessage(seq, str(move), holders[made_by], chain.hashes[seq], reveal)
    finally:
        while len(state.history) < plies:
            state.push(popped[plies - 1 - len(state.history)])
    return messages
