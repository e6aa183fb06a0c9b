"""The journal: moves survive a reopen, takebacks and new games are recorded, bad files are explained."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from firmware_host.journal import Journal, JournalError


def play(state, *texts: str) -> None:
    for text in texts:
        state.apply(text)


def test_a_game_resumes_at_its_last_recorded_move(tmp_path, toy) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    state = toy.ToyGame().new_initial_state()
    journal.start(state)
    for text in ("roll 1", "@p1", "roll 2", "@p2"):
        journal.record(state.apply(text))
    journal.close()
    resumed = Journal(path).resume()
    assert resumed.position() == state.position()
    assert [str(m) for m in resumed.history] == ["roll 1", "@p1", "roll 2", "@p2"]


def test_a_takeback_forgets_moves_and_reopens_a_finished_game(tmp_path, toy) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    state = toy.ToyGame().new_initial_state()
    journal.start(state)
    for text in ("roll 1", "@p1"):
        journal.record(state.apply(text))
    journal.record(state.apply("roll 2"), result="test")  # as if it ended the game
    assert journal.resume() is None
    journal.take_back(2)
    assert journal.moves() == ["roll 1"]
    assert [str(m) for m in journal.resume().history] == ["roll 1"]


def test_a_new_game_abandons_the_unfinished_one(tmp_path, toy) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    first = toy.ToyGame().new_initial_state()
    journal.start(first)
    journal.record(first.apply("roll 2"))
    journal.start(toy.ToyGame(hand=1).new_initial_state())
    resumed = journal.resume()
    assert resumed.game.options["hand"] == 1 and not resumed.history


def test_a_journal_that_no_longer_replays_names_the_move_and_the_fix(tmp_path, toy) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    journal.start(toy.ToyGame().new_initial_state())
    journal.record(toy.Roll(7))
    with pytest.raises(JournalError, match=r"game 1, move 1 \('roll 7'\) no longer replays: .*; move it aside .*or salvage its games"):
        journal.resume()


def test_an_unwritable_place_is_explained(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(JournalError, match=r"cannot open the journal .*give \[journal\] path a writable place"):
        Journal(blocker / "journal.sqlite3")


def test_a_game_whose_setup_no_longer_loads_names_the_game_and_the_fix(tmp_path, toy) -> None:
    path = tmp_path / "j.sqlite3"
    Journal(path).start(toy.ToyGame().new_initial_state())
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("UPDATE games SET setup = ?", ('{"game": "chess"}',))
    journal = Journal(path)
    with pytest.raises(JournalError, match=r"game 1 cannot be set up again: unknown game 'chess'.*; move it aside .*or salvage"):
        journal.resume()
