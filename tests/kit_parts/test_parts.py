"""The parts list counts from the board and the game: a sensor and LEDs a place, a magnet a piece, chips by inputs."""

from __future__ import annotations

import csv
import io
import math
import re

import pytest

from engine.boards import load_board
from engine.registry import available_games, game_class
from firmware_host.cli import main
from firmware_host.kit.parts import Kit, KitError, bill_of_materials, csv_text, markdown

#: Each game's piece set, as its rules give it (docs/rules/ and docs/rules.md).
RULE_BOOK_SETS = {
    "overpass": {"black": 10, "white": 10, "red": 10, "blue": 10},
    "groups-of-three": {"black": 10, "white": 10, "red": 10, "blue": 10},
    "mono-line": {"black": 10, "white": 10, "red": 10, "blue": 10},
    "full-house": {"piece": 40},
    "crooked-jumps": {"piece": 16},
    "overpass-spiral": {"piece": 40},
    "squareoff": {"black": 9, "white": 9},
    "hexover": {"disk": 61},
    "pawns-crossing": {"red": 4, "black": 4, "green": 4, "blue": 4},
}


def kit(game: str, **choices) -> Kit:
    game_type = game_class(game)
    return Kit(load_board(game_type.board_name), game_type(), **choices)


def test_every_game_has_its_piece_set() -> None:
    assert {name: cls().piece_set() for name, cls in available_games().items()} == RULE_BOOK_SETS
    assert game_class("overpass")(players=3).piece_set() == {"black": 10, "white": 10, "red": 10}
    assert game_class("full-house")(pieces=20).piece_set() == {"piece": 20}


@pytest.mark.parametrize("game", ["squareoff", "overpass", "hexover", "pawns-crossing"])
def test_the_counts_are_the_boards_and_the_games(game: str) -> None:
    analog = game == "hexover"
    chosen = kit(game, sensors="hall-analog" if analog else "reed", front_end="serial")
    bill = bill_of_materials(chosen)
    places = len(chosen.board.locations)
    pieces = chosen.game.piece_set()
    assert bill.quantity("sensors") == places
    assert bill.quantity("magnets") == sum(pieces.values())
    assert [line.quantity for line in bill.lines if line.item == "magnets"] == list(pieces.values())
    inputs = 16 if analog else 8
    assert bill.quantity("front-end") == math.ceil(places / inputs)
    assert bill.figures["leds"] == places
    assert bill.quantity("buttons") == 5


def test_square_off_on_74hc165s() -> None:
    bill = bill_of_materials(kit("squareoff", sensors="reed", front_end="hc165"))
    expected = {"places": 24, "chips": 3, "channels": 24, "leds": 24, "strips": [24], "strip_m": 0.5,
                "full_white_ma": 1440, "budget_ma": 1440, "supply_a": 2, "fuse_a": 3,
                "pieces": {"black": 9, "white": 9}}
    assert {key: bill.figures[key] for key in expected} == expected
    assert bill.quantity("resistors") == 24 + 1  # a pull-up an input, 330 Ohm at the strip
    assert bill.quantity("capacitors") == 3 + 1 + 1  # a chip's, the level shifter's; 1000 uF at the strip


def test_over_pass_on_74hc165s_with_hall_switches() -> None:
    """The issue's board: 201 places; the docs' supply table (5 V 4 A, budget 3000) and two strips of 101 and 100."""
    bill = bill_of_materials(kit("overpass", sensors="hall", front_end="hc165"))
    figures = bill.figures
    assert (figures["chips"], figures["channels"], figures["strips"]) == (26, 208, [101, 100])
    assert (figures["full_white_ma"], figures["budget_ma"], figures["supply_a"], figures["fuse_a"]) == (12060, 3000, 4, 5)
    assert figures["feeds"] == 3  # strip 0 (101 LEDs) fed at both ends
    assert bill.quantity("capacitors") == 26 + 1 + 201 + 2  # chips, level shifter, a sensor's 100 nF each, 1000 uF
    assert bill.quantity("magnets") == 40


def test_more_leds_a_place_and_a_budget() -> None:
    bill = bill_of_materials(kit("hexover", sensors="hall-analog", front_end="serial", leds_per_place=2,
                                 density=30, budget_ma=2000))
    assert bill.figures["leds"] == 122 and bill.figures["strip_m"] == 4.5  # 122 / 30 = 4.07 m, by half metres
    assert (bill.figures["supply_a"], bill.figures["fuse_a"]) == (3, 4)  # 2000 mA / 0.8 = 2.5 A


def test_the_markdown_and_the_csv_hold_the_same_rows() -> None:
    bill = bill_of_materials(kit("overpass", front_end="serial"))
    rows = list(csv.DictReader(io.StringIO(csv_text(bill))))
    assert [(row["item"], row["part"], float(row["quantity"]), row["unit"]) for row in rows] == [
        (line.item, line.part, line.quantity, line.unit) for line in bill.lines]
    table = [line for line in markdown(bill).splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(table) == len(rows)
    assert all(row["part"] in line for row, line in zip(rows, table))


@pytest.mark.parametrize(("choices", "message"), [
    ({"front_end": "mcp23017"}, "--front-end mcp23017 reads at most 128 sensors and the overpass board has 201 "
                                "places: choose --front-end hc165 or serial"),
    ({"sensors": "hall-analog", "front_end": "hc165"}, "choose --front-end mcp3008 or ads1115 or serial"),
    ({"leds_per_place": 3}, "603 LEDs need 4 strips"),
    ({"front_end": "nope"}, "--front-end nope: no such front-end; they are gpio, hc165, mcp23017, mcp3008, ads1115, "
                            "serial"),
])
def test_a_kit_that_cannot_be_built_says_what_would(choices: dict, message: str) -> None:
    with pytest.raises(KitError, match=message):
        bill_of_materials(kit("overpass", **choices))


def test_the_command_prints_markdown_or_csv(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    assert main(["board", "parts", "squareoff", "--format", "csv", "--size", "30cm"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {row["item"]: row["quantity"] for row in rows}["sensors"] == "24"
    assert main(["board", "parts", "groups-of-three", "--option", "players=3", "-o", str(tmp_path / "p.md")]) == 0
    text = (tmp_path / "p.md").read_text()
    assert "Groups-of-Three" in text and text.count("| magnets |") == 3


def _figures(text: str, pattern: str) -> list[float]:
    return [float(value) for value in re.findall(pattern, text)]


@pytest.mark.parametrize("arguments", [["overpass", "--sensors", "hall", "--front-end", "serial"],
                                       ["squareoff", "--front-end", "mcp23017", "--size", "30cm"]])
def test_the_parts_list_buys_the_wire_and_strips_the_route_lays(capsys, arguments: list[str]) -> None:
    """One plan: the strips, the wire between LEDs and the sensor wiring are what `board route` prints, at the same
    size (the default size of kit.json when none is given)."""
    assert main(["board", "route", *arguments]) == 0
    route = capsys.readouterr().out
    assert main(["board", "parts", *arguments, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    why = {row["part"].split(" (")[0]: row for row in rows}
    between = sum(_figures(route, r"([\d.]+) m of wire to cut between LEDs"))
    sensor_wiring = _figures(route, r"sensor wiring: ([\d.]+) m in all")[0]
    power, data = (row for row in rows if "between the LEDs" in row["part"])
    sensor = next(row for row in rows if "each sensor's signal" in row["part"])
    leads = 3 if "hall" in arguments else 2  # a Hall sensor's 3.3 V besides its signal and ground
    assert sensor["why"].startswith(f"{leads} wires along the ")
    assert f"2 wires along the {between:.2f} m to cut between LEDs" in power["why"] and "22 AWG" in power["part"]
    assert f"1 wire along the {between:.2f} m to cut between LEDs" in data["why"]
    assert float(power["quantity"]) == math.ceil(2 * between / 0.5 - 0.01) * 0.5
    assert float(data["quantity"]) == math.ceil(between / 0.5 - 0.01) * 0.5
    assert f"sensor wiring: {sensor_wiring:.2f} m" in sensor["why"]
    strips = [int(n) for n in re.findall(r"strip \d+: (\d+) LEDs", route)]
    assert f"one a strip ({' + '.join(map(str, strips))} LEDs)" in why["Resistor 330 Ohm, 1/4 W"]["why"]
    size = re.search(r"at (\d+) mm", route)[1]
    assert f"`gameboard board route` at {size} mm" in data["why"]


def test_a_size_the_template_refuses_the_parts_list_refuses_alike(capsys, tmp_path) -> None:
    assert main(["board", "template", "overpass", "--size", "420mm", "-o", str(tmp_path)]) == 2
    assert main(["board", "parts", "overpass", "--size", "420mm"]) == 2
    template, parts = capsys.readouterr().err.splitlines()
    assert template == parts
    assert parts.startswith("gameboard: error: --size 420mm: the sensor of f15 and the sensor of p11 sit 5.4 mm")
    assert main(["board", "parts", "overpass", "--size", "602mm"]) == 0
