"""Playing the computer in the simulator: seats from the form, the computer's move shown and carried
out by the person's clicks, or by the auto hands; the board equals the game after every move."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from engine.core import State
from engine.registry import game_class
from firmware_host.sim import SimError, SimSession
from hal.clock import ManualClock
from tests.daemon.tables import QUICK
from tests.sim import clicks

#: Wall-clock seconds the worker may take before a test gives up: a guard against a hang, not a speed check.
PATIENCE = 60.0


def session_with(tmp_path: Path, game: str, options: dict, seats: list[str], auto: bool = False):
    clock = ManualClock()
    session = SimSession(game, options, journal=tmp_path / "journal.sqlite3", seed=3, clock=clock, seats=seats,
                         auto=auto, thinking=QUICK)
    return session, clock


def person_move(state: State, rng: random.Random):
    """A move a person can make, chosen at random (no cheaper move has the same footprint)."""
    footprints = {move: state.footprint(move) for move in state.legal_moves}
    cheapest: dict = {}
    for footprint in footprints.values():
        cheapest[footprint.changes] = min(footprint.cost, cheapest.get(footprint.changes, footprint.cost))
    return rng.choice([move for move, footprint in footprints.items()
                       if not footprint.changes or footprint.cost == cheapest[footprint.changes]])


def await_computer(session: SimSession, player: clicks.Player) -> None:
    """Let the loop run until the computer's step is shown (or, with nothing to carry out, made)."""
    daemon, deadline = session.daemon, time.monotonic() + PATIENCE
    plies = len(daemon.state.history)
    while daemon.carry is None and len(daemon.state.history) == plies:
        assert time.monotonic() < deadline, f"the computer gave no move: {daemon.status_text()}"
        player.wait(clicks.HAND_PAUSE)
        time.sleep(0.002)


def play_against_the_computer(session: SimSession, clock: ManualClock, plies: int, seed: int = 0) -> int:
    """``plies`` moves by clicks: the person's at random, the computer's as its lights show; returns the
    computer's moves.  The clicks player checks the daemon took each move and the board shows it."""
    rng = random.Random(seed)
    player = clicks.Player(session, clock)
    player.ready()
    made = 0
    for _ in range(plies):
        state = session.daemon.state
        if state.is_terminal():
            break
        mover = state.current_player
        if session.daemon.seats[mover].computer:
            await_computer(session, player)
            carry = session.daemon.carry
            if carry is None:  # made by itself, with nothing to carry out (the turn may have ended with it)
                player.catch_up()
            else:
                view = session.view()
                # The step shown is decided; the rest of a turn of several may still be planned ("thinking").
                decided = view["decided"]
                assert decided["by"] == "computer" and str(carry.move) == decided["moves"][decided["step"]]
                assert "(computer)" in view["status"] and f": {carry.move}" in view["status"]
                player.make(carry.move)
            made += 1
        else:
            player.make(person_move(state, rng))
        if not session.daemon.state.is_terminal():
            player.ready()
    return made


GAMES = [("squareoff", {}), ("hexover", {}), ("mono-line", {}), ("overpass", {"players": 2}),
         ("groups-of-three", {}), ("pawns-crossing", {}), ("full-house", {})]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_person_plays_the_computer_by_clicks(tmp_path, game, options):
    players = game_class(game)(**options).num_players
    seats = ["computer:easy"] if players == 1 else ["human", "computer:easy"] + ["human"] * (players - 2)
    session, clock = session_with(tmp_path, game, options, seats)
    try:
        assert session.view()["seats"] == seats
        assert play_against_the_computer(session, clock, 12 if players > 1 else 3) >= 1
    finally:
        session.close()


def test_the_auto_hands_carry_out_the_computers_moves(tmp_path):
    session, clock = session_with(tmp_path, "squareoff", {}, ["computer:easy", "computer:easy"], auto=True)
    player = clicks.Player(session, clock)
    try:
        deadline = time.monotonic() + PATIENCE
        while len(session.daemon.state.history) < 6:
            assert time.monotonic() < deadline, session.daemon.status_text()
            player.wait(clicks.HAND_PAUSE)
            time.sleep(0.002)
        assert session.view()["auto"] is True
        session.act({"type": "auto", "on": False})  # the step under way is finished, no other begun
        player.wait(2.0)
        board = {loc: piece for loc, piece in session.daemon.state.contents().items() if piece}
        assert dict(session.mock.contents) == board
    finally:
        session.close()


def test_the_form_chooses_seats_and_bad_seats_change_nothing(tmp_path):
    session, _ = session_with(tmp_path, "squareoff", {}, [])
    try:
        view = session.view()
        assert view["seats"] == ["human", "human"]
        assert view["seat_choices"] == ["human", "computer:easy", "computer:normal", "computer:hard"]
        assert {g["name"]: g["players"] for g in view["games"]}["overpass"] == 4
        for seats, message in ((["human"], "1 seat for a game of 2 players"),
                               (["human", "computer:expert"], "no computer level 'expert'"),
                               (["human", "robot"], "'robot' is not a seat")):
            with pytest.raises(SimError, match=message):
                session.act({"type": "new_game", "game": "squareoff", "options": {}, "seats": seats})
            assert session.view()["seats"] == ["human", "human"]
        session.act({"type": "new_game", "game": "hexover", "options": None, "seats": ["computer:hard", "human"]})
        assert session.view()["seats"] == ["computer:hard", "human"] and session.view()["game"] == "hexover"
    finally:
        session.close()


def test_seats_of_the_wrong_kind_are_refused_by_name(tmp_path):
    session, _ = session_with(tmp_path, "squareoff", {}, [])
    try:
        with pytest.raises(SimError, match='a new_game action needs "seats" as a list'):
            session.act({"type": "new_game", "game": "squareoff", "options": {}, "seats": "human"})
    finally:
        session.close()
