"""What can happen on a board in a game, found by playing it: whether its pieces flip, leave the board, move
from place to place, stack, pass over bridges; which moves the sensors cannot tell apart; whose pieces glow.

The legend lists only the lights a game can show and the simulator turns pieces over only where a game
does, from these facts rather than a list kept by hand per game: a few seeded random games are played and
every legal move of every position met is looked at as the daemon sees it (``Expectation``), once per game,
options and sensing.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from engine.core import Game, State, stack_pieces
from firmware_host.expectation import Expectation
from firmware_host.todo import Todo
from wiring.model import Wiring

#: How many random games are played, and how many plies each at most (a long game repeats itself);
GAMES = 2
PLIES = 100
#: How many of a position's legal moves are looked at, at most (Over-Pass has hundreds).
MOVES = 24


@dataclass(frozen=True)
class GameFacts:
    """What the moves of a game do to the board, as the daemon sees them."""

    #: A move turns a piece over (one piece becomes another in place: Hexover).
    flips: bool = False
    #: A move empties a place (a piece lifted and carried, taken off, exits).
    empties: bool = False
    #: A move carries a piece from one place to another (lifted, then put down).
    carries: bool = False
    #: A move puts a piece down on the board.
    puts: bool = False
    #: A move takes pieces off the board (a capture, an exit, a jumped piece).
    takes_off: bool = False
    #: A place may hold several pieces.
    stacks: bool = False
    #: A move passes over other pieces (an Over-Pass bridge).
    bridges: bool = False
    #: The game rolls dice.
    dice: bool = False
    #: Some moves read alike to the sensors (or not at all), or leave what they cannot check: confirm chooses.
    unsure: bool = False
    #: What may be left for a hand to do once the sensors have seen part of a move (``Todo`` kinds).
    todo: frozenset[str] = frozenset()
    #: The pieces whose turn it may be (the whose-turn glow's colours).
    turn_pieces: frozenset[str] = frozenset()


_known: dict[tuple[str, str, str, str], GameFacts] = {}


def game_facts(game: Game, wiring: Wiring) -> GameFacts:
    """The facts of ``game`` (with its options) on a board sensed as ``wiring`` senses it: worked out once."""
    key = (game.name, repr(sorted(game.options.items())), wiring.sensing, repr(sorted(wiring.piece_classes.items())))
    if key not in _known:
        _known[key] = _play(game, wiring)
    return _known[key]


def _play(game: Game, wiring: Wiring) -> GameFacts:
    found: dict[str, bool] = {}
    todo: set[str] = set()
    turn_pieces: set[str] = set()
    for number in range(GAMES):
        rng = random.Random(f"{game.name}:{number}")
        state = type(game)(**game.options).new_initial_state()
        for _ in range(PLIES):
            if state.is_terminal():
                break
            if state.is_chance_node():
                found["dice"] = True
            else:
                _look(state, wiring, rng, found, todo, turn_pieces)
            state.apply(state.random_move(rng))
    if any(location.kind == "tile" for location in game.board.locations.values()):
        found["stacks"] = True
    return GameFacts(todo=frozenset(todo), turn_pieces=frozenset(turn_pieces), **found)


def _look(state: State, wiring: Wiring, rng: random.Random, found: dict[str, bool], todo: set[str],
          turn_pieces: set[str]) -> None:
    """What the legal moves of one position do (``MOVES`` of them at most), as the daemon's expectation holds
    them."""
    if (piece := state.turn_piece()) is not None:
        turn_pieces.add(piece)
    expected = {location: wiring.expected(content) for location, content in state.contents().items()}
    readings: Counter[frozenset] = Counter()
    moves = []
    for move in state.legal_moves:  # what each move makes the sensors read, as Expectation reads it
        changes = state.footprint(move).changes
        if changes:  # not a button's move, nor one made by its name
            readings[frozenset((change.location, after) for change in changes
                               if (after := wiring.expected(change.after)) != expected.get(change.location))] += 1
            moves.append(move)
    if readings[frozenset()] or any(count > 1 for count in readings.values()):
        found["unsure"] = True  # moves that read alike, or not at all (a Trade): offered for confirm
    expectation = Expectation(state, wiring, only=rng.sample(moves, MOVES) if len(moves) > MOVES else moves)
    for plan in expectation.plans:
        changes = plan.footprint.changes
        lost = Counter(piece for change in changes for piece in stack_pieces(change.before))
        gained = Counter(piece for change in changes for piece in stack_pieces(change.after))
        kinds = {Todo.of(change).kind for change in changes}
        facts = {"flips": "flip" in kinds and not lost <= gained and not gained <= lost,  # turned, not traded
                 "empties": any(change.after is None for change in changes), "puts": bool(kinds & {"put", "restack"}),
                 "carries": bool(kinds & {"remove", "restack"}) and bool(kinds & {"put", "restack"}),
                 "takes_off": lost.total() > gained.total(),
                 "stacks": any(len(stack_pieces(change.after)) > 1 for change in changes),
                 "bridges": bool(state.passes_over(plan.move)), "unsure": bool(expectation.unsure(plan.footprint))}
        found.update({name: True for name, holds in facts.items() if holds})
        seen = {location for location, _ in plan.reading}
        if not seen:
            continue  # offered once the hand touched every piece of it: that hand did it all
        if len(seen) > 1:  # once the hand has made one change, the others may be left to do
            todo.update(Todo.of(change).kind for change in changes if change.location in seen)
        # What the sensors cannot see is left to do after the move (a flip under reed switches), and every stack.
        todo.update(Todo.of(change).kind for change in changes if change.location not in seen)
        todo.update("restack" for change in changes if len(stack_pieces(change.after)) > 1)


def lights_that_occur(facts: GameFacts, *, guided: bool, hints: bool, dice_leds: bool, remote: bool) -> frozenset[str]:
    """The names of the lights (``presenter.LIGHTS``, and ``turn_CODE`` glows) a board can show in a game of these
    facts: ``guided`` if a seat is the computer's or a remote player's (their moves are shown to carry out),
    ``hints`` if a person may ask for one, ``dice_leds`` if the board shows the dice, ``remote`` in a remote game."""
    removal = facts.empties or facts.takes_off
    shown = {  # the light: whether it can occur
        # Any piece on the board may be lifted, by mistake too, and its place then shows it.
        "destination": facts.puts, "removal": removal, "lifted": True, "last_move": True,
        "todo_put": "put" in facts.todo, "todo_remove": "remove" in facts.todo,
        "todo_flip": "flip" in facts.todo or (facts.flips and (guided or hints)),  # a move shown asks for its flips
        "todo_restack": "restack" in facts.todo,
        "carry_from": guided and facts.carries, "carry_to": guided and facts.puts,
        "carry_path": guided and facts.bridges,
        "hint": hints, "hint_path": hints and facts.bridges,
        "candidate": facts.unsure, "selected": facts.unsure, "fix_from": True, "fix_to": True,
        "dice_first": facts.dice and dice_leds, "dice_second": facts.dice and dice_leds,
        "fault_sensors": True, "fault_journal": True, "fault_remote": remote}
    glows = {f"turn_{code}" for code in facts.turn_pieces}
    return frozenset({name for name, occurs in shown.items() if occurs} | glows)
