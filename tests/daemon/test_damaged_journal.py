"""Damaged journals and files that are not journals: refused in one line, checked, and salvaged.

The damage is real: games are played through the engine into a journal, then bytes of one
of its pages are overwritten, or the file is cut short, so that SQLite itself reports it.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import struct
from contextlib import closing
from pathlib import Path

import pytest

from engine.registry import new_game
from firmware_host.cli import main
from firmware_host.journal import Journal, JournalError
from firmware_host.sim import SimSession

def play_games(path: Path, *plies: int, seed: int = 1) -> dict[int, list[str]]:
    """Over-Pass games of random legal moves (dice too) journalled as the daemon does; the last stays unfinished."""
    rng = random.Random(seed)
    journal = Journal(path)
    played = {}
    for count in plies:
        state = new_game("overpass")
        journal.start(state)
        for _ in range(count):
            choices = [move for move, _ in state.chance_outcomes()] if state.is_chance_node() else list(state.legal_moves)
            journal.record(state.apply(rng.choice(choices)))
        played[journal.game_id] = [str(move) for move in state.history]
    journal.close()
    return played


def page_size(path: Path) -> int:
    with closing(sqlite3.connect(path)) as db:
        return db.execute("PRAGMA page_size").fetchone()[0]


def damage_page_holding(path: Path, time_stamp_query: str) -> None:
    """Overwrite the page that holds a row, found by the time stamp the query selects (stored as an 8-byte double)."""
    with closing(sqlite3.connect(path)) as db:
        (at,) = db.execute(time_stamp_query).fetchone()
    size = page_size(path)
    data = bytearray(path.read_bytes())
    page = data.index(struct.pack(">d", at)) // size
    assert page > 0
    data[page * size:(page + 1) * size] = b"\xff" * size
    path.write_bytes(data)


def damage_page_of_move(path: Path, game: int, ply: int) -> None:
    damage_page_holding(path, f"SELECT at FROM moves WHERE game = {game} AND ply = {ply}")


def refusal(path: Path) -> str:
    return (f"{path} is damaged: database disk image is malformed; move it aside (mv {path} {path}.bad) to start "
            f"afresh, or salvage its games with `gameboard journal salvage {path}`")


@pytest.fixture
def damaged(tmp_path: Path) -> tuple[Path, dict[int, list[str]]]:
    """Two games (the second unfinished), with a page in the middle of the second's moves overwritten."""
    path = tmp_path / "journal.sqlite3"
    played = play_games(path, 150, 400)
    damage_page_of_move(path, 2, 200)
    return path, played


@pytest.fixture
def truncated(tmp_path: Path) -> tuple[Path, dict[int, list[str]]]:
    path = tmp_path / "journal.sqlite3"
    played = play_games(path, 150, 400)
    size = page_size(path)
    os.truncate(path, path.stat().st_size // 2 // size * size)
    return path, played


# -- opening -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["damaged", "truncated"])
def test_a_damaged_journal_is_refused_in_one_line_with_the_fixes(request, kind: str) -> None:
    path, _ = request.getfixturevalue(kind)
    with pytest.raises(JournalError) as refused:
        Journal(path)
    assert str(refused.value) == refusal(path)


@pytest.mark.parametrize("content", [b"SQLite format 2\0" + bytes(range(256)) * 20, b"#!/bin/sh\necho hello\n"])
def test_a_file_that_is_not_sqlite_is_refused(tmp_path, content: bytes) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(content)
    with pytest.raises(JournalError) as refused:
        Journal(path)
    assert str(refused.value) == (f"{path} is not a gameboard journal: it is not an SQLite database; "
                                  f"move it aside (mv {path} {path}.bad) to start afresh")
    assert path.read_bytes() == content


def test_an_empty_file_is_a_new_journal_as_sqlite_sees_it(tmp_path, toy) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"")
    journal = Journal(path)
    assert journal.resume() is None
    journal.start(toy.ToyGame().new_initial_state())
    assert journal.moves() == []


@pytest.mark.parametrize(("schema", "tables"), [
    ("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)", "games(id, name)"),
    ("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT); CREATE TABLE posts (user INTEGER, body TEXT)",
     "posts(user, body), users(id, email)"),
])
def test_a_database_with_another_schema_is_refused_and_left_as_it_was(tmp_path, schema: str, tables: str) -> None:
    path = tmp_path / "notes.db"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(schema)
    content = path.read_bytes()
    with pytest.raises(JournalError) as refused:
        Journal(path)
    assert str(refused.value) == (f"{path} is not a gameboard journal: it has tables {tables}; "
                                  f"move it aside (mv {path} {path}.bad) to start afresh")
    assert path.read_bytes() == content and not Path(f"{path}-wal").exists()


def test_a_write_ahead_log_left_by_a_crash_is_read_not_refused(tmp_path, capsys) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    state = new_game("overpass")
    journal.start(state)
    for text in ("enter", "roll 5+5"):
        journal.record(state.apply(text))
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    for name in (path.name, f"{path.name}-wal"):  # the files as a power cut leaves them: moves only in the log
        shutil.copy(tmp_path / name, crashed / name)
    journal.close()
    copy = crashed / path.name
    assert main(["journal", "check", str(copy)]) == 0
    assert capsys.readouterr().out.endswith(": ok: 1 games, 2 moves\n")
    assert main(["journal", "salvage", str(copy), "-o", str(tmp_path / "salvaged.sqlite3")]) == 0
    assert f"mv {copy} {copy}.bad && mv {copy}-wal {copy}.bad-wal && mv " in capsys.readouterr().out
    assert salvaged_moves(tmp_path / "salvaged.sqlite3")[1] == ["enter", "roll 5+5"]
    assert [str(move) for move in Journal(copy).resume().history] == ["enter", "roll 5+5"]


def test_damage_met_after_opening_is_reported_and_the_log_folded_into_the_file(tmp_path) -> None:
    path = tmp_path / "journal.sqlite3"
    play_games(path, 400)
    journal = Journal(path)
    damage_page_of_move(path, 1, 200)
    with closing(sqlite3.connect(path)) as other:  # a write elsewhere makes the journal read its pages afresh
        other.execute("UPDATE games SET started = started + 1")
        other.commit()
    assert Path(f"{path}-wal").stat().st_size > 0
    with pytest.raises(JournalError) as refused:
        journal.resume()
    assert str(refused.value) == refusal(path)
    # Closed on refusal: nothing is left in a log that `mv` would separate from its file.
    assert not Path(f"{path}-wal").exists()


# -- gameboard run and gameboard sim -----------------------------------------------------------


@pytest.fixture
def not_a_journal(tmp_path: Path) -> tuple[Path, None]:
    path = tmp_path / "journal.sqlite3"
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT)")
    return path, None


def expected_error(path: Path, kind: str) -> str:
    if kind == "not_a_journal":
        return (f"gameboard: error: {path} is not a gameboard journal: it has tables games(id, name); "
                f"move it aside (mv {path} {path}.bad) to start afresh\n")
    return f"gameboard: error: {refusal(path)}\n"


@pytest.mark.parametrize("kind", ["damaged", "truncated", "not_a_journal"])
def test_run_reports_a_bad_journal_in_one_line(request, tmp_path, capsys, kind: str) -> None:
    path, _ = request.getfixturevalue(kind)
    config = tmp_path / "gameboard.toml"
    config.write_text(f'[game]\nname = "overpass"\n[sensors]\ndriver = "mock"\nboard = "overpass"\n'
                      f'[leds]\ndriver = "mock"\nboard = "overpass"\n[journal]\npath = "{path}"\n')
    assert main(["run", "--config", str(config)]) == 2
    assert capsys.readouterr().err == expected_error(path, kind)


@pytest.mark.parametrize("kind", ["damaged", "truncated", "not_a_journal"])
def test_sim_reports_a_bad_journal_before_it_serves(request, capsys, kind: str) -> None:
    path, _ = request.getfixturevalue(kind)
    assert main(["sim", "--journal", str(path), "--port", "8399"]) == 2
    printed = capsys.readouterr()
    assert printed.err == expected_error(path, kind) and "open http" not in printed.out


# -- gameboard journal check ---------------------------------------------------------------------


def test_check_replays_every_game_of_a_sound_journal(tmp_path, capsys) -> None:
    path = tmp_path / "journal.sqlite3"
    play_games(path, 30, 20)
    assert main(["journal", "check", str(path)]) == 0
    assert capsys.readouterr().out == ("game 1: overpass, 30 moves, finished (abandoned)\n"
                                       "game 2: overpass, 20 moves, unfinished\n"
                                       f"{path}: ok: 2 games, 50 moves\n")
    assert list(tmp_path.iterdir()) == [path]  # only read: SQLite left no log or shared memory file beside it


def test_check_names_each_games_first_problem_and_exits_1(damaged, capsys) -> None:
    path, _ = damaged
    assert main(["journal", "check", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "game 1: overpass, 150 moves, finished (abandoned)"
    assert lines[1].startswith("game 2: overpass, 400 moves, unfinished; move ") and lines[1].endswith(" is unreadable")
    assert lines[2] == "moves: some rows are unreadable"
    assert lines[3].startswith("SQLite's quick_check: ")
    assert lines[4] == f"{path}: damaged; salvage its games with `gameboard journal salvage {path}`"


def test_check_says_when_a_file_cannot_be_read_as_a_journal_at_all(tmp_path, capsys) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"#!/bin/sh\necho hello\n")
    assert main(["journal", "check", str(path)]) == 1
    assert capsys.readouterr().out == (f"{path} is not a gameboard journal: it is not an SQLite database; "
                                       f"move it aside (mv {path} {path}.bad) to start afresh\n")


# -- gameboard journal salvage -------------------------------------------------------------------


def salvaged_moves(path: Path) -> dict[int, list[str]]:
    journal = Journal(path)
    try:
        return {game: journal.moves(game) for game in (1, 2)}
    finally:
        journal.close()


@pytest.mark.parametrize("kind", ["damaged", "truncated"])
def test_salvage_keeps_each_game_up_to_its_first_lost_move(request, tmp_path, capsys, kind: str) -> None:
    path, played = request.getfixturevalue(kind)
    output = tmp_path / "salvaged.sqlite3"
    assert main(["journal", "salvage", str(path), "-o", str(output)]) == 0
    kept = salvaged_moves(output)
    assert kept[1] == played[1] and 0 < len(kept[2]) < 200 and kept[2] == played[2][:len(kept[2])]
    lines = capsys.readouterr().out.splitlines()
    # A cut file may have lost the index that tells how long the game was.
    assert lines[:2] == ["game 1: kept all 150 moves",
                         f"game 2: kept {len(kept[2])} of 400 moves; move {len(kept[2]) + 1} is unreadable"
                         if kind == "damaged" else
                         f"game 2: kept {len(kept[2])} moves; the rows after move {len(kept[2])} are unreadable"]
    assert lines[2] == "moves: some rows are unreadable"
    assert lines[3].startswith(f"wrote {output}: 2 games, {150 + len(kept[2])} moves; to play on from it")
    assert main(["journal", "check", str(output)]) == 0


def test_games_whose_own_rows_are_lost_are_named_and_dropped(tmp_path, capsys) -> None:
    path = tmp_path / "journal.sqlite3"
    played = play_games(path, *[3] * 30)  # about 400 bytes of setup each: 9 games to a page
    damage_page_holding(path, "SELECT started FROM games WHERE id = 15")
    output = tmp_path / "salvaged.sqlite3"
    assert main(["journal", "salvage", str(path), "-o", str(output)]) == 0
    lines = capsys.readouterr().out.splitlines()
    lost = [game for game in played if f"game {game}: its own row is unreadable" in lines]
    assert 15 in lost and 1 not in lost and 30 not in lost and "games: some rows are unreadable" in lines
    journal = Journal(output)
    assert {game: journal.moves(game) for game in played} == {game: [] if game in lost else moves
                                                              for game, moves in played.items()}
    journal.close()


def test_the_simulator_resumes_a_salvaged_game_at_its_last_kept_move(damaged, tmp_path) -> None:
    path, played = damaged
    output = tmp_path / "salvaged.sqlite3"
    assert main(["journal", "salvage", str(path), "-o", str(output)]) == 0
    kept = salvaged_moves(output)[2]
    session = SimSession("overpass", journal=output)
    assert [str(move) for move in session.daemon.state.history] == kept == played[2][:len(kept)]
    session.daemon.close()


def test_a_move_that_no_longer_replays_ends_its_game_in_the_salvage(tmp_path, capsys) -> None:
    path = tmp_path / "journal.sqlite3"
    played = play_games(path, 30, 20)
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE moves SET move = 'roll 7+7' WHERE game = 1 AND ply = 2")
    output = tmp_path / "salvaged.sqlite3"
    assert main(["journal", "salvage", str(path), "-o", str(output)]) == 0
    assert salvaged_moves(output) == {1: played[1][:1], 2: played[2]}
    assert capsys.readouterr().out.splitlines()[0].startswith(
        "game 1: kept 1 of 30 moves; move 2 ('roll 7+7') no longer replays: ")


def test_a_journal_whose_list_of_tables_is_damaged_cannot_be_salvaged(tmp_path, capsys) -> None:
    path = tmp_path / "journal.sqlite3"
    play_games(path, 30)
    size = page_size(path)
    data = bytearray(path.read_bytes())
    data[100:size] = b"\xff" * (size - 100)  # the first page, past the file header, holds the list of tables
    path.write_bytes(data)
    with pytest.raises(JournalError) as refused:
        Journal(path)
    assert str(refused.value) == refusal(path)
    assert main(["journal", "salvage", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"gameboard: error: {path} cannot be salvaged: its list of tables is unreadable (database disk image is "
        f"malformed); move it aside (mv {path} {path}.bad) to start afresh\n")
    assert not Path(f"{path}.salvaged").exists()


def test_salvage_writes_only_a_new_file(damaged, tmp_path, capsys) -> None:
    path, _ = damaged
    existing = tmp_path / "existing.sqlite3"
    existing.write_bytes(b"keep me")
    for output in (existing, path):
        assert main(["journal", "salvage", str(path), "-o", str(output)]) == 2
        assert capsys.readouterr().err == (f"gameboard: error: {output} exists: the salvage writes a new file only; "
                                           "give -o another name\n")
    assert existing.read_bytes() == b"keep me"
    assert main(["journal", "salvage", str(path)]) == 0
    assert Path(f"{path}.salvaged").is_file()
