"""What the board is and shows at one moment, as one immutable value: every view (the LEDs, the status
words, the page's snapshot) is a function of it and never reaches back into the loop.

The engine's ``State`` changes under the loop (moves are pushed and popped to look ahead), so a
``Position`` holds its facts as values, worked out once when the position is reached; a
``BoardState`` adds what changes between positions (the tracker's view, faults, notes, decided moves).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.core import Content, Outcome, State, stack_pieces
from firmware_host.decided import Decided, Guide
from firmware_host.expectation import Expectation
from firmware_host.remote.moves import mover
from firmware_host.seats import Seat
from firmware_host.todo import Todo
from firmware_host.tracker import TrackerView
from hal.base import SensorHealth
from wiring.model import Observation

#: The faults, the first one present being the one the LEDs flash: sensors that cannot see the board,
#: a journal that cannot be written, a remote game that cannot go on.
FAULT_KINDS = ("sensors", "journal", "remote")


@dataclass(frozen=True)
class Position:
    """One position's facts and what the board offers in it (a new one at each move, undo or new game)."""

    game: str
    player_names: tuple[str, ...]
    history: tuple[str, ...]
    current_player: int
    #: Who makes the next move: the player to move or, at a chance node, the player whose roll it is.
    mover: int
    turn_piece: str | None
    outcome: Outcome | None
    chance: bool
    #: Whether the next move (or roll) is a remote seat's: it comes from the broker.
    remote_turn: bool
    #: Whether the hint button shows the computer's best move here.
    hint_offered: bool
    #: What each location should hold.
    expected: Mapping[str, Content]
    #: The pieces glowing in the mover's colour, and their colour.
    turn_locations: frozenset[str]
    turn_colour: tuple[int, int, int]
    #: What the lights offer while the board waits: the pieces a legal move lifts, stacks lifted whole to
    #: show where their pieces go, the pieces a place from the box may take, buttons (name, move), moves
    #: made by their name.
    movable: frozenset[str]
    #: The pieces a legal move carries to another place (not those it only takes off).
    carried: frozenset[str]
    stacks: frozenset[str]
    from_box: frozenset[str]
    buttons: tuple[tuple[str, str], ...]
    unseen: tuple[str, ...]

    @property
    def ply(self) -> int:
        return len(self.history)

    def player_name(self, player: int) -> str:
        return self.player_names[player]


def position_of(state: State, history: tuple[str, ...], expectation: Expectation, watched: frozenset[str],
                colours: Mapping[str, tuple[int, int, int]], remote_turn: bool, hint_offered: bool) -> Position:
    """The facts of the position ``state`` is at, whose legal moves ``expectation`` holds; ``colours``: the
    whose-turn glow's colour for each piece."""
    game, choices = state.game, expectation.choices
    turn = state.turn_piece()
    mine = frozenset(loc for loc, content in expectation.contents.items()
                     if turn is not None and turn in stack_pieces(content) and loc in watched)
    # In the mover's colour glow the pieces a legal move lifts (any colour, where the rules allow),
    # or all of the mover's own if none can move (a placing turn).
    movable = choices.movable & watched
    return Position(
        game=game.name, player_names=tuple(game.player_name(player) for player in range(game.num_players)),
        history=history, current_player=state.current_player, mover=mover(state), turn_piece=turn,
        outcome=state.outcome(), chance=state.is_chance_node(), remote_turn=remote_turn, hint_offered=hint_offered,
        expected=expectation.contents, turn_locations=movable or mine,
        turn_colour=colours.get(turn, (0, 0, 0)) if turn else (0, 0, 0), movable=movable,
        carried=choices.carried & watched,        stacks=choices.stacks & watched, from_box=choices.from_box,
        buttons=tuple((button, str(move)) for button, move in sorted(expectation.buttons.items())),
        unseen=tuple(str(move) for move in expectation.unseen))


@dataclass(frozen=True)
class RemoteFacts:
    """A remote game as this board sees it: the link, who is online, what the next remote move waits for."""

    game: str
    name: str
    broker: str
    connected: bool
    online: Mapping[str, bool]
    #: What stops the game or the link ("" if nothing), and what the link says while it connects.
    problem: str
    link_problem: str
    #: How the game's dice are rolled ("fair", "by hand"), "" for a game without dice.
    dice: str
    #: Whose seals the next remote move waits for, or the check of the others' openings at the end.
    sealing: str
    #: Whether every seat rolls fair dice through the broker, and whose part of this roll is awaited.
    fair_dice: bool
    dice_waiting: str


@dataclass(frozen=True)
class BoardState:
    """The board at one moment: its position, what the tracker sees, the work pending, faults, seats."""

    position: Position
    view: TrackerView
    observed: Mapping[str, Observation]
    #: What the last move left for a hand to do that the sensors cannot see.
    left_to_do: tuple[Todo, ...]
    #: A turn decided elsewhere (the computer's, a remote seat's) being carried out, or the hint shown, and
    #: the step of it the LEDs show.
    decided: Decided | None
    hint: Decided | None
    guide: Guide | None
    thinking: bool
    faults: Mapping[str, str]
    sensors: SensorHealth
    seats: tuple[Seat, ...]
    dice: str
    note: str
    last_move: frozenset[str]
    #: What the last move's arrow passes through on a page (``Guide.through``).
    last_through: tuple[str, ...]
    remote: RemoteFacts | None

    @property
    def fault(self) -> str:
        """The fault the LEDs flash, "" if none."""
        return next((kind for kind in FAULT_KINDS if kind in self.faults), "")
