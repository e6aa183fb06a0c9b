"""The shape every game shares: moves as values, footprints, states with push/pop.

A ``Game`` is a factory of states, configured by options.  A ``State`` knows whose
turn it is, its legal moves (a chance node's moves are the dice outcomes), how to
push and pop a move, whether it is over, and the content of every location.  Each
move has a text notation (``str(move)``, parsed back by ``state.parse_move``) and a
``Footprint``: the locations it changes, before and after, which is what the board's
sensors can see.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.board import Board
from engine.errors import GameboardError

#: What a location holds: None when empty, otherwise a piece code such as "black", or a
#: stack of them joined by "+" in sorted order ("green+red+red").
Content = str | None
STACK = "+"


def stack_pieces(content: Content) -> list[str]:
    """The pieces a location holds: [] when empty, one code, or every piece of a stack."""
    return content.split(STACK) if content else []

CHANCE = -1
TERMINAL = -2


class EngineError(GameboardError, ValueError):
    """Base of the errors the engine raises for bad input."""


class IllegalMoveError(EngineError):
    """A move that the rules do not allow here; the message says why."""


class PositionError(EngineError):
    """A position that cannot be set up; the message names what breaks the rules."""


class OptionError(EngineError):
    """An unknown game option or a value it does not take."""


def refuse_unknown_keys(data: Mapping[str, Any], keys: Sequence[str], what: str) -> None:
    """Refuse what a reader would silently skip: a misspelt key (a position with "cells" for
    "board" would read as an empty board).  ``what`` names the object in the message."""
    unknown = sorted(map(str, set(data) - set(keys)))
    if unknown:
        raise PositionError(f"{what}: unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
                            f"it takes {', '.join(keys)}")


@dataclass(frozen=True)
class Change:
    """One location a move changes: what it held before and after."""

    location: str
    before: Content
    after: Content


@dataclass(frozen=True)
class Footprint:
    """What a move changes on the board, and what it costs in dice points."""

    changes: tuple[Change, ...] = ()
    cost: int = 0

    @property
    def locations(self) -> tuple[str, ...]:
        return tuple(c.location for c in self.changes)

    def before(self) -> dict[str, Content]:
        return {c.location: c.before for c in self.changes}

    def after(self) -> dict[str, Content]:
        return {c.location: c.after for c in self.changes}

    @classmethod
    def between(cls, before: Mapping[str, Content], after: Mapping[str, Content], cost: int = 0) -> Footprint:
        """The footprint that turns one board into another."""
        keys = list(before) + [k for k in after if k not in before]
        return cls(tuple(Change(k, before.get(k), after.get(k)) for k in keys
                         if before.get(k) != after.get(k)), cost)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: the winners (none for a draw), why, and the returns."""

    winners: tuple[int, ...]
    reason: str
    returns: tuple[float, ...]
    #: The places that decided it, in order, for a drawing to mark (Hexover's completed winning path).
    line: tuple[str, ...] = ()

    @property
    def winner(self) -> int | None:
        return self.winners[0] if len(self.winners) == 1 else None


@dataclass(frozen=True)
class Option:
    """A game option: its default, the values it takes, and what it means."""

    default: Any
    choices: tuple[Any, ...]
    help: str

    def takes(self, show: Callable[[Any], str] = repr) -> str:
        """The choices as a person reads them: "one of" each, or "from" and "to" a long run of whole numbers."""
        low, high = self.choices[0], self.choices[-1]
        if len(self.choices) > 8 and type(low) is int and self.choices == tuple(range(low, high + 1)):
            return f"from {show(low)} to {show(high)}"
        return f"one of {', '.join(map(show, self.choices))}"


class Move:
    """Base of the move types: small frozen values whose ``str`` is their notation.

    Subclasses are frozen dataclasses.  A move whose footprint is empty (end of
    turn, a claim, a pass) is made by a button on the board: ``button`` names which
    (one of ``hal.base.BUTTONS``); the daemon offers any other such move by its text.
    """

    __slots__ = ()
    button: ClassVar[str | None] = None


class LegalMoves:
    """The legal moves of a state, read like a collection (iterate, ``in``, ``len``)."""

    __slots__ = ("_state", "_moves")

    def __init__(self, state: State) -> None:
        self._state = state
        self._moves: list[Move] | None = None

    def _all(self) -> list[Move]:
        if self._moves is None:
            self._moves = list(self._state.generate_moves())
        return self._moves

    def __iter__(self) -> Iterator[Move]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __bool__(self) -> bool:
        return bool(self._all())

    def __contains__(self, move: object) -> bool:
        return move in self._all()

    def count(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(map(str, self._all()))})>"


class Game(ABC):
    """A game with its options fixed: the factory of its states."""

    name: ClassVar[str]
    title: ClassVar[str]
    board_name: ClassVar[str]
    #: The game's options: name -> Option.
    options_spec: ClassVar[dict[str, Option]] = {}
    #: The option seeding a random set-up (a deal), or None for a set-up that is always the same: a new game
    #: on the board or in the arena is dealt afresh unless this option is asked for (``engine.deals``).
    deal_option: ClassVar[str | None] = None
    #: Piece codes (location contents) -> display colour, for LEDs and drawings.
    pieces: ClassVar[dict[str, str]] = {}
    #: The keys of a JSON position, as ``State.position()`` writes them.
    position_keys: ClassVar[tuple[str, ...]]

    def __init__(self, **options: Any) -> None:
        unknown = set(options) - set(self.options_spec)
        if unknown:
            known = ", ".join(self.options_spec) or "none"
            raise OptionError(f"{self.name}: unknown option(s) {', '.join(sorted(unknown))}; options: {known}")
        self.options: dict[str, Any] = {}
        for key, spec in self.options_spec.items():
            value = options.get(key, spec.default)
            if type(value) is not type(spec.default):  # 2.0 or True for a count, a list for a name
                raise OptionError(f"{self.name}: option {key}={value!r} is of the wrong kind: its default is "
                                  f"{spec.default!r}")
            if spec.choices and value not in spec.choices:
                raise OptionError(f"{self.name}: option {key}={value!r} is not {spec.takes()}")
            self.options[key] = value
        #: The options given by name; the others took their defaults.
        self.asked = frozenset(options)

    @property
    def board(self) -> Board:
        from engine.boards import load_board
        return load_board(self.board_name)

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many players take turns."""

    @property
    @abstractmethod
    def locations(self) -> tuple[str, ...]:
        """The board locations this game places pieces on."""

    @abstractmethod
    def new_initial_state(self) -> State:
        """The position at the start of a game."""

    def state_from_position(self, position: dict[str, Any]) -> State:
        """A state set up from a JSON position; raises PositionError if it breaks the rules or
        has a key the game does not take."""
        if not isinstance(position, dict):
            raise PositionError(f"{self.name} position: give an object with the keys {', '.join(self.position_keys)}")
        refuse_unknown_keys(position, self.position_keys, f"{self.name} position")
        return self._read_position(position)

    @abstractmethod
    def _read_position(self, position: dict[str, Any]) -> State:
        """``state_from_position`` for a position object with known keys only."""

    def player_name(self, player: int) -> str:
        return f"player {player + 1}"

    def piece_set(self) -> dict[str, int]:
        """The pieces a set for this game holds, by piece code (or "disk" for a two-sided disk): a magnet each.

        By default the pieces on the board at the start; a game whose pieces wait off the board
        (in hand, in reserve) counts those too.
        """
        counts: dict[str, int] = {}
        for content in self.new_initial_state().contents().values():
            for piece in stack_pieces(content):
                counts[piece] = counts.get(piece, 0) + 1
        return counts


class State(ABC):
    """A game position, changed in place by ``push`` and restored exactly by ``pop``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history: list[Move] = []
        self._stack: list[Any] = []

    # -- what every game implements -------------------------------------------

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The player to move, CHANCE at a dice roll, TERMINAL when the game is over."""

    @abstractmethod
    def generate_moves(self) -> Iterator[Move]:
        """The legal moves (at a chance node: every dice outcome)."""

    @abstractmethod
    def footprint(self, move: Move) -> Footprint:
        """What ``move`` changes on the board here, and its cost."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    @abstractmethod
    def contents(self) -> dict[str, Content]:
        """The content of every location of the game."""

    @abstractmethod
    def position(self) -> dict[str, Any]:
        """The position as JSON-ready data (``game.state_from_position`` reads it back)."""

    @abstractmethod
    def _snapshot(self) -> Any:
        """Everything ``_play`` may change, copied cheaply."""

    @abstractmethod
    def _restore(self, snapshot: Any) -> None:
        """Put back a snapshot taken by ``_snapshot``."""

    @abstractmethod
    def _play(self, move: Move) -> None:
        """Make a move assumed legal."""

    # -- shared behaviour -------------------------------------------------------

    def turn_piece(self) -> Content:
        """The piece code of the side to move (lights the whose-turn LED), if any."""
        return None

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """At a chance node: each outcome with its probability."""
        return []

    def passes_over(self, move: Move) -> tuple[str, ...]:
        """The locations ``move`` passes over without changing them (a bridge's pieces), in order."""
        return ()

    def takes_off(self, move: Move) -> tuple[str, ...]:
        """The locations whose pieces ``move`` takes off the board while another piece moves (a jumped piece):
        what a guide shows as to be removed, not lifted and moved."""
        return ()

    def random_move(self, rng: random.Random) -> Move:
        """A legal move drawn with ``rng``, as playouts need it: at a chance node by the outcomes'
        probabilities; otherwise every legal move has a chance, not always the same one (a game may
        override this with something cheaper than listing every move)."""
        if self.is_chance_node():
            outcomes = self.chance_outcomes()
            return rng.choices([move for move, _ in outcomes], [p for _, p in outcomes])[0]
        return rng.choice(list(self.generate_moves()))

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def returns(self) -> tuple[float, ...]:
        outcome = self.outcome()
        return outcome.returns if outcome else (0.0,) * self.game.num_players

    def push(self, move: Move) -> None:
        """Make a move without checking it (use ``apply`` for moves from outside)."""
        self._stack.append(self._snapshot())
        self.history.append(move)
        self._play(move)

    def pop(self) -> Move:
        """Take back the last move exactly."""
        self._restore(self._stack.pop())
        return self.history.pop()

    def apply(self, move: Move | str) -> Move:
        """Check and make a move given as a value or in notation; return the move."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif move not in self.legal_moves:
            raise IllegalMoveError(f"{move} is not a legal move here")
        self.push(move)
        return move

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text``; raises IllegalMoveError with the reason."""
        text = text.strip()
        for move in self.legal_moves:
            if str(move) == text:
                return move
        if self.is_terminal():
            raise IllegalMoveError(f"{text!r}: the game is over")
        raise IllegalMoveError(f"{text!r} is not a legal move here; legal: "
                               f"{', '.join(str(m) for m in list(self.legal_moves)[:12])}"
                               f"{', ...' if len(self.legal_moves) > 12 else ''}")

    def to_json(self) -> dict[str, Any]:
        """The game, its options and the position: all a state needs to be rebuilt."""
        return {"game": self.game.name, "options": dict(self.game.options), "position": self.position()}

    def clone(self) -> State:
        """An independent copy at the same position (history not included)."""
        return self.game.state_from_position(json.loads(json.dumps(self.position())))

    def __str__(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)
