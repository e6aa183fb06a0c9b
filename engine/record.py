"""Game records: a whole game as text, PGN-like, read back and replayed through the engine.

A record is a header of tag pairs, then one numbered move a line in the game's own notation
(``str(move)``, what the journal and remote play write), chance outcomes (dice) included so
that a dice game replays exactly::

    [Game "squareoff"]
    [Options "variant=classic first_player=black"]
    [Seats "human computer:normal"]
    [Result "black wins: three in a row"]
    [Date "2026-11-28T20:31:05Z"]

    1. p1
    2. p5

A tag's value is a JSON string (PGN's quoting: backslash escapes).  ``Game`` is required;
``Setup`` (a position, ``State.position()`` as JSON) is written only when the game did not start
from its options' start.  Other tags are kept as they are.  Errors name the line and the fix;
an illegal move is refused with its number and what was legal.  docs/records.md is the reference.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import EngineError, Footprint, Game, Move, State
from engine.registry import game_class

#: The tags this module reads and writes, in the order it writes them.
KNOWN_TAGS = ("Game", "Options", "Seats", "Result", "Date", "Setup")
#: The value of Result, Seats and Date when they are not known (PGN's): a game under way has no result yet.
UNKNOWN = "?"
UNFINISHED = "*"
TAG = re.compile(r'\[(?P<name>[A-Za-z][A-Za-z0-9_]*)\s+(?P<value>".*")\]\s*')
MOVE = re.compile(r"(?P<number>\d+)\.\s+(?P<text>\S.*?)\s*")
#: One KEY=VALUE of the Options tag: a value with spaces is a JSON string in double quotes.
OPTION_WORD = re.compile(r'[^\s"]*"(?:[^"\\]|\\.)*"|\S+')
COMMENT = ";"


class RecordError(EngineError):
    """A record that cannot be read or replayed; the message names the line and the fix."""


@dataclass(frozen=True)
class Record:
    """A game as a record holds it: which game, its options and start, its moves in notation, and the
    facts of the header.  ``lines`` are the lines each move was read from (empty for a record made here)."""

    game: str
    options: Mapping[str, Any]
    moves: tuple[str, ...]
    seats: tuple[str, ...] = ()
    result: str = UNFINISHED
    date: str = UNKNOWN
    setup: Mapping[str, Any] | None = None
    extra: tuple[tuple[str, str], ...] = ()
    lines: tuple[int, ...] = field(default=(), compare=False)
    tag_lines: Mapping[str, int] = field(default_factory=dict, compare=False)

    def new_game(self) -> Game:
        """The game with the record's options; a RecordError names the Options line."""
        try:
            return game_class(self.game)(**self.options)
        except EngineError as exc:
            raise RecordError(f"{self.at_tag('Options' if 'Options' in self.tag_lines else 'Game')}{exc}") from None

    def start(self) -> State:
        """The position the game started from: its Setup, else the start of the game with its options."""
        game = self.new_game()
        if self.setup is None:
            return game.new_initial_state()
        try:
            return game.state_from_position(dict(self.setup))
        except EngineError as exc:
            raise RecordError(f"{self.at_tag('Setup')}{exc}; write the position as `gameboard record export` "
                              "writes it, or leave Setup out to start from the game's start") from None

    def at_tag(self, tag: str) -> str:
        """"line N: [TAG]: " for a tag of a record read from text, else ""."""
        line = self.tag_lines.get(tag)
        return f"line {line}: [{tag}]: " if line else ""

    def move_line(self, number: int) -> str:
        """"line N: " for move ``number`` (from 1) of a record read from text, else ""."""
        return f"line {self.lines[number - 1]}: " if len(self.lines) >= number else ""


def result_words(state: State) -> str:
    """The Result tag of ``state``: "*" while it goes on, else ``outcome_words``."""
    outcome = state.outcome()
    return UNFINISHED if outcome is None else outcome_words(state.game, outcome.winners, outcome.reason)


def outcome_words(game: Game, winners: Sequence[int], reason: str) -> str:
    """The Result tag of a game over: "NAME wins: REASON", "A and B win: REASON" or "draw: REASON"."""
    names = [game.player_name(player) for player in winners]
    if not names:
        return f"draw: {reason}"
    return f"{' and '.join(names)} {'wins' if len(names) == 1 else 'win'}: {reason}"


def date_words(timestamp: float | None) -> str:
    """A Unix time as the Date tag writes it (ISO 8601 in UTC), or "?" when not known."""
    return UNKNOWN if timestamp is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(timestamp))


def record_game(start: State, moves: Sequence[Move | str], *, seats: Sequence[str] = (),
                date: float | None = None, result: str | None = None) -> Record:
    """The record of a game that started from ``start`` and went on with ``moves``.  ``result`` is the
    Result tag when already known (the final state's ``result_words``); by default the moves are replayed
    to find it."""
    game = start.game
    fresh = game.new_initial_state().position()
    setup = None if start.position() == fresh else start.position()
    texts = tuple(str(move) for move in moves)
    record = Record(game.name, dict(game.options), texts, tuple(seats), UNFINISHED, date_words(date), setup)
    if result is None:
        result = result_words(replay(record))
    return Record(record.game, record.options, texts, record.seats, result, record.date, setup)


def option_words(options: Mapping[str, Any]) -> str:
    """Options as KEY=VALUE pairs, as ``--option`` takes them: text bare when it reads back as text, else JSON."""
    def value(item: Any) -> str:
        if isinstance(item, str) and item and " " not in item and _option_value(item) == item:
            return item
        return json.dumps(item)
    return " ".join(f"{key}={value(item)}" for key, item in options.items())


def _option_value(text: str) -> Any:
    """A value as ``--option`` reads it: JSON when it is (2, true, "a b"), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def write_record(record: Record) -> str:
    """The record as text: the header, a blank line, one numbered move a line."""
    tags = [("Game", record.game), ("Options", option_words(record.options)),
            ("Seats", " ".join(record.seats) or UNKNOWN), ("Result", record.result), ("Date", record.date)]
    if record.setup is not None:
        tags.append(("Setup", json.dumps(record.setup, sort_keys=True)))
    tags += record.extra
    header = [f"[{name} {json.dumps(value, ensure_ascii=False)}]" for name, value in tags]
    moves = [f"{number}. {text}" for number, text in enumerate(record.moves, 1)]
    return "\n".join(header + [""] + moves) + "\n"


def parse_record(text: str) -> Record:
    """A record read from text; a RecordError names the line and how to write it."""
    tags: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    moves: list[str] = []
    lines: list[int] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(COMMENT):
            continue
        if stripped.startswith("["):
            if moves:
                raise RecordError(f"line {number}: a tag after the moves; the header's tags come first, "
                                  "then the moves")
            name, value = _tag(number, stripped)
            if name in tags:
                raise RecordError(f"line {number}: a second [{name}] tag (the first on line {tag_lines[name]}); "
                                  "give each tag once")
            tags[name], tag_lines[name] = value, number
            continue
        match = MOVE.fullmatch(stripped)
        if match is None:
            raise RecordError(f"line {number}: {stripped[:40]!r} is neither a tag nor a move; write a tag as "
                              f'[Name "value"] and a move as its number, a full stop and the move: '
                              f"{len(moves) + 1}. MOVE")
        if int(match["number"]) != len(moves) + 1:
            raise RecordError(f"line {number}: move number {match['number']} where {len(moves) + 1} comes next; "
                              "number the moves 1, 2, 3, ... in order, chance outcomes (dice) included")
        moves.append(match["text"])
        lines.append(number)
    if "Game" not in tags:
        raise RecordError('no [Game "NAME"] tag: a record starts with its game, e.g. [Game "hexover"] '
                          "(`gameboard games` lists them)")
    try:
        game_class(tags["Game"])
    except EngineError as exc:
        raise RecordError(f"line {tag_lines['Game']}: [Game]: {exc}") from None
    return Record(
        game=tags["Game"],
        options=_options(tags.get("Options", ""), tag_lines.get("Options")),
        moves=tuple(moves),
        seats=() if tags.get("Seats", UNKNOWN) == UNKNOWN else tuple(tags["Seats"].split()),
        result=tags.get("Result", UNFINISHED),
        date=tags.get("Date", UNKNOWN),
        setup=_setup(tags["Setup"], tag_lines["Setup"]) if "Setup" in tags else None,
        extra=tuple((name, value) for name, value in tags.items() if name not in KNOWN_TAGS),
        lines=tuple(lines),
        tag_lines=tag_lines,
    )


def _tag(number: int, line: str) -> tuple[str, str]:
    match = TAG.fullmatch(line)
    value: Any = None
    if match is not None:
        try:
            value = json.loads(match["value"])
        except ValueError:
            value = None
    if not isinstance(value, str):
        raise RecordError(f'line {number}: a tag is written [Name "value"], the value in double quotes (\\" for a '
                          f"quote inside): {line[:60]!r}")
    return match["name"], value


def _options(text: str, line: int | None) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in OPTION_WORD.findall(text):
        key, equals, value = pair.partition("=")
        if not equals or not key:
            raise RecordError(f"line {line}: [Options]: {pair!r}: write KEY=VALUE pairs separated by spaces, "
                              'e.g. [Options "players=2"]')
        if key in options:
            raise RecordError(f"line {line}: [Options]: {key} is given twice; give each option once")
        options[key] = _option_value(value)
    return options


def _setup(text: str, line: int) -> dict[str, Any]:
    try:
        position = json.loads(text)
    except ValueError as exc:
        raise RecordError(f"line {line}: [Setup]: not a JSON position ({exc}); write the position as "
                          "`gameboard record export` writes it") from None
    if not isinstance(position, dict):
        raise RecordError(f"line {line}: [Setup]: a position is a JSON object, as `gameboard record export` "
                          "writes it")
    return position


def replay(record: Record) -> State:
    """The game played through the engine from its start, every move checked: a RecordError names the first
    move that is not legal (its number, its line and what was legal instead), or a Result the moves do not
    reach.  The state keeps the moves in its history (``pop`` steps back)."""
    state = record.start()
    for number, text in enumerate(record.moves, 1):
        try:
            state.apply(text)
        except EngineError as exc:
            raise RecordError(f"{record.move_line(number)}move {number} ({text}) is refused: {exc}") from None
    reached = result_words(state)
    if record.result not in (UNFINISHED, UNKNOWN, reached):
        raise RecordError(f"{record.at_tag('Result')}the record says {record.result!r} but its moves end in "
                          f"{reached!r}; correct the Result tag (or write \"*\" for a game not finished)")
    return state


@dataclass(frozen=True)
class Shown:
    """What a replay shows after ``ply`` moves: every location's content, the move that led there (its
    notation and the places it changed; none at the start or for a dice roll) and whose turn is next."""

    ply: int
    plies: int
    contents: dict[str, str | None]
    move: str
    places: tuple[str, ...]
    result: str


class Stepper:
    """A replayed game to step through, one move at a time either way (push and pop: no replay from the
    start at each step)."""

    def __init__(self, state: State, moves: Sequence[Move] | None = None) -> None:
        """``state`` at its last move, with ``moves`` (default: its whole history) behind it."""
        self.state = state
        self.moves = list(state.history if moves is None else moves)
        self.ply = len(self.moves)

    @classmethod
    def of(cls, record: Record) -> Stepper:
        return cls(replay(record))

    @property
    def plies(self) -> int:
        return len(self.moves)

    def go(self, ply: int) -> Shown:
        """The position after ``ply`` moves (clamped to the game), made the current one."""
        ply = max(0, min(ply, self.plies))
        while self.ply > ply:
            self.state.pop()
            self.ply -= 1
        while self.ply < ply:
            self.state.push(self.moves[self.ply])
            self.ply += 1
        return self.shown()

    def shown(self) -> Shown:
        move, places = "", ()
        if self.ply:
            last = self.state.pop()
            footprint: Footprint = self.state.footprint(last)
            places = footprint.locations + tuple(loc for loc in self.state.passes_over(last)
                                                 if loc not in footprint.locations)
            self.state.push(last)
            move = str(last)
        return Shown(self.ply, self.plies, self.state.contents(), move, places, result_words(self.state))
