"""The LED presenter: priorities, blinking candidates, dice, brightness, and a budget never exceeded."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.boards import load_board
from engine.core import Footprint
from firmware_host.fixes import Fix
from engine.registry import available_games
from firmware_host.daemon import DEFAULT_LEDS
from firmware_host.expectation import Plan, Takeback
from firmware_host.presenter import LIGHTS, MIN_VISIBLE, PALETTE, TURN_GLOW, Presenter, Scene, indicator
from firmware_host.tracker import Status, TrackerView
from wiring.model import straight_wiring

WIRING = straight_wiring(load_board("squareoff"))
LOCATIONS = list(WIRING.channels.values())


def presenter(brightness: float = 1.0, budget: float = 100_000.0, dice=()) -> Presenter:
    return Presenter(WIRING, brightness, budget, 60.0, dice)


def test_ready_shows_the_whose_turn_glow_over_the_last_move() -> None:
    scene = Scene(TrackerView(Status.READY), last_move=frozenset({"p1", "p5"}),
                  turn_locations=frozenset({"p5", "p9"}), turn_colour=(200, 100, 40))
    colours = presenter().colours(scene)
    assert colours == {"p1": PALETTE["last_move"], "p5": (50, 25, 10), "p9": (50, 25, 10)}


def test_a_move_under_way_shows_lifted_destinations_and_removals_not_the_last_move() -> None:
    view = TrackerView(Status.MOVING, lifted=frozenset({"p1"}), destinations=frozenset({"p5", "p17"}),
                       removals=frozenset({"p9"}))
    colours = presenter().colours(Scene(view, last_move=frozenset({"p24"})))
    assert colours == {"p1": PALETTE["lifted"], "p5": PALETTE["destination"], "p17": PALETTE["destination"],
                       "p9": PALETTE["removal"]}


def test_candidates_blink_and_the_selected_one_stands_out() -> None:
    plans = tuple(Plan(Takeback(n), Footprint(), frozenset(), frozenset({f"p{n}"})) for n in (1, 2))
    view = TrackerView(Status.CONFIRM, candidates=plans, selected=1)
    assert presenter().colours(Scene(view, blink_on=True)) == {"p1": PALETTE["candidate"], "p2": PALETTE["selected"]}
    assert presenter().colours(Scene(view, blink_on=False)) == {}


def test_fixes_show_from_and_to() -> None:
    view = TrackerView(Status.OUT_OF_SYNC, fixes=(Fix("p3", "p4", "black"), Fix(None, "p7", "white"),
                                                  Fix("p8", None, None)))
    colours = presenter().colours(Scene(view))
    assert colours == {"p3": PALETTE["fix_from"], "p4": PALETTE["fix_to"], "p7": PALETTE["fix_to"],
                       "p8": PALETTE["fix_from"]}


def test_the_dice_light_one_led_per_pip_die_by_die() -> None:
    dice_presenter = presenter(dice=[f"p{n}" for n in range(17, 25)])
    colours = dice_presenter.colours(Scene(TrackerView(Status.READY), dice="roll 3+2"))
    assert colours == {**dict.fromkeys(["p17", "p18", "p19"], PALETTE["dice_first"]),
                       **dict.fromkeys(["p20", "p21"], PALETTE["dice_second"])}


def test_brightness_scales_every_colour() -> None:
    frame, current = presenter(brightness=0.5).frame({"p1": (255, 100, 0)})
    assert frame[0][0] == (127, 50, 0) and frame[0][1] == (0, 0, 0)
    assert current == pytest.approx((127 + 50) * 60 / 765)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(LOCATIONS), st.tuples(*[st.integers(0, 255)] * 3)),
       st.floats(0.05, 1.0), st.floats(1.0, 2000.0))
def test_a_frame_never_draws_more_than_the_budget(colours, brightness: float, budget: float) -> None:
    frame, current = presenter(brightness, budget).frame(colours)
    drawn = sum(sum(rgb) for strip in frame for rgb in strip) * (60 / 765)
    assert drawn == pytest.approx(current) and current <= budget
    unlimited, _ = presenter(brightness).frame(colours)
    pairs = [(rgb, top) for strip, free in zip(frame, unlimited) for rgb, top in zip(strip, free)]
    assert all(c <= u for rgb, top in pairs for c, u in zip(rgb, top))
    lit = [colour for colour in colours.values() if any(colour)]
    if budget >= len(lit) * 3 * MIN_VISIBLE * 60 / 765:  # the budget can hold every lit LED visibly
        assert all(max(frame[0][LOCATIONS.index(loc)]) >= MIN_VISIBLE for loc, rgb in colours.items() if any(rgb))


def test_a_light_dimmed_below_what_a_strip_shows_is_raised_to_it_in_its_own_hue() -> None:
    frame, _ = presenter(brightness=0.1).frame({"p1": (255, 0, 0), "p2": (50, 50, 100), "p3": (0, 0, 0)})
    assert frame[0][:3] == [(25, 0, 0), (8, 8, MIN_VISIBLE), (0, 0, 0)]


def test_a_budget_too_small_for_every_light_to_show_still_wins() -> None:
    frame, current = presenter(budget=1.0).frame(dict.fromkeys(LOCATIONS, (255, 255, 255)))
    assert current <= 1.0


@pytest.mark.parametrize("name", list(available_games()))
def test_each_players_glow_is_a_colour_a_strip_shows_and_tells_the_players_apart(name: str) -> None:
    pieces = available_games()[name].pieces
    glows = {code: indicator(code, display) for code, display in pieces.items()}
    shown = presenter(DEFAULT_LEDS.brightness, DEFAULT_LEDS.current_budget_ma)
    for code, colour in glows.items():
        frame, _ = shown.frame({"p1": tuple(int(c * TURN_GLOW) for c in colour)})
        assert max(frame[0][0]) >= MIN_VISIBLE, f"{code}'s glow is too dim for a WS2812"
        assert max(colour) == 255 or code in ("black", "white"), "the indicator is the colour at full strength"
    for a, b in ((a, b) for a in glows for b in glows if a < b):
        assert sum((x - y) ** 2 for x, y in zip(glows[a], glows[b])) ** 0.5 >= 100, f"{a} and {b} look alike"


@pytest.mark.parametrize("fault", ["sensors", "journal"])
def test_a_fault_lights_every_led_in_its_colour_within_the_budget(fault: str) -> None:
    view = TrackerView(Status.MOVING, lifted=frozenset({"p1"}), destinations=frozenset({"p5"}))
    shown = presenter(budget=500.0)
    colours = shown.colours(Scene(view, fault=fault))
    assert colours == dict.fromkeys(LOCATIONS, PALETTE[f"fault_{fault}"])
    frame, current = shown.frame(colours)
    assert 0 < current <= 500.0 and all(any(rgb) for strip in frame for rgb in strip)


def test_the_docs_legend_names_every_led_state() -> None:
    legend = (Path(__file__).parents[2] / "docs" / "daemon.md").read_text()
    section = legend[legend.index("## What the LEDs mean"):legend.index("### What lights when")]
    assert all(f"`{name}`" in section for name in LIGHTS), "docs/daemon.md's LED table lacks a state"
