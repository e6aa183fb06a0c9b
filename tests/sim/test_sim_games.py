"""Every game played to its end in the simulator by the page's actions alone (issue 9's "done when").

A seeded person picks each move from the daemon's own engine state, makes it with
clicks, flips, takes from the box, drops, buttons and moves by text, answers the
daemon's confirmations with hint and confirm, and lets the daemon roll the dice.
Time is a ``ManualClock``: the whole set runs in seconds.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from engine.core import Move, State
from engine.games.full_house import FullHouse
from engine.registry import available_games
from engine.solvers.full_house import solve
from firmware_host.sim import SimSession
from hal.clock import ManualClock


def _clicks() -> ModuleType:
    """tests/sim/clicks.py under a fixed name (tests import no siblings under importlib mode)."""
    name = "gameboard_sim_tests_clicks"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).parent / "clicks.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


clicks = _clicks()

Policy = Callable[[State], Move]


def full_house_solution(seed: int) -> Policy:
    """The book's Full House puzzle, played as the solver solves it (a short search still finds a solution)."""
    solution = solve(time_limit=0.3, state=FullHouse().new_initial_state())
    assert solution.solved, solution.explanation
    return clicks.Script(solution.moves)


def greedy(score: clicks.Score) -> Callable[[int], Policy]:
    return lambda seed: clicks.Greedy(score, seed)


#: (game, options, the person's policy from a seed, cap on plies: None plays to the end).
GAMES = [
    ("overpass", {"players": 2}, greedy(clicks.outward), None),
    ("overpass", {"players": 3}, greedy(clicks.outward), None),
    ("overpass", {"players": 4}, greedy(clicks.outward), None),
    ("groups-of-three", {"players": 2}, greedy(clicks.bring_in_and_bear_off), None),
    ("mono-line", {}, greedy(clicks.outward), None),
    ("full-house", {}, full_house_solution, None),
    ("crooked-jumps", {}, greedy(clicks.outward), None),
    ("overpass-spiral", {}, greedy(clicks.outward), None),
    ("squareoff", {"variant": "classic"}, greedy(clicks.outward), None),
    ("squareoff", {"variant": "jump-off"}, greedy(clicks.outward), None),
    ("squareoff", {"variant": "trading-places"}, greedy(clicks.outward), None),
    ("hexover", {}, greedy(clicks.outward), None),
    ("pawns-crossing", {"players": 2}, greedy(clicks.preferring("Declare", "Roll", "TokenMove")), None),
]


def play(session: SimSession, clock: ManualClock, policy: Policy, cap: int | None = None) -> int:
    """Play the policy's moves until the game ends (or ``cap`` plies); returns the plies played."""
    player = clicks.Player(session, clock)
    player.ready()
    state = session.daemon.state
    while not state.is_terminal() and (cap is None or len(state.history) < cap):
        player.make(policy(state))
        state = session.daemon.state
    return len(state.history)


def new_session(tmp_path: Path, game: str, options: dict, **kwargs) -> tuple[SimSession, ManualClock]:
    clock = ManualClock()
    return SimSession(game, options, journal=tmp_path / "journal.sqlite3", seed=3, clock=clock, **kwargs), clock


def test_every_available_game_is_played_here():
    assert {game for game, *_ in GAMES} == set(available_games())


@pytest.mark.parametrize(("game", "options", "policy", "cap"), GAMES,
                         ids=[f"{game}-{'-'.join(map(str, options.values()))}".strip("-") for game, options, *_ in GAMES])
def test_a_whole_game_is_played_by_clicks(tmp_path, game, options, policy, cap):
    session, clock = new_session(tmp_path, game, options)
    plies = play(session, clock, policy(5), cap)
    state = session.daemon.state
    if cap is None:
        assert state.is_terminal()
        assert session.daemon.snapshot()["outcome"] is not None
    else:
        assert plies >= cap


def test_a_whole_game_is_played_by_clicks_with_sensor_noise_on(tmp_path):
    session, clock = new_session(tmp_path, "overpass", {"players": 2})
    session.act({"type": "noise", "on": True})
    assert session.view()["noise"]
    play(session, clock, greedy(clicks.outward)(8))
    assert session.daemon.state.is_terminal()
