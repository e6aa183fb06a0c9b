"""The SQLite journal: every accepted move is on disk before the LEDs show it accepted.

WAL mode with ``synchronous=FULL`` makes each commit durable across a power cut.
A game is its setup (``State.to_json()`` of the starting position, with the game's options:
the seed a random set-up was dealt from among them, ``engine.deals``) and its moves in
order; the state is rebuilt by replaying them, each checked by the engine.  A takeback
or undo deletes the last moves; a new game closes the unfinished one.

A file that is damaged or is not a journal is refused on opening, in one line that says
how to move it aside or salvage its games (``firmware_host.salvage``).  ``PRAGMA
quick_check`` finds a bad page before play starts; it reads the whole file, yet takes only
0.03 to 0.1 s for 25 MB (450,000 moves, years of play) on the 2-core test machine, so it
runs at every opening.  Damage that appears later is reported by the read that meets it.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

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
#: Which games are remote games, under their id on the broker: made with the first remote game, so a
#: journal of games on the board alone stays as earlier releases wrote it.
REMOTE_SCHEMA = """
CREATE TABLE IF NOT EXISTS remote_games (
    game INTEGER PRIMARY KEY REFERENCES games(id),
    remote TEXT NOT NULL
);
"""
#: Each remote game's secret key, known only to this board: its dice secrets and the salts sealing its hidden
#: values derive from it, so that what it committed to can be opened after a restart.
KEY_SCHEMA = """
CREATE TABLE IF NOT EXISTS remote_keys (
    game INTEGER PRIMARY KEY REFERENCES games(id),
    key TEXT NOT NULL
);
"""
#: The header each remote game was played with (the protocol's JSON, as it was heard or written), so that a
#: participant that joined a game from the broker's header resumes it without the broker.
HEADER_SCHEMA = """
CREATE TABLE IF NOT EXISTS remote_headers (
    game INTEGER PRIMARY KEY REFERENCES games(id),
    header TEXT NOT NULL
);
"""
#: The computer's turn decided last in each game, as far as it is planned (``complete`` once whole): a turn
#: planned to a deadline differs from run to run, so a daemon restarted in the computer's turn shows it again.
TURN_SCHEMA = """
CREATE TABLE IF NOT EXISTS decided_turns (
    game INTEGER PRIMARY KEY REFERENCES games(id),
    question TEXT NOT NULL,
    moves TEXT NOT NULL,
    complete INTEGER NOT NULL
);
"""
#: Tables a journal may lack.
ADDED_LATER = frozenset({"remote_games", "remote_keys", "remote_headers", "decided_turns"})


class JournalError(GameboardError, RuntimeError):
    """A journal that cannot be opened or replayed; the message names the file and the fix."""


class JournalWriteError(JournalError):
    """The journal cannot be written now (a full disk, a failing card): nothing was written, a retry may work."""


@dataclass(frozen=True)
class MoveRecord:
    """One row of ``moves``."""

    ply: int
    move: str
    at: float


@dataclass(frozen=True)
class GameRecord:
    """One row of ``games`` with its moves, as a salvage copies it into a new journal."""

    id: int
    started: float
    setup: str
    finished: float | None
    result: str | None
    moves: tuple[MoveRecord, ...] = ()


def _tables(db: sqlite3.Connection) -> dict[str, tuple[str, ...]]:
    """A database's tables and their columns (SQLite's own tables left out)."""
    names = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                       "ORDER BY name").fetchall()
    return {name: tuple(column for (column,) in db.execute("SELECT name FROM pragma_table_info(?)", (name,)))
            for (name,) in names}


@cache
def _journal_tables() -> dict[str, tuple[str, ...]]:
    """The tables a journal may have, read from the schemas so that the check never drifts from them."""
    with closing(sqlite3.connect(":memory:")) as db:
        db.executescript(SCHEMA + REMOTE_SCHEMA + KEY_SCHEMA + HEADER_SCHEMA + TURN_SCHEMA)
        return _tables(db)


def is_journal(db: sqlite3.Connection, path: Path) -> bool:
    """True for a journal, False for an empty database (a new journal); any other database is refused."""
    found = _tables(db)
    expected = _journal_tables()
    if found and {name: columns for name, columns in expected.items()
                  if name in found or name not in ADDED_LATER} != found:
        listed = ", ".join(f"{name}({', '.join(columns)})" for name, columns in found.items())
        raise _not_a_journal(path, f"it has tables {listed}")
    return bool(found)


def quick_check(db: sqlite3.Connection) -> str | None:
    """SQLite's first complaint about the file's pages, or None when it finds none."""
    try:
        finding = db.execute("PRAGMA quick_check(1)").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return None if finding == "ok" else finding.splitlines()[-1]


def move_aside(path: Path) -> str:
    """The fix for a file that cannot be a journal: the daemon starts a new one in its place."""
    return f"move it aside (mv {path} {path}.bad) to start afresh"


def _salvage_or_move_aside(path: Path) -> str:
    return f"{move_aside(path)}, or salvage its games with `gameboard journal salvage {path}`"


def _damaged(path: Path, why: str) -> JournalError:
    return JournalError(f"{path} is damaged: {why}; {_salvage_or_move_aside(path)}")


def _not_a_journal(path: Path, why: str) -> JournalError:
    return JournalError(f"{path} is not a gameboard journal: {why}; {move_aside(path)}")


def error_code(exc: OSError | sqlite3.Error) -> int:
    """SQLite's primary result code for an error (such as ``sqlite3.SQLITE_CORRUPT``); 0 if SQLite gave none."""
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF


def unusable(path: Path, exc: OSError | sqlite3.Error) -> JournalError:
    """The report for a failure to open or read ``path``: damage, another kind of file, or an unusable place."""
    code = error_code(exc)
    if code == sqlite3.SQLITE_NOTADB:
        return _not_a_journal(path, "it is not an SQLite database")
    if code == sqlite3.SQLITE_CORRUPT:
        return _damaged(path, str(exc))
    return JournalError(f"{path}: cannot open the journal ({exc}); give [journal] path a writable "
                        "place, or move a damaged file aside")


class Journal:
    """One board's games on disk; ``game_id`` is the game being played."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise unusable(self.path, exc) from None
        with self._refusing():
            existing = is_journal(self._db, self.path)
            if existing and quick_check(self._db) is not None:
                raise _damaged(self.path, "database disk image is malformed")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            if not existing:
                self._db.executescript(SCHEMA)
        self.game_id: int | None = None
        self.plies = 0
        #: The remote game (its id on the broker) the current game is, if it is one.
        self.remote: str | None = None
        #: The current remote game's secret key (64 hex digits), if it is one.
        self.remote_key: str | None = None
        #: The header the current remote game was played with, if it is one and its header was kept.
        self.remote_header: str | None = None

    @contextmanager
    def _refusing(self) -> Iterator[None]:
        """SQLite's errors as one-line reports.  A journal found unusable is closed, which folds the
        write-ahead log of a crash into the file before the person moves the file aside."""
        try:
            yield
        except (JournalError, sqlite3.Error) as exc:
            self._db.close()
            raise exc if isinstance(exc, JournalError) else unusable(self.path, exc) from None

    def close(self) -> None:
        self._db.close()

    def resume(self) -> State | None:
        """The unfinished game, replayed to its last accepted move; None if every game is finished."""
        with self._refusing():
            row = self._db.execute("SELECT id, setup FROM games WHERE finished IS NULL "
                                   "ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                return None
            game_id, setup = row
            remote = self._remote_id(game_id)
            try:
                state = state_from_json(json.loads(setup))
            except (EngineError, ValueError) as exc:
                raise JournalError(f"{self.path}: game {game_id} cannot be set up again: {exc}; "
                                   f"{_salvage_or_move_aside(self.path)}") from None
            moves = self._db.execute("SELECT ply, move FROM moves WHERE game = ? ORDER BY ply", (game_id,)).fetchall()
            for ply, text in moves:
                try:
                    state.apply(text)
                except EngineError as exc:
                    raise JournalError(f"{self.path}: game {game_id}, move {ply} ({text!r}) no longer replays: "
                                       f"{exc}; {_salvage_or_move_aside(self.path)}") from None
        self.game_id, self.plies, self.remote = game_id, len(moves), remote
        self.remote_key = self._key(game_id) if remote is not None else None
        self.remote_header = self._header(game_id)
        return state

    def unfinished_header(self, remote: str) -> str | None:
        """The header of the unfinished game (the one ``resume`` would take up), if it is the remote game
        ``remote`` and its header was kept: read without replaying the game."""
        with self._refusing():
            row = self._db.execute("SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
            return None if row is None or self._remote_id(row[0]) != remote else self._header(row[0])

    def start(self, state: State, remote: str | None = None, header: str | None = None) -> None:
        """Begin a new game from ``state`` (its moves so far become its setup), the remote game ``remote``
        played with ``header`` if it is one; close any unfinished one."""
        with self._writing("the new game"), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("UPDATE games SET finished = ?, result = 'abandoned' WHERE finished IS NULL",
                             (time.time(),))
            cursor = self._db.execute("INSERT INTO games (started, setup) VALUES (?, ?)",
                                      (time.time(), json.dumps(state.to_json(), sort_keys=True)))
            if remote is not None:
                self._db.execute(REMOTE_SCHEMA)
                self._db.execute("INSERT INTO remote_games (game, remote) VALUES (?, ?)", (cursor.lastrowid, remote))
                if header is not None:
                    self._db.execute(HEADER_SCHEMA)
                    self._db.execute("INSERT INTO remote_headers (game, header) VALUES (?, ?)",
                                     (cursor.lastrowid, header))
        self.game_id, self.plies, self.remote = cursor.lastrowid, 0, remote
        self.remote_key = self._key(cursor.lastrowid) if remote is not None else None
        self.remote_header = header if remote is not None else None

    def _remote_id(self, game_id: int) -> str | None:
        if "remote_games" not in _tables(self._db):
            return None
        row = self._db.execute("SELECT remote FROM remote_games WHERE game = ?", (game_id,)).fetchone()
        return None if row is None else row[0]

    def _header(self, game_id: int) -> str | None:
        if "remote_headers" not in _tables(self._db):
            return None
        row = self._db.execute("SELECT header FROM remote_headers WHERE game = ?", (game_id,)).fetchone()
        return None if row is None else row[0]

    def _key(self, game_id: int) -> str:
        """The remote game's secret key, made the first time it is asked for (a game an earlier release began
        gets one on resuming)."""
        if "remote_keys" in _tables(self._db):
            row = self._db.execute("SELECT key FROM remote_keys WHERE game = ?", (game_id,)).fetchone()
            if row is not None:
                return row[0]
        key = secrets.token_hex(32)
        with self._writing("the remote game's key"), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(KEY_SCHEMA)
            self._db.execute("INSERT INTO remote_keys (game, key) VALUES (?, ?)", (game_id, key))
        return key

    def keep_turn(self, question: str, moves: tuple[str, ...], complete: bool) -> None:
        """Keep the computer's turn decided (as far as it is) for the question ``question`` (its key, as text)."""
        with self._writing("the computer's turn"), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(TURN_SCHEMA)
            self._db.execute("INSERT OR REPLACE INTO decided_turns (game, question, moves, complete) "
                             "VALUES (?, ?, ?, ?)", (self.game_id, question, json.dumps(list(moves)), int(complete)))

    def kept_turn(self, question: str) -> tuple[tuple[str, ...], bool] | None:
        """The computer's turn kept for ``question`` in the current game, and whether it is complete; None if none."""
        with self._refusing():
            if "decided_turns" not in _tables(self._db):
                return None
            row = self._db.execute("SELECT moves, complete FROM decided_turns WHERE game = ? AND question = ?",
                                   (self.game_id, question)).fetchone()
        return None if row is None else (tuple(json.loads(row[0])), bool(row[1]))

    def setup(self) -> dict[str, Any]:
        """The current game's setup (``State.to_json()`` of its starting position)."""
        with self._refusing():
            (setup,) = self._db.execute("SELECT setup FROM games WHERE id = ?", (self.game_id,)).fetchone()
        return json.loads(setup)

    def learn(self, setup: dict[str, Any]) -> None:
        """Rewrite the current game's setup with hidden values learnt since it began (a remote player's
        revealed token: a fact of the setup, learnt before the move that reveals it is carried out)."""
        with self._writing("what was revealed"), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("UPDATE games SET setup = ? WHERE id = ?",
                             (json.dumps(setup, sort_keys=True), self.game_id))

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
        except sqlite3.DatabaseError as exc:  # damage met while writing: no retry mends it, the fix is in the message
            raise JournalWriteError(str(unusable(self.path, exc))) from None

    def moves(self, game_id: int | None = None) -> list[str]:
        """The moves of a game (default: the current one), in order."""
        with self._refusing():
            rows = self._db.execute("SELECT move FROM moves WHERE game = ? ORDER BY ply",
                                    (self.game_id if game_id is None else game_id,)).fetchall()
        return [text for (text,) in rows]

    def restore(self, game: GameRecord) -> None:
        """Write a whole game as it was recorded elsewhere, its id and times kept (a salvage's copy)."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("INSERT INTO games (id, started, setup, finished, result) VALUES (?, ?, ?, ?, ?)",
                             (game.id, game.started, game.setup, game.finished, game.result))
            self._db.executemany("INSERT INTO moves (game, ply, move, at) VALUES (?, ?, ?, ?)",
                                 [(game.id, move.ply, move.move, move.at) for move in game.moves])
