"""Every game played to its end in the simulator by the page's actions alone (issue 9's "done when").

A seeded person picks each move from the daemon's own engine state, makes it with
clicks, flips, takes from the box, drops, buttons and moves by text, answers the
daemon's confirmations with hint and confirm, and lets the daemon roll the dice.
Time is a ``ManualClock``: the whole set runs in seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine.core import Change, Move, State
from engine.games.full_house import FullHouse
from engine.registry import available_games
from engine.solvers.full_house import solve
from firmware_host.sim import SimSession
from hal.clock import ManualClock
from tests.sim import clicks

Policy = Callable[[State], Move]


def full_house_solution(seed: int) -> Policy:
    """The book's Full House puzzle, played as the solver solves it (a short search still finds a solution;
    the seed is not needed)."""
    solution = solve(time_limit=0.3, state=FullHouse().new_initial_state())
    assert solution.solved, solution.explanation
    return clicks.Script(solution.moves)


def greedy(score: clicks.Score) -> Callable[[int], Policy]:
    return lambda seed: clicks.Greedy(score, seed)


@dataclass(frozen=True)
class Case:
    """A game to play to its end, the person's policy (from a seed), and the actions it must go through."""

    game: str
    options: dict[str, Any]
    policy: Callable[[int], Policy]
    uses: frozenset[str]

    @property
    def id(self) -> str:
        return "-".join([self.game, *map(str, self.options.values())])


OUTWARD, IN_AND_OFF = greedy(clicks.outward), greedy(clicks.bring_in_and_bear_off)
HOME = greedy(clicks.preferring("Declare", "TokenMove", "Roll", opening="Declare"))
RACE = frozenset({"take", "click", "drop", "end_turn", "confirm"})  # enter, move, exit, end the turn, trade
CASES = [
    Case("overpass", {"players": 2}, OUTWARD, RACE),
    Case("overpass", {"players": 3}, OUTWARD, RACE),
    Case("overpass", {"players": 4}, OUTWARD, RACE),
    Case("groups-of-three", {"players": 2}, IN_AND_OFF, RACE),
    Case("mono-line", {}, OUTWARD, frozenset({"take", "click", "hint", "confirm"})),
    Case("full-house", {}, full_house_solution, frozenset({"take", "click"})),
    Case("crooked-jumps", {}, OUTWARD, frozenset({"click", "drop", "hint", "confirm"})),
    Case("overpass-spiral", {}, OUTWARD, frozenset({"click", "drop", "confirm"})),
    Case("squareoff", {"variant": "classic"}, OUTWARD, frozenset({"take", "click", "drop"})),
    Case("squareoff", {"variant": "jump-off"}, OUTWARD, frozenset({"take", "click", "drop"})),
    Case("squareoff", {"variant": "trading-places"}, OUTWARD, frozenset({"take", "click", "drop", "confirm"})),
    Case("hexover", {}, OUTWARD, frozenset({"take", "click", "flip"})),
    Case("pawns-crossing", {"players": 2}, HOME, frozenset({"take", "click", "drop", "play", "hint", "confirm"})),
]


#: A game still going after this many plies has a policy that goes round in circles: fail rather than hang.
MAX_PLIES = 3000


def play(session: SimSession, clock: ManualClock, policy: Policy) -> clicks.Player:
    """Play the policy's moves until the game ends; returns the player (what it used)."""
    player = clicks.Player(session, clock)
    player.ready()
    state = session.daemon.state
    while not state.is_terminal():
        assert len(state.history) < MAX_PLIES, f"{state.game.name} still going after {MAX_PLIES} plies"
        player.make(policy(state))
        state = session.daemon.state
    return player


def new_session(tmp_path: Path, game: str, options: dict[str, Any]) -> tuple[SimSession, ManualClock]:
    """A simulator on a clock that moves only when the person's hand (or waiting) moves it."""
    clock = ManualClock()
    return SimSession(game, options, journal=tmp_path / "journal.sqlite3", seed=3, clock=clock), clock


def test_every_available_game_is_played_here():
    assert {case.game for case in CASES} == set(available_games())


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_a_whole_game_is_played_by_clicks(tmp_path, case):
    session, clock = new_session(tmp_path, case.game, case.options)
    player = play(session, clock, case.policy(5))
    assert session.daemon.state.is_terminal()
    assert session.view()["status"].startswith("game over: "), "the page shows the game is over"
    assert case.uses <= set(player.used), f"never used {sorted(case.uses - set(player.used))}"


def test_a_whole_game_is_played_by_clicks_with_sensor_noise_on(tmp_path):
    session, clock = new_session(tmp_path, "overpass", {"players": 2})
    session.act({"type": "noise", "on": True})
    assert session.view()["noise"]
    play(session, clock, OUTWARD(8))
    assert session.daemon.state.is_terminal()


def never_stacks(location: str) -> bool:
    return False


def test_a_trade_is_two_lifts_then_two_places():
    trade = [Change("p1", "black", "white"), Change("p2", "white", "black")]
    actions = clicks.hand_actions(trade, ["black", "white"], never_stacks)
    assert [action["type"] for action in actions] == ["click"] * 4
    lifts, places = [action["loc"] for action in actions[:2]], [action["loc"] for action in actions[2:]]
    assert set(lifts) == set(places) == {"p1", "p2"}
    assert places == lifts, "each piece goes where the other came from: the last lifted is put down first"


def test_a_capture_takes_the_piece_off_before_the_capturer_lands():
    capture = [Change("p1", "black", None), Change("p2", "white", "black")]
    assert clicks.hand_actions(capture, ["black", "white"], never_stacks) == [
        {"type": "click", "loc": "p2"}, {"type": "drop"}, {"type": "click", "loc": "p1"}, {"type": "click", "loc": "p2"}]


def test_a_new_piece_comes_from_the_box_and_a_piece_changing_colour_is_turned_over():
    drop = [Change("c1", None, "black"), Change("c2", "white", "black")]
    assert clicks.hand_actions(drop, ["white", "black"], never_stacks) == [
        {"type": "flip", "loc": "c2"}, {"type": "take", "piece": "black"}, {"type": "click", "loc": "c1"}]


def test_stacks_that_stay_occupied_are_cleared_together_and_built_up_again(tmp_path):
    session, _ = new_session(tmp_path, "pawns-crossing", {"players": 2})
    declare = [Change("t1.1", "black+green+red", "black+red"), Change("t4.1", "green+red", "green+green+red")]
    session.mock.set_contents({"t1.1": "black+green+red", "t4.1": "green+red"})
    actions = clicks.hand_actions(declare, list(session.daemon.state.game.pieces), session.stacks)
    for action in actions:
        session.act(action)
    assert dict(session.mock.contents) == {"t1.1": "black+red", "t4.1": "green+green+red"}
    last_lift = max(i for i, action in enumerate(actions) if action["type"] == "drop")
    first_place = min(i for i, action in enumerate(actions) if action["type"] == "take")
    assert last_lift < first_place, "both stacks are empty at once, so the sensors see both touched"


def test_the_entered_piece_may_be_held_past_the_settle_time_before_it_moves_on(tmp_path):
    """Lifting the piece a placement put down is the hand carrying it on, not a takeback of the placement."""
    session, clock = new_session(tmp_path, "overpass", {"players": 2})
    player = clicks.Player(session, clock)
    player.ready()
    state = session.daemon.state
    player.make(state.parse_move("enter"))
    move = next(move for move in state.legal_moves if state.footprint(move).locations[0] == "center"
                and len(state.footprint(move).changes) == 2)
    target = next(change.location for change in state.footprint(move).changes if change.after)
    player.act({"type": "click", "loc": "center"})
    player.wait(1.0)  # thinking where to go, the piece in hand
    player.act({"type": "click", "loc": target})
    player.settle(len(state.history))
    player.answer(move)
    player.check(move)


def test_a_trade_awaiting_confirm_survives_a_bumped_piece_put_back(tmp_path):
    session, clock = new_session(tmp_path, "squareoff", {"variant": "trading-places"})
    player, policy = clicks.Player(session, clock), OUTWARD(5)
    player.ready()
    state = session.daemon.state
    while not (trades := [move for move in state.legal_moves if type(move).__name__ == "Trade"]):
        player.make(policy(state))
    trade = trades[0]
    plies = len(state.history)
    for action in clicks.hand_actions(state.footprint(trade).changes, list(state.game.pieces), session.stacks):
        player.act(action)
    player.settle(plies)
    assert trade in [plan.move for plan in session.daemon.tracker.view.candidates]
    bumped = next(loc for loc, piece in session.mock.contents.items() if loc not in state.footprint(trade).locations)
    player.act({"type": "click", "loc": bumped})  # the hand knocks a neighbour off its place...
    player.act({"type": "click", "loc": bumped})  # ...and puts it straight back
    player.settle(plies)
    player.answer(trade)
    player.check(trade)
