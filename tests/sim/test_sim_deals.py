"""The simulator deals each new game of a random set-up afresh: at start, from the new-game form and the button;
with --seed the deals repeat; a restarted simulator takes the journal's game up again as it was dealt."""

from __future__ import annotations

from firmware_host.sim import SimSession
from hal.clock import ManualClock


def sim(tmp_path, options=None, seed=None, journal="journal.sqlite3"):
    return SimSession("pawns-crossing", options, journal=tmp_path / journal, seed=seed, clock=ManualClock())


def dealt(session: SimSession) -> tuple[int, int, dict[str, str]]:
    state = session.daemon.state
    return session.daemon.journal.game_id, state.game.options["seed"], state.layout()


def test_the_form_and_the_button_deal_each_new_game_afresh_and_a_restart_resumes_it(tmp_path):
    session = sim(tmp_path)
    first = dealt(session)
    session.act({"type": "new_game", "game": "pawns-crossing", "options": {}, "seats": None})
    second = dealt(session)
    assert second[0] == 2 and second[1:] != first[1:], "the form starts a new game, not the one under way"
    session.act({"type": "button", "name": "new_game"})
    third = dealt(session)
    assert third[0] == 3 and third[1:] not in (first[1:], second[1:])
    session.close()
    again = sim(tmp_path)
    assert dealt(again) == third, "restarted, the simulator takes the game up again as it was dealt"
    assert again.view()["options"]["seed"] == third[1]
    again.act({"type": "new_game", "game": "pawns-crossing", "options": {"seed": 11}, "seats": None})
    assert dealt(again)[1] == 11
    again.close()


def test_a_seeded_simulator_deals_the_same_games_again(tmp_path):
    one, two = sim(tmp_path, seed=4, journal="a.sqlite3"), sim(tmp_path, seed=4, journal="b.sqlite3")
    started = dealt(one)
    assert started == dealt(two)
    for session in (one, two):
        session.act({"type": "button", "name": "new_game"})
    assert dealt(one) == dealt(two) and dealt(one)[1] != started[1]
    one.close()
    two.close()
