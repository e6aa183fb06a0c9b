"""A remote game's secret key: made with the game, kept across a restart, never another game's."""

import sqlite3

from engine.registry import game_class
from firmware_host.journal import Journal


def test_a_remote_game_has_a_key_that_survives_a_restart(tmp_path):
    state = game_class("hexover")().new_initial_state()
    journal = Journal(tmp_path / "j.db")
    journal.start(state, "friday")
    key = journal.remote_key
    assert key is not None and len(key) == 64 and int(key, 16) >= 0
    journal.close()
    again = Journal(tmp_path / "j.db")
    assert again.resume() is not None and again.remote_key == key
    again.start(state, "saturday")
    assert again.remote_key not in (None, key)
    again.start(state)
    assert again.remote_key is None


def test_a_remote_game_an_earlier_release_began_gets_a_key_on_resuming(tmp_path):
    state = game_class("hexover")().new_initial_state()
    journal = Journal(tmp_path / "j.db")
    journal.start(state, "friday")
    journal.close()
    with sqlite3.connect(tmp_path / "j.db") as db:
        db.execute("DROP TABLE remote_keys")
    again = Journal(tmp_path / "j.db")
    assert again.resume() is not None and again.remote_key is not None and len(again.remote_key) == 64
