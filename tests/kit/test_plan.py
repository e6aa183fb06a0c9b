"""`board route`: the sensor chain in each front-end's own numbering, the strips, the lengths, and a
generated wiring file that passes `gameboard wiring check`."""

from __future__ import annotations

import math

import pytest

from engine.boards import load_board
from firmware_host.cli import main
from wiring.kit.data import KitError, board_kit, front_end
from wiring.kit.layout import Layout
from wiring.kit.plan import Plan
from wiring.kit.routes import shortest, serpentine


def plan(board: str, chain: str, size: float = 980, style: str | None = None, sensing: str = "presence") -> Plan:
    return Plan(Layout.of_size(load_board(board), board_kit(board), size), front_end(chain, sensing), style)


@pytest.mark.parametrize("board, sensors, chain, size", [
    ("overpass", "reed", "hc165", 980), ("squareoff", "reed", "mcp23017", 420),
    ("hexover", "hall-analog", "serial", 420),
    ("pawns", "hall", "hc165", 420), ("overpass", "hall", "serial", 610)])
def test_the_generated_wiring_file_passes_wiring_check(tmp_path, capsys, board, sensors, chain, size):
    output = tmp_path / "wiring.toml"
    assert main(["board", "route", board, "--sensors", sensors, "--front-end", chain, "--size", f"{size}mm",
                 "-o", str(output)]) == 0
    capsys.readouterr()
    assert main(["wiring", "check", str(output)]) == 0
    assert ": ok: " in capsys.readouterr().out


def test_the_chain_follows_the_route_in_each_front_ends_numbering():
    hc165 = plan("overpass", "hc165")
    assert [stop.place for stop in hc165.stops] == hc165.order
    assert sorted(hc165.order) == sorted(load_board("overpass").locations)
    assert [(stop.chip, stop.input) for stop in hc165.stops[7:9]] == [(0, "D7"), (1, "D0")]
    assert hc165.chips == 26 and hc165.channels == 208
    mcp = plan("squareoff", "mcp23017", 420)
    assert [stop.input for stop in mcp.stops[6:10]] == ["GPA6", "GPA7", "GPB0", "GPB1"]
    assert mcp.driver_line() == '[sensors] driver = "mcp23017", addresses = [0x20, 0x21]'
    mux = plan("hexover", "serial", 420, sensing="analog")
    assert [(stop.chip, stop.input) for stop in mux.stops[15:17]] == [(0, "I15"), (1, "I0")]
    wiring = hc165.wiring()
    assert wiring.channels == dict(enumerate(hc165.order))
    assert [len(strip) for strip in hc165.strips] == [101, 100] == list(wiring.strip_lengths)
    assert wiring.leds[hc165.strips[1][0]] == ((1, 0),)


def test_lengths_are_the_straight_runs_with_slack_and_ends():
    p = plan("squareoff", "hc165", 420)
    kit = board_kit("squareoff")
    leds = p.layout.leds
    for stop, before in zip(p.stops[1:], p.stops):
        run = math.dist(leds[before.place].xy, leds[stop.place].xy)
        assert stop.led_wire_mm == pytest.approx(run * kit.slack + kit.ends_mm)
    assert p.strip_length(0) == pytest.approx(sum(math.dist(leds[a].xy, leds[b].xy)
                                                  for a, b in zip(p.strips[0], p.strips[0][1:])))
    report = p.report()
    assert f"strip 0: 24 LEDs from {p.order[0]} to {p.order[-1]}, {p.strip_length(0) / 1000:.2f} m straight" in report


def test_serpentine_runs_along_rows_and_shortest_is_shorter_where_rows_are_ragged():
    points = {"a": (0, 0), "b": (10, 0), "c": (20, 0), "d": (0, 10), "e": (10, 10), "f": (20, 10)}
    assert serpentine(points, 2) == ["a", "b", "c", "f", "e", "d"]
    ragged = plan("overpass", "hc165", style="serpentine"), plan("overpass", "hc165", style="shortest")
    lengths = [sum(p.strip_length(n) for n in range(len(p.strips))) for p in ragged]
    assert lengths[1] < 0.6 * lengths[0]
    assert shortest(points) == ["a", "b", "c", "f", "e", "d"]  # from the top-left (page y grows downward)


def test_a_front_end_too_small_for_the_board_is_refused_with_the_one_that_fits():
    with pytest.raises(KitError, match="201 places need 13 MCP23017 chips .* reads at most 8 .* use hc165"):
        plan("overpass", "mcp23017")
    with pytest.raises(KitError, match="use serial"):
        plan("overpass", "mcp3008", sensing="analog")
    with pytest.raises(KitError, match="the overpass board's 201 places need 15 .* at most 1 .*14 sensors"):
        plan("overpass", "gpio")
    with pytest.raises(KitError, match="--front-end hc165 reads presence sensors, not analog ones"):
        front_end("hc165", "analog")
    with pytest.raises(KitError, match="no piece classes and nominal bands; use presence sensors"):
        plan("squareoff", "serial", 420, sensing="analog").wiring()
