"""Reading what is left of a journal, for ``gameboard journal check`` and ``salvage``.

SQLite stops a query at the first page it cannot read.  Each table is therefore read in
rowid order, and at a damaged stretch reading starts again at the first row past it, so
that a bad page loses only the rows on it.  Every game is replayed through the engine up
to its first move that is lost or no longer replays: a move after a gap cannot be checked.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path

from engine.core import EngineError
from engine.registry import state_from_json
from firmware_host.journal import GameRecord, Journal, JournalError, MoveRecord, error_code, is_journal, \
    move_aside, quick_check, unusable

MIN_ROWID, MAX_ROWID = -2**63, 2**63 - 1


@dataclass(frozen=True)
class GameReading:
    """One game as far as it could be read and replayed."""

    #: Its row, with the moves that replay: those before the first problem.
    record: GameRecord
    #: The game's name; None when its setup does not load.
    name: str | None
    #: How many moves the journal holds for it, as far as can be told.
    total: int
    #: What ends its replay early, if anything.
    problem: str | None


@dataclass(frozen=True)
class JournalReading:
    """Everything readable in a journal, and what was not."""

    games: tuple[GameReading, ...]
    #: Games whose moves were found but whose own row cannot be read.
    lost_games: tuple[int, ...]
    #: The tables with rows that cannot be read.
    damaged_tables: tuple[str, ...]
    #: SQLite's first complaint about the file's structure (``PRAGMA quick_check``).
    finding: str | None

    @property
    def damaged(self) -> bool:
        return bool(self.finding or self.lost_games or self.damaged_tables
                    or any(game.problem for game in self.games))


def read_journal(path: Path) -> JournalReading:
    """Read every row SQLite still can, without writing to the file, and replay every game."""
    with closing(_open_read_only(path)) as db:
        try:
            if not is_journal(db, path):
                return JournalReading((), (), (), None)
        except sqlite3.Error as exc:
            raise _unsalvageable(path, exc) from None
        finding = quick_check(db)
        game_rows, game_gaps = read_rows(db, "games", "id, started, setup, finished, result")
        move_rows, move_gaps = read_rows(db, "moves", "game, ply, move, at")
        recorded = {row[0]: recorded_plies(db, row[0]) for row in game_rows}
    moves: dict[int, list[MoveRecord]] = defaultdict(list)
    for game, ply, text, at in move_rows:
        moves[game].append(MoveRecord(ply, text, at))
    # Moves are appended in the order played, so rows lost right after a game's move may be its next ones.
    lost_after: dict[int, int] = {}
    for index in move_gaps:
        if index > 0:
            lost_after.setdefault(move_rows[index - 1][0], move_rows[index - 1][1])
    games = tuple(replay(GameRecord(*row), sorted(moves[row[0]], key=lambda move: move.ply), recorded[row[0]],
                         lost_after.get(row[0]))
                  for row in game_rows)
    lost_games = tuple(sorted(set(moves) - set(recorded)))
    tables = tuple(table for table, gaps in (("games", game_gaps), ("moves", move_gaps)) if gaps)
    return JournalReading(games, lost_games, tables, finding)


def crash_log(path: Path) -> Path | None:
    """The write-ahead log that a crash left beside the journal, if it holds anything."""
    log = Path(f"{path}-wal")
    return log if log.is_file() and log.stat().st_size > 0 else None


def _open_read_only(path: Path) -> sqlite3.Connection:
    """The file opened for reading; with no log to read, as immutable, so that SQLite leaves no files beside it."""
    if not path.is_file():
        raise JournalError(f"{path}: {'a folder, not a journal' if path.is_dir() else 'no such file'}")
    try:
        db = sqlite3.connect(f"{path.absolute().as_uri()}?{'mode=ro' if crash_log(path) else 'immutable=1'}",
                             uri=True)
        # A file cut short says in its header that it has more pages than it has: trust the file instead.
        db.execute("PRAGMA writable_schema = ON")
    except sqlite3.Error as exc:
        raise unusable(path, exc) from None
    return db


def _unsalvageable(path: Path, exc: sqlite3.Error) -> JournalError:
    """The report for a file whose list of tables cannot be read (the usual report would suggest a salvage)."""
    if error_code(exc) != sqlite3.SQLITE_CORRUPT:
        return unusable(path, exc)
    return JournalError(f"{path} cannot be salvaged: its list of tables is unreadable ({exc}); {move_aside(path)}")


def read_rows(db: sqlite3.Connection, table: str, columns: str) -> tuple[list[tuple], list[int]]:
    """Every row of ``table`` that SQLite can read, in rowid order, and where unreadable stretches lie
    among them: before the row at each index given (``len(rows)`` for a stretch at the end)."""
    query = f"SELECT rowid, {columns} FROM {table} WHERE rowid >= ? ORDER BY rowid"
    rows: list[tuple] = []
    gaps: list[int] = []
    start: int | None = MIN_ROWID
    while start is not None:
        try:
            for rowid, *values in db.execute(query, (start,)):
                rows.append(tuple(values))
                start = rowid + 1
            break
        except sqlite3.DatabaseError:
            gaps.append(len(rows))
            start = _past_damage(db, query, start)
    return rows, gaps


def _past_damage(db: sqlite3.Connection, query: str, start: int) -> int | None:
    """The rowid of the first row readable again past a damaged stretch that begins at ``start``; None if none
    is.  A stride doubled from ``start`` finds a readable place, then halving it finds where the damage ends."""
    bad, stride = start, 1
    while True:
        good = min(start + stride, MAX_ROWID)
        readable, found = _first_row(db, query, good)
        if readable:
            break
        if good == MAX_ROWID:
            return None
        bad, stride = good, stride * 2
    while good - bad > 1:
        middle = (bad + good) // 2
        readable, row = _first_row(db, query, middle)
        if readable:
            good, found = middle, row
        else:
            bad = middle
    return found


def _first_row(db: sqlite3.Connection, query: str, start: int) -> tuple[bool, int | None]:
    """Whether reading can begin at rowid ``start``, and the rowid of the first whole row it meets (None: no more)."""
    try:
        row = db.execute(f"{query} LIMIT 1", (start,)).fetchone()
    except sqlite3.DatabaseError:
        return False, None
    return True, None if row is None else row[0]


def recorded_plies(db: sqlite3.Connection, game: int) -> int:
    """The game's last ply by the index of ``moves``, which tells of moves whose own rows are lost; 0 if unreadable."""
    try:
        return db.execute("SELECT max(ply) FROM moves WHERE game = ?", (game,)).fetchone()[0] or 0
    except sqlite3.DatabaseError:
        return 0


def replay(record: GameRecord, moves: list[MoveRecord], recorded: int, lost_after: int | None) -> GameReading:
    """The game with the moves that replay in order from its setup, up to the first one lost or refused;
    ``lost_after`` is the ply that unreadable rows follow, if any do."""
    total = max([recorded, *(move.ply for move in moves)])
    try:
        state = state_from_json(json.loads(record.setup))
    except (EngineError, TypeError, ValueError) as exc:
        return GameReading(record, None, total, f"its setup cannot be loaded: {exc}")
    kept: list[MoveRecord] = []
    problem = None
    for move in moves:
        if move.ply != len(kept) + 1 or not isinstance(move.move, str):
            break
        try:
            state.apply(move.move)
        except EngineError as exc:
            problem = f"move {move.ply} ({move.move!r}) no longer replays: {exc}"
            break
        kept.append(move)
    if problem is None and len(kept) < total:
        problem = f"move {len(kept) + 1} is unreadable"
    elif problem is None and lost_after == len(kept):
        problem = f"the rows after move {lost_after} are unreadable"
    return GameReading(replace(record, moves=tuple(kept)), state.game.name, total, problem)


def write_salvage(reading: JournalReading, output: Path) -> None:
    """A new journal with every game whose setup loads, each with the moves that replay."""
    journal = Journal(output)
    try:
        for game in reading.games:
            if game.name is not None:
                journal.restore(game.record)
    finally:
        journal.close()
