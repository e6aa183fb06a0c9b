"""Questions the loop asks about the game at each move: what an accepted move leaves for a hand to do,
where the turn began, which position a takeback puts back, how far undo goes.  Those that look back
pop moves off the engine's state and push them again, so the state is as it was after."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.core import CHANCE, TERMINAL, Move, State, stack_pieces
from firmware_host.expectation import Plan
from firmware_host.seats import Seat
from firmware_host.todo import Todo


def left_to_do(plan: Plan, touched: frozenset[str]) -> tuple[Todo, ...]:
    """What an accepted move may leave undone that the sensors cannot tell: the changes they cannot see
    where the hand was not seen (a flip under reed switches, the stacks of a slid Pawns Crossing line:
    a push did them, a hand must), and every stack it leaves, said as what the stack must hold (a
    sensor reads a stack as one piece: its count is the person's to check), but those the person
    confirmed holding what the move leaves (``Plan.unsure``).

    A move the sensors could not see at all was offered after the hand touched every
    piece of it: that hand has done it.
    """
    if not plan.reading:
        return ()
    seen = {location for location, _ in plan.reading} | touched
    confirmed = {todo.location for todo in plan.unsure}
    todo: list[Todo] = []
    for change in plan.footprint.changes:
        after = stack_pieces(change.after)
        if change.location in confirmed:
            continue
        if len(after) > 1:
            todo.append(Todo("restack", change.location, tuple(after)))
        elif change.location not in seen:
            todo.append(Todo.of(change))
    return tuple(todo)


def turn_began(state: State) -> tuple[int, str]:
    """Where the current player's turn began: the ply after the last move another player (or the
    dice) made, and that move if it was the player's roll ("roll 3+4"), else "".  In a puzzle, whose
    one player never hands over, every move is a turn."""
    player = state.current_player
    if state.game.num_players == 1:
        return len(state.history), ""
    popped: list[Move] = []
    start, roll = 0, ""
    try:
        while state.history:
            popped.append(state.pop())
            if state.current_player != player:
                start = len(state.history) + 1
                if state.is_chance_node() and player not in (CHANCE, TERMINAL):
                    roll = str(popped[-1])
                break
    finally:
        for move in reversed(popped):
            state.push(move)
    return start, roll


def previous_position(state: State) -> tuple[int, dict[str, Any]] | None:
    """How many history entries back the previous board position lies, and its contents."""
    current = state.contents()
    popped: list[Move] = []
    previous = current
    while state.history and previous == current:
        popped.append(state.pop())
        previous = state.contents()
    for move in reversed(popped):
        state.push(move)
    return (len(popped), previous) if previous != current else None


def back_to_a_person(state: State, seats: Sequence[Seat], plies: int) -> int:
    """``plies`` back, and further back to a person's turn if the computer (or the dice) moves there:
    undo at a person's turn takes back the computer's answer and the person's own move with it."""
    if not any(not seat.computer for seat in seats):
        return plies
    popped = [state.pop() for _ in range(plies)]
    while state.history and (state.is_chance_node() or seats[state.current_player].computer):
        popped.append(state.pop())
    for move in reversed(popped):
        state.push(move)
    return len(popped)
