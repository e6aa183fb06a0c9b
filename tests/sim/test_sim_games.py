"""Every game played to its end in the simulator by the page's actions alone (issue 9's "done when").

A seeded person picks each move from the daemon's own engine state, makes it with
clicks, flips, takes from the box, drops, buttons and moves by text, answers the
daemon's confirmations with hint and confirm, and lets the daemon roll the dice.
Time is a ``ManualClock``: the whole set runs in seconds.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from engine.core import Change
from engine.registry import available_games
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

#: (game, options, goal of the seeded person, cap on plies or None to play to the end).
GAMES = [
    ("overpass", {"players": 2}, "off", None),
    ("overpass", {"players": 3}, "off", None),
    ("overpass", {"players": 4}, "off", None),
    ("groups-of-three", {"players": 2}, "in", None),
    ("mono-line", {}, "off", None),
    ("full-house", {"pieces": 10}, "fill", None),
    ("crooked-jumps", {}, "off", None),
    ("overpass-spiral", {}, "off", None),
    ("squareoff", {"variant": "classic"}, "off", None),
    ("squareoff", {"variant": "jump-off"}, "off", None),
    ("squareoff", {"variant": "trading-places"}, "off", None),
    ("hexover", {}, "off", None),
    ("pawns-crossing", {"players": 2}, "off", 300),
]


def play(session: SimSession, clock: ManualClock, goal: str, cap: int | None, seed: int) -> int:
    """Play seeded moves until the game ends (or ``cap`` plies); returns the plies played."""
    player = clicks.Player(session, clock)
    rng = random.Random(seed)
    player.wait(clicks.SETTLE_WAIT)
    state = session.daemon.state
    while not state.is_terminal() and (cap is None or len(state.history) < cap):
        player.make(clicks.choose(state, rng, goal))
        state = session.daemon.state
    return len(state.history)


def new_session(tmp_path: Path, game: str, options: dict, **kwargs) -> tuple[SimSession, ManualClock]:
    clock = ManualClock()
    return SimSession(game, options, journal=tmp_path / "journal.sqlite3", seed=3, clock=clock, **kwargs), clock


def test_every_available_game_is_played_here():
    assert {game for game, *_ in GAMES} == set(available_games())


@pytest.mark.parametrize(("game", "options", "goal", "cap"), GAMES,
                         ids=[f"{game}-{'-'.join(map(str, options.values()))}" for game, options, *_ in GAMES])
def test_a_whole_game_is_played_by_clicks(tmp_path, game, options, goal, cap):
    session, clock = new_session(tmp_path, game, options)
    plies = play(session, clock, goal, cap, seed=5)
    state = session.daemon.state
    if cap is None:
        assert state.is_terminal()
        assert session.daemon.snapshot()["outcome"] is not None
    else:
        assert plies >= cap
