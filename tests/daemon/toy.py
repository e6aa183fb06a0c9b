"""A small game on the Square Off board that has every kind of move the daemon must handle.

Every shape of footprint the tracker meets, in one small game: a placement from hand, a
slide (and a dearer dash with the same footprint), a jump that captures (three
locations), a Trade (two pieces swap: identical to presence sensors), a flip (a piece
changes colour in place: invisible to reed switches), a button move (pass = end turn)
and a dice roll before every turn (a chance node).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import CHANCE, TERMINAL, Content, Footprint, Game, Move, Option, Outcome, PositionError, State

COLOURS = ("black", "white")


@dataclass(frozen=True)
class Roll(Move):
    pips: int

    def __str__(self) -> str:
        return f"roll {self.pips}"


@dataclass(frozen=True)
class Place(Move):
    target: str

    def __str__(self) -> str:
        return f"@{self.target}"


@dataclass(frozen=True)
class Slide(Move):
    source: str
    target: str

    def __str__(self) -> str:
        return f"{self.source}-{self.target}"


@dataclass(frozen=True)
class Dash(Move):
    """A slide that spends both pips: the same footprint as a Slide at a higher cost."""

    source: str
    target: str

    def __str__(self) -> str:
        return f"dash {self.source}-{self.target}"


@dataclass(frozen=True)
class Jump(Move):
    source: str
    over: str
    target: str

    def __str__(self) -> str:
        return f"{self.source}x{self.over}-{self.target}"


@dataclass(frozen=True)
class Trade(Move):
    mine: str
    theirs: str

    def __str__(self) -> str:
        return f"trade {self.mine} {self.theirs}"


@dataclass(frozen=True)
class Flip(Move):
    location: str

    def __str__(self) -> str:
        return f"flip {self.location}"


@dataclass(frozen=True)
class Pass(Move):
    button: ClassVar[str | None] = "end_turn"

    def __str__(self) -> str:
        return "pass"


COSTS: dict[type, int] = {Slide: 1, Dash: 2}


class ToyGame(Game):
    name = "toy"
    title = "Toy"
    board_name = "squareoff"
    options_spec: ClassVar[dict[str, Option]] = {
        "hand": Option(3, (1, 2, 3, 4), "pieces each player places before sliding"),
        "plies": Option(24, (8, 12, 24, 40), "moves after which the game ends in a draw"),
    }
    pieces: ClassVar[dict[str, str]] = {"black": "#222222", "white": "#f4f1e8"}
    position_keys = ("contents", "hand", "to_move", "mover", "pips", "plies")

    @property
    def num_players(self) -> int:
        return 2

    @property
    def locations(self) -> tuple[str, ...]:
        return tuple(self.board.locations)

    def new_initial_state(self) -> ToyState:
        return ToyState(self, {loc: None for loc in self.locations}, [self.options["hand"]] * 2, CHANCE, 0, 0, 0)

    def _read_position(self, position: dict[str, Any]) -> ToyState:
        contents = {loc: position.get("contents", {}).get(loc) for loc in self.locations}
        if any(c not in (None, *COLOURS) for c in contents.values()):
            raise PositionError("toy: contents must be black, white or empty")
        return ToyState(self, contents, list(position["hand"]), position["to_move"], position["mover"],
                        position["pips"], position["plies"])


class ToyState(State):
    def __init__(self, game: ToyGame, contents: dict[str, Content], hand: list[int], to_move: int,
                 mover: int, pips: int, plies: int) -> None:
        super().__init__(game)
        self.board_contents = contents
        self.hand = hand
        self.to_move = to_move
        self.mover = mover
        self.pips = pips
        self.plies = plies

    @property
    def current_player(self) -> int:
        if self.outcome():
            return TERMINAL
        return self.to_move

    def _mine(self) -> str:
        return COLOURS[self.mover]

    def generate_moves(self) -> Iterator[Move]:
        if self.current_player == TERMINAL:
            return
        if self.current_player == CHANCE:
            yield from (Roll(1), Roll(2))
            return
        mine, theirs = COLOURS[self.mover], COLOURS[1 - self.mover]
        board = self.game.board
        if self.hand[self.mover]:
            yield from (Place(loc) for loc, c in self.board_contents.items() if c is None)
        for loc, content in self.board_contents.items():
            if content != mine:
                continue
            for neighbour, beyond, _ in board.steps[loc]:
                held = self.board_contents[neighbour]
                if held is None:
                    yield Slide(loc, neighbour)
                    if self.pips == 2:
                        yield Dash(loc, neighbour)
                elif held == theirs:
                    if beyond and self.board_contents[beyond] is None:
                        yield Jump(loc, neighbour, beyond)
                    if self.pips == 2:
                        yield Trade(loc, neighbour)
            if self.pips == 1:
                yield Flip(loc)
        yield Pass()

    def footprint(self, move: Move) -> Footprint:
        return Footprint.between(self.board_contents, self._after(move), cost=COSTS.get(type(move), 0))

    def _after(self, move: Move) -> dict[str, Content]:
        after = dict(self.board_contents)
        mine, theirs = COLOURS[self.mover], COLOURS[1 - self.mover]
        if isinstance(move, Place):
            after[move.target] = mine
        elif isinstance(move, (Slide, Dash)):
            after[move.source], after[move.target] = None, mine
        elif isinstance(move, Jump):
            after[move.source], after[move.over], after[move.target] = None, None, mine
        elif isinstance(move, Trade):
            after[move.mine], after[move.theirs] = theirs, mine
        elif isinstance(move, Flip):
            after[move.location] = theirs
        return after

    def outcome(self) -> Outcome | None:
        if self.plies < self.game.options["plies"]:
            return None
        return Outcome((), "move limit", (0.0, 0.0))

    def contents(self) -> dict[str, Content]:
        return dict(self.board_contents)

    def position(self) -> dict[str, Any]:
        return {"contents": {k: v for k, v in self.board_contents.items() if v}, "hand": list(self.hand),
                "to_move": self.to_move, "mover": self.mover, "pips": self.pips, "plies": self.plies}

    def turn_piece(self) -> Content:
        return COLOURS[self.mover]

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        return [(move, 0.5) for move in self.generate_moves()] if self.current_player == CHANCE else []

    def _snapshot(self) -> Any:
        return dict(self.board_contents), list(self.hand), self.to_move, self.mover, self.pips, self.plies

    def _restore(self, snapshot: Any) -> None:
        contents, hand, self.to_move, self.mover, self.pips, self.plies = snapshot
        self.board_contents, self.hand = dict(contents), list(hand)

    def _play(self, move: Move) -> None:
        if isinstance(move, Roll):
            self.pips, self.to_move = move.pips, self.mover
            return
        self.board_contents = self._after(move)
        if isinstance(move, Place):
            self.hand[self.mover] -= 1
        self.plies += 1
        self.mover = 1 - self.mover
        self.to_move = CHANCE
