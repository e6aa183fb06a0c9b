"""What can happen in a game, found by playing it: the facts behind its legend and the simulator's flips."""

import threading
import time

from engine.registry import game_class
from firmware_host.game_facts import game_facts, lights_that_occur
from firmware_host.led_view import LedSettings, LedView
from firmware_host.presenter import LIGHTS
from hal.mock import MockLeds
from wiring.model import straight_wiring


def facts(name, **options):
    game = game_class(name)(**options)
    return game_facts(game, straight_wiring(game.board))


def test_hexover_flips_and_never_takes_a_piece_off_or_carries_one():
    hexover = facts("hexover")
    assert hexover.flips and hexover.puts and hexover.todo == {"flip"}
    assert not (hexover.empties or hexover.carries or hexover.takes_off or hexover.stacks or hexover.unsure)
    assert hexover.turn_pieces == {"white", "black"}


def test_a_trade_is_no_flip_and_a_variant_changes_the_facts():
    classic, trading = facts("squareoff"), facts("squareoff", variant="trading-places")
    assert classic.takes_off and classic.carries and not classic.flips and not classic.unsure
    assert trading.unsure and not trading.flips, "a Trade reads as nothing to presence sensors: confirm chooses"


def test_the_lights_of_a_game_follow_its_facts_and_its_seats():
    hexover = facts("hexover")
    alone = lights_that_occur(hexover, guided=False, hints=True, dice_leds=False, remote=False)
    # A piece lifted by mistake shows where it came from in every game.
    assert alone == {"turn_white", "turn_black", "destination", "lifted", "last_move", "todo_flip", "hint", "fix_from",
                     "fix_to", "fault_sensors", "fault_journal"}
    against = lights_that_occur(hexover, guided=True, hints=False, dice_leds=True, remote=True)
    assert against - alone == {"carry_to", "fault_remote"} and "hint" not in against
    assert "dice_first" in lights_that_occur(facts("overpass", players=2), guided=False, hints=False,
                                             dice_leds=True, remote=False)


def test_the_legend_is_worked_out_off_the_loop_and_lists_every_light_until_then():
    """Playing the game a little takes up to ~2.5 s on a Pi 4: the scanning loop never waits for it (it begins
    when the legend is first asked for)."""
    wiring = straight_wiring(game_class("squareoff")().board)
    gate = threading.Event()

    def occurring():
        gate.wait(10)
        return {"destination", "turn_black"}

    lights = LedView(wiring, MockLeds(wiring), LedSettings(), {"black": "#000000", "white": "#ffffff"}, 250, occurring)
    assert not lights.legend_known
    assert {light["name"] for light in lights.legend} == {*LIGHTS, "turn_black", "turn_white"}
    gate.set()
    deadline = time.monotonic() + 10
    while not lights.legend_known:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert [light["name"] for light in lights.legend] == ["turn_black", "destination"]
