"""What the board is and shows at one moment, as one immutable value: every view (the LEDs, the status
words, the page's snapshot) is a function of it and never reaches back into the loop.

The engine's ``State`` changes under the loop (moves are pushed and popped to look ahead), so a
``Position`` holds its facts as values, worked out once when the position is reached; a
``BoardState`` adds what changes between positions (the tracker's view, faults, notes, decided moves).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.core import Content, Outcome
from firmware_host.decided import Decided, Guide
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
    stacks: frozenset[str]
    from_box: frozenset[str]
    buttons: tuple[tuple[str, str], ...]
    unseen: tuple[str, ...]

    @property
    def ply(self) -> int:
        return len(self.history)

    def player_name(self, player: int) -> str:
        return self.player_names[player]


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
    remote: RemoteFacts | None

    @property
    def fault(self) -> str:
        """The fault the LEDs flash, "" if none."""
        return next((kind for kind in FAULT_KINDS if kind in self.faults), "")
