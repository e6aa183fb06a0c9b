"""The simulator's records: a record imported plays on, the page's export (header + listed moves) is the record,
and a replay shows an earlier position without disturbing the game."""

from __future__ import annotations

import random

import pytest

from engine import new_game
from engine.record import parse_record, record_game, replay, write_record
from firmware_host.sim import SimError, SimSession
from hal.clock import ManualClock
from tests.sim.test_web import mirrored_squareoff


@pytest.fixture
def session(tmp_path):
    """``session(game)`` -> a simulator on a manual clock, closed after the test (a computer seat's process too)."""
    made = []

    def make(game="squareoff"):
        made.append(SimSession(game, None, journal=tmp_path / "journal.sqlite3", seed=3, clock=ManualClock()))
        return made[-1]

    yield make
    for sim in made:
        sim.close()


def a_record(name: str, plies: int, seats=("human", "computer:easy")) -> tuple[str, object]:
    state = new_game(name)
    start = state.clone()
    rng = random.Random(4)
    while len(state.history) < plies and not state.is_terminal():
        state.push(state.random_move(rng))
    return write_record(record_game(start, state.history, seats=seats, date=0)), state


def exported(view) -> str:
    """What the page's Export writes: the header, then the moves it lists."""
    return view["record_header"] + "".join(f"{number}. {text}\n" for number, text in enumerate(view["log"], 1))


def test_an_imported_record_is_played_on_and_exported_again(session) -> None:
    sim = session()
    text, state = a_record("squareoff", 20)
    sim.act({"type": "import_record", "text": text})
    assert sim.daemon.state.position() == state.position()
    view = sim.view()
    assert view["log"] == [str(move) for move in state.history]
    assert view["seats"] == ["human", "computer:easy"]
    again = parse_record(exported(view))
    assert again.moves == parse_record(text).moves and again.seats == ("human", "computer:easy")
    assert again.date != "?" and again.result == "*"
    assert view["replay"] is None


def test_a_replay_shows_an_earlier_position_and_leaves_the_game_as_it_is(session) -> None:
    sim = session()
    text, state = a_record("squareoff", 20, seats=("human", "human"))
    sim.act({"type": "import_record", "text": text})
    sim.act({"type": "replay", "ply": 2})
    replay = sim.view()["replay"]
    first, second = map(str, state.history[:2])
    assert replay["ply"] == 2 and replay["plies"] == 20 and replay["move"] == second
    assert replay["places"] == [second]
    assert f'data-loc="{first}"' in replay["svg"] and "<svg" in replay["svg"]
    assert sim.daemon.state.position() == state.position() and len(sim.daemon.state.history) == 20
    sim.act({"type": "replay", "ply": 99})
    assert sim.view()["replay"]["ply"] == 20
    sim.act({"type": "replay", "ply": None})
    assert sim.view()["replay"] is None


def test_a_finished_game_imported_is_shown_at_its_end_to_step_through(session) -> None:
    sim = session("hexover")
    text, state = a_record("hexover", 200, seats=("human", "human"))
    assert state.is_terminal()
    sim.act({"type": "import_record", "text": text})
    assert sim.daemon.state.is_terminal() and len(sim.view()["log"]) == len(state.history)
    assert parse_record(exported(sim.view())).result == parse_record(text).result


@pytest.mark.parametrize(("action", "message"), [
    ({"type": "import_record", "text": '[Game "squareoff"]\n\n1. p1\n2. p1\n'},
     r"^the record: line 4: move 2 \(p1\) is refused: 'p1' is not a legal move here"),
    ({"type": "import_record", "text": "hello"}, r"^the record: line 1: 'hello' is neither a tag nor a move"),
    ({"type": "replay", "ply": -1}, r"^a replay shows the position after move 0 \(the start\) or later, not -1"),
    ({"type": "replay", "ply": "2"}, r'^a replay action needs "ply" as a whole number'),
    ({"type": "replay", "ply": True}, r'^a replay action needs "ply" as a whole number or null'),
])
def test_a_bad_record_or_replay_is_refused_and_the_game_goes_on(session, action, message) -> None:
    sim = session()
    before = sim.daemon.state.position()
    with pytest.raises(SimError, match=message):
        sim.act(action)
    assert sim.daemon.state.position() == before


def test_the_mirror_of_a_real_board_offers_its_record_too(tmp_path) -> None:
    daemon, mock, clock, mirror = mirrored_squareoff(tmp_path)
    try:
        mock.place("p1", "black")
        for _ in range(10):
            clock.advance(0.1)
            daemon.step()
        record = parse_record(exported(mirror.view()))
        assert record.moves == ("p1",) and record.seats == ("human", "human") and record.date != "?"
        assert replay(record).position() == daemon.state.position()
    finally:
        daemon.close()
