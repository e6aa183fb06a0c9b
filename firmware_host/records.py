"""Game records to and from the journal: a journal's game written as a record (docs/records.md), and a record
written into a journal as its game under way, so that the board or the simulator plays on from it."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.core import EngineError
from engine.record import UNFINISHED, Record, outcome_words, record_game, replay, write_record
from engine.registry import state_from_json
from firmware_host.journal import Journal, JournalError, error_code, is_journal, unusable


def _unreadable(path: Path, exc: sqlite3.Error | JournalError) -> JournalError:
    """The report for a journal that cannot be read: another kind of file is not moved aside, only not read."""
    if isinstance(exc, JournalError) or error_code(exc) == sqlite3.SQLITE_NOTADB:
        return JournalError(f"{path} is not a gameboard journal; give --journal a journal's file (a board's is "
                            "[journal] path in its configuration)")
    return unusable(path, exc)


def _open_reading(path: Path) -> sqlite3.Connection:
    """The journal opened for reading only: a daemon may be writing it meanwhile."""
    if not path.is_file():
        raise JournalError(f"{path}: {'a folder, not a journal' if path.is_dir() else 'no such file'}; give "
                           "--journal the journal's file (the board's is [journal] path in its configuration)")
    try:
        return sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise unusable(path, exc) from None


def journal_record(path: Path, game_id: int | None = None, seats: tuple[str, ...] = ()) -> Record:
    """The record of game ``game_id`` of the journal at ``path`` (default: the game under way, else the last
    one), its Date the game's start; ``seats`` as the board's configuration gave them (the journal has none)."""
    with closing(_open_reading(path)) as db:
        try:
            games = dict(db.execute("SELECT id, finished IS NULL FROM games ORDER BY id")) \
                if is_journal(db, path) else {}
            if game_id is None and games:
                game_id = max((game for game, open_ in games.items() if open_), default=max(games))
            row = db.execute("SELECT started, setup FROM games WHERE id = ?", (game_id,)).fetchone() if games else None
            moves = [text for (text,) in db.execute("SELECT move FROM moves WHERE game = ? ORDER BY ply",
                                                    (game_id,))] if row else []
        except (sqlite3.Error, JournalError) as exc:
            raise _unreadable(path, exc) from None
    if not games:
        raise JournalError(f"{path}: an empty journal: it holds no game yet")
    if row is None:
        raise JournalError(f"{path}: no game {game_id}; its games: {', '.join(map(str, games))} "
                           "(`gameboard journal check` lists them)")
    started, setup = row
    try:
        start = state_from_json(json.loads(setup))
        return record_game(start, moves, seats=seats, date=started)
    except (EngineError, ValueError) as exc:
        raise JournalError(f"{path}: game {game_id} does not replay: {exc}; `gameboard journal check {path}` "
                           "says more") from None


def game_started(path: Path, game_id: int) -> float | None:
    """When the journal's game ``game_id`` started (a Unix time), None if it has no such game."""
    with closing(_open_reading(path)) as db:
        try:
            row = db.execute("SELECT started FROM games WHERE id = ?", (game_id,)).fetchone()
        except (sqlite3.Error, JournalError) as exc:
            raise _unreadable(path, exc) from None
    return None if row is None else row[0]


def unfinished_game(path: Path) -> int | None:
    """The id of the journal's game under way, if it has one."""
    with closing(_open_reading(path)) as db:
        try:
            if not is_journal(db, path):
                return None
            row = db.execute("SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        except (sqlite3.Error, JournalError) as exc:
            raise _unreadable(path, exc) from None
    return None if row is None else row[0]


def into_journal(record: Record, path: Path, *, open_ended: bool = False) -> tuple[int, int | None]:
    """Write the record into the journal at ``path`` (made if missing) as its newest game, every move checked
    first: the board or the simulator resumes it there if it is not over (``open_ended``: even if it is, its
    result left unwritten, so that the simulator shows it to step through).  Returns the new game's id and the
    id of the unfinished game it closed (as "abandoned", as a new game on the board closes one), if any."""
    state = replay(record)
    moves = list(state.history)
    start = record.start()
    closed = unfinished_game(path) if path.is_file() else None
    journal = Journal(path)
    try:
        journal.start(start)
        for number, move in enumerate(moves, 1):
            start.push(move)
            outcome = start.outcome() if number == len(moves) and not open_ended else None
            journal.record(move, None if outcome is None else outcome.reason)
        return journal.game_id, closed
    finally:
        journal.close()


class JournalHeader:
    """The record header of a journal's game under way (else its last), for a page beside a daemon that writes
    the journal: read through a connection of its own, the game's start read again only when the game changes."""

    def __init__(self, path: Path, seats: tuple[str, ...]) -> None:
        self.path = path
        self.seats = seats
        self._game: tuple[int, Record] | None = None

    def header(self, outcome: dict[str, Any] | None) -> str:
        """The header (with the blank line ending it) for the game's ``outcome`` (the daemon's snapshot's); "" if
        the journal cannot be read now (the page then offers no export)."""
        try:
            with closing(_open_reading(self.path)) as db:
                row = db.execute("SELECT id FROM games ORDER BY finished IS NOT NULL, id DESC LIMIT 1").fetchone()
                if row is None:
                    return ""
                if self._game is None or self._game[0] != row[0]:
                    started, setup = db.execute("SELECT started, setup FROM games WHERE id = ?", row).fetchone()
                    start = state_from_json(json.loads(setup))
                    self._game = (row[0], record_game(start, [], seats=self.seats, date=started))
        except (sqlite3.Error, JournalError, EngineError, ValueError):
            return ""
        empty = self._game[1]
        result = UNFINISHED if outcome is None else outcome_words(empty.new_game(), outcome["winners"],
                                                                  outcome["reason"])
        return write_record(replace(empty, result=result)).removesuffix("\n")
