"""No two LED meanings lit together look alike, to normal eyes or under protanopia, deuteranopia, tritanopia.

The distances are CIEDE2000 between the presenter's own colours as simulated after Machado
et al. 2009 (severity 1.0); the pairs are those ``firmware_host.lit_together`` derives from the
presenter's rules and each game's facts (bench/colour_pairs.py checks them against play).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.registry import available_games, game_class
from firmware_host.colour_vision import SIMULATIONS, ciede2000, distance, seen_dimmed, simulated
from firmware_host.lit_together import LightFacts, closest, lights_in, lit_together, looks, told_apart_by_status
from firmware_host.presenter import INDICATORS, LIGHTS, css_colour
from firmware_host.todo import Todo, describe

#: The least CIEDE2000 between two meanings lit together, under every simulation (issue 36).
LEAST = 15.0
#: Meanings of one colour that can be lit together, and the words the status says for the blinking one.
SHARED = {frozenset({"destination", "todo_put"}): ("put", "put a red on h4"),
          frozenset({"removal", "todo_remove"}): ("remove", "take the red off h4"),
          frozenset({"todo_flip", "todo_restack"}): ("restack", "make h4 hold a red")}
GAMES = sorted(available_games())


@pytest.mark.parametrize("lab1, lab2, expected", [
    # Sharma, Wu & Dalal 2005, table 1: pairs 1, 7, 13, 14, 15, 17, 25 and 34.
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0009), 7.1792),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
    ((50.0, -0.001, 2.49), (50.0, 0.0009, -2.49), 4.8045),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
])
def test_ciede2000_matches_the_published_test_data(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=5e-5)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=5e-5)


def test_the_simulations_keep_greys_and_find_the_audits_figures():
    for simulation in SIMULATIONS:
        assert simulated((255, 255, 255), simulation) == pytest.approx((1, 1, 1), abs=2e-3)
    # The audit's figures for the colours before issue 36: green and orange under deuteranopia, cyan and aqua
    # under tritanopia; and how far apart they were in normal vision.
    assert distance((0, 200, 40), (255, 110, 0), "deuteranopia") == pytest.approx(4.0, abs=0.05)
    assert distance((0, 220, 220), (0, 255, 190), "tritanopia") == pytest.approx(6.4, abs=0.05)
    assert distance((0, 200, 40), (255, 110, 0)) > 40


def test_an_led_dimmed_looks_as_its_light_scales():
    assert seen_dimmed((255, 255, 255), 0.25) == (137, 137, 137)  # a quarter of the light, not 64 of 255
    assert seen_dimmed((255, 0, 0), 1.0) == (255, 0, 0)


@pytest.mark.parametrize("game", GAMES)
def test_no_two_meanings_lit_together_look_alike(game):
    facts = LightFacts.of(game_class(game)())
    too_close = [f"{first}/{second} {found:.1f} under {simulation}"
                 for found, simulation, first, second in closest(facts) if found < LEAST]
    assert not too_close, f"{game}: lit together, closer than {LEAST} ΔE00: {too_close}"


def test_meanings_of_one_colour_are_told_apart_by_the_status():
    shared = set()
    for game in GAMES:
        facts = LightFacts.of(game_class(game)())
        shown = looks(facts)
        shared |= {pair for pair in lit_together(facts) if told_apart_by_status(*(shown[name] for name in pair))}
    assert shared == set(SHARED)
    for pair, (kind, words) in SHARED.items():
        assert describe([Todo(kind, "h4", ("red",))]) == words
        first, second = sorted(pair)
        assert first == "destination" or first == "removal" or kind == "restack"
    assert describe([Todo("flip", "h4", ("red",))]) == "flip h4 to red"  # its twin, todo_restack, says "make"


def test_the_derivation_follows_the_presenters_rules():
    hexover, overpass = LightFacts.of(game_class("hexover")()), LightFacts.of(game_class("overpass")())
    pairs = lit_together(overpass)
    # The whose-turn glow and the last move light only while the board waits; the moves to confirm only then.
    assert frozenset({"last_move", "turn_red"}) in pairs
    assert frozenset({"last_move", "candidate"}) not in pairs
    assert frozenset({"turn_red", "turn_blue"}) not in pairs  # one player's turn at a time
    assert frozenset({"hint", "carry_to"}) not in pairs  # a hint or a move decided elsewhere, never both
    assert frozenset({"dice_first", "dice_second"}) in pairs
    assert frozenset({"dice_first", "hint"}) not in pairs  # the dice LEDs stand apart from the places
    # Each game's facts: Hexover has no dice, no bridges and only white and black pieces.
    assert {"carry_path", "hint_path", "dice_first", "turn_red"} <= lights_in(overpass)
    assert not {"carry_path", "hint_path", "dice_first", "turn_red"} & lights_in(hexover)
    assert {"turn_white", "turn_black", "todo_flip"} <= lights_in(hexover)


def test_the_docs_legend_gives_the_presenters_colours():
    text = (Path(__file__).parents[2] / "docs" / "daemon.md").read_text()
    rows = {line.split("`")[3] if line.count("`") >= 4 else "": line for line in text.splitlines()
            if line.startswith("| ")}
    for name, light in LIGHTS.items():
        if not name.startswith(("fault_", "dice_")):
            assert css_colour(light.colour) in rows[name], f"docs/daemon.md's row for {name} has another colour"
    for colour in (*(LIGHTS[name].colour for name in ("dice_first", "dice_second")), *INDICATORS.values()):
        assert css_colour(colour) in text
