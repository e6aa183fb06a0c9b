"""The hint in the simulator: a person who presses hint at every move and does what the lights say (lift
the white-lit piece, put it on the other white light, take off the orange-lit one) solves each puzzle,
from its start or from half-way along a known solution."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from firmware_host.presenter import PALETTE, css_colour
from firmware_host.sim import SimSession
from hal.clock import ManualClock
from tests.sim import clicks

#: Wall-clock seconds a hint may take before the test gives up: a guard against a hang, not a speed check.
PATIENCE = 60.0
GOLDEN = Path(__file__).parents[1] / "data" / "overpass_spiral" / "one_piece_left.json"
WHITE, ORANGE = css_colour(PALETTE["hint"]), css_colour(PALETTE["removal"])


def hinted_move(session: SimSession, player: clicks.Player):
    """Press hint, wait for it, and read the move from the lights: white on a piece to lift, white on an empty
    place to fill, orange to take off."""
    player.act({"type": "button", "name": "hint"})
    deadline = time.monotonic() + PATIENCE
    while session.daemon.thinker.busy:
        assert time.monotonic() < deadline, "the hint gave no answer"
        player.wait(0.02)
        time.sleep(0.005)
    leds, pieces, state = session.daemon.snapshot()["leds"], session.mock.contents, session.daemon.state
    lift = {loc for loc, colour in leds.items() if colour == WHITE and pieces.get(loc)}
    put = {loc for loc, colour in leds.items() if colour == WHITE and not pieces.get(loc)}
    off = {loc for loc, colour in leds.items() if colour == ORANGE}
    assert put, f"no hint lit: {session.daemon.status_text()}"
    matching = [move for move in state.legal_moves
                if {c.location for c in state.footprint(move).changes if c.after is None} == lift | off
                and {c.location for c in state.footprint(move).changes if c.before is None} == put
                and set(state.takes_off(move)) == off]
    assert len(matching) == 1, f"the lights {lift}, {put}, {off} fit {matching}"
    return matching[0]


@pytest.mark.parametrize("game, options, moves", [
    ("crooked-jumps", {}, []),
    ("full-house", {"pieces": 8}, []),
    ("overpass-spiral", {}, json.loads(GOLDEN.read_text())["moves"][:31]),
])
def test_following_the_hint_lights_solves_the_puzzle(tmp_path, game, options, moves):
    clock = ManualClock()
    session = SimSession(game, options, journal=tmp_path / "journal.sqlite3", seed=3, clock=clock)
    player = clicks.Player(session, clock)
    player.ready()
    state = session.daemon.state
    for text in moves:
        player.make(state.parse_move(text))
    while not state.is_terminal():
        player.make(hinted_move(session, player))
    assert state.outcome().winners == (0,)
    assert session.view()["status"].startswith("game over: ")


def test_following_the_hint_lights_from_the_spirals_start_leaves_the_last_piece_in_the_centre(tmp_path):
    clock = ManualClock()
    session = SimSession("overpass-spiral", {}, journal=tmp_path / "journal.sqlite3", seed=3, clock=clock)
    player = clicks.Player(session, clock)
    player.ready()
    state = session.daemon.state
    player.act({"type": "button", "name": "hint"})
    while session.daemon.thinker.busy:
        player.wait(0.02)
        time.sleep(0.005)
    assert session.daemon.snapshot()["note"] == "hint: 39 more moves to one piece in the centre"
    player.act({"type": "button", "name": "hint"})  # hidden again; each move below asks anew
    while not state.is_terminal():
        player.make(hinted_move(session, player))
    assert state.outcome().reason == "solved: one piece left, in the centre"
