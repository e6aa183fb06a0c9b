"""The SQLite journal: every accepted move is on disk before the LEDs show it accepted.

WAL mode with ``synchronous=FULL`` makes each commit durable across a power cut.
A game is its setup (``State.to_json()`` of the starting position) and its moves in
order; the state is rebuilt by replaying them, each checked by the engine.  A takeback
or undo deletes the last moves; a new game closes the unfinished one.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.core import EngineError, Move, State
from engine.errors import GameboardError
from engine.registry import state_from_json

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    setup TEXT NOT NULL,
    finished REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS moves (
    game INTEGER NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    move TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game, ply)
);
"""


class JournalError(GameboardError, RuntimeError):
    """A journal that cannot be opened or replayed; the message names the file and the fix."""


class JournalWriteError(JournalError):
    """The journal cannot be written now (a full disk, a failing card): nothing was written, a retry may work."""


class Journal:
    """One board's games on disk; ``game_id`` is the game being played."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(f"{self.path}: cannot open the journal ({exc}); give [journal] path a writable "
                               "place, or move a damaged file aside") from None
        self.game_id: int | None = None
        self.plies = 0

    def close(self) -> None:
        self._db.close()

    def resume(self) -> State | None:
        """The unfinished game, replayed to its last accepted move; None if every game is finished."""
        row = self._db.execute("SELECT id, setup FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        game_id, setup = row
        try:
            state = state_from_json(json.loads(setup))
        except (EngineError, ValueError) as exc:
            raise JournalError(f"{self.path}: game {game_id} cannot be set up again: {exc}; "
                               "move the journal aside to start afresh") from None
        moves = self._db.execute("SELECT ply, move FROM moves WHERE game = ? ORDER BY ply", (game_id,)).fetchall()
        for ply, text in moves:
            try:
                state.apply(text)
            except EngineError as exc:
                raise JournalError(f"{self.path}: game {game_id}, move {ply} ({text!r}) no longer replays: {exc}; "
                                   "move the journal aside to start afresh") from None
        self.game_id, self.plies = game_id, len(moves)
        return state

    def start(self, state: State) -> None:
        """Begin a new game from ``state`` (its moves so far become its setup); close any unfinished one."""
        with self._writing("the new game"), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("UPDATE games SET finished = ?, result = 'abandoned' WHERE finished IS NULL",
                             (time.time(),))
            cursor = self._db.execute("INSERT INTO games (started, setup) VALUES (?, ?)",
                                      (time.time(), json.dumps(state.to_json(), sort_keys=True)))
        self.game_id, self.plies = cursor.lastrowid, 0

    def record(self, move: Move, result: str | None = None) -> None:
        """Commit one accepted move, and the game's ``result`` if it ends the game; returns once durable."""
        with self._writing(f"move {self.plies + 1} ({move})"), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("INSERT INTO moves (game, ply, move, at) VALUES (?, ?, ?, ?)",
                             (self.game_id, self.plies + 1, str(move), time.time()))
            if result is not None:  # a finished game will not be resumed
                self._db.execute("UPDATE games SET finished = ?, result = ? WHERE id = ?",
                                 (time.time(), result, self.game_id))
        self.plies += 1

    def take_back(self, plies: int) -> None:
        """Forget the last ``plies`` moves (a takeback or undo); a finished game is open again."""
        with self._writing("the takeback"), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM moves WHERE game = ? AND ply > ?", (self.game_id, self.plies - plies))
            self._db.execute("UPDATE games SET finished = NULL, result = NULL WHERE id = ?", (self.game_id,))
        self.plies -= plies

    @contextmanager
    def _writing(self, what: str) -> Iterator[None]:
        """SQLite's write failures as a JournalWriteError; the transaction rolled back, nothing written."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            raise JournalWriteError(f"{self.path}: cannot write {what}: {exc}") from None

    def moves(self, game_id: int | None = None) -> list[str]:
        """The moves of a game (default: the current one), in order."""
        rows = self._db.execute("SELECT move FROM moves WHERE game = ? ORDER BY ply",
                                (self.game_id if game_id is None else game_id,))
        return [text for (text,) in rows]
