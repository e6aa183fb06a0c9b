"""`wiring check`: every location once, no channel or LED twice, indices in range, bands ordered."""

from __future__ import annotations

from pathlib import Path

from wiring.check import band_order_problems
from wiring.examples import example_text
from wiring.files import read_wiring
from wiring.model import ChannelCalibration, ClassBand


def problems_of(tmp_path: Path, text: str) -> list[tuple[int, str]]:
    (tmp_path / "w.toml").write_text(text)
    return [(p.line, p.message) for p in read_wiring(tmp_path / "w.toml").all_problems()]


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_every_mapping_problem_is_listed_with_its_line(tmp_path: Path) -> None:
    text = (example_text("squareoff")
            .replace("p2 = { channel = 1, leds = [[0, 1]] }\n", "")
            .replace("p3 = { channel = 2,", "p3 = { channel = 0,")
            .replace("leds = [[0, 4]]", "leds = [[0, 3]]")
            .replace("leds = [[0, 5]]", "leds = [[0, 24]]")
            .replace("leds = [[0, 6]]", "leds = [[1, 6]]")
            .replace("p8 = { channel = 7,", "p8 = { channel = 30,")
            .replace("p9 = { channel = 8,", "q9 = { channel = 8,"))
    found = problems_of(tmp_path, text)
    expected = [
        (line_of(text, "[locations]"), "location p2 has no sensor channel; add `p2 = { channel = N"),
        (line_of(text, "p3 ="), f"p3: channel 0 already reads p1 (line {line_of(text, 'p1 =')}); each channel"),
        (line_of(text, "p5 ="), "p5: LED [0, 3] already lights p4; each LED lights one location"),
        (line_of(text, "p6 ="), "p6: LED 24 is past the end of strip 0, which has 24 LEDs"),
        (line_of(text, "p7 ="), "p7: strip 1 does not exist; [leds] strips lists 1 strip(s)"),
        (line_of(text, "p8 ="), "channel 30 of p8 is out of range: the sensors have channels 0-23"),
        (line_of(text, "q9 ="), "'q9' is not a location of the squareoff board"),
        (line_of(text, "[locations]"), "location p9 has no sensor channel"),
    ]
    assert [line for line, _ in found] == sorted(line for line, _ in found)
    assert len(found) == len(expected)
    for wanted_line, start in expected:
        assert any(line == wanted_line and message.startswith(start) for line, message in found), (wanted_line, start)


def test_a_file_of_another_board_is_one_problem_naming_that_board(tmp_path: Path) -> None:
    text = example_text("hexover").replace('board = "hexover"', 'board = "squareoff"')
    assert problems_of(tmp_path, text) == [(line_of(text, "board ="), (
        '61 of the 61 locations are not on the squareoff board (h1, h10, h11, ...); they are the hexover board\'s: '
        'set board = "hexover", or use a wiring file made for squareoff'))]


def test_analog_thresholds_must_be_ordered(tmp_path: Path) -> None:
    text = (example_text("hexover")
            .replace("\n0 = { baseline = 512.0, north = [600.0, inf]",
                     "\n0 = { baseline = 512.0, north = [700.0, 650.0]")
            .replace("\n1 = { baseline = 512.0, north = [600.0, inf]", "\n1 = { baseline = 512.0, north = [500.0, inf]")
            .replace("\n2 = { baseline = 512.0, north = [600.0, inf], south = [-inf, 424.0]",
                     "\n2 = { baseline = 512.0, north = [600.0, inf], south = [-inf, 610.0]")
            .replace("\n3 = { baseline = 512.0, north = [600.0, inf], south = [-inf, 424.0] }",
                     "\n3 = { baseline = 512.0, north = [600.0, inf] }")
            .replace("h5 = { channel = 4, leds = [[0, 4]] }\n", "h5 = { channel = 4, leds = [[0, 4]] }\nh62 = 3\n"))
    found = problems_of(tmp_path, text)
    expected = [
        (line_of(text, "h62 ="), "write h62 as `h62 = { channel = N, leds = [[strip, index]] }`"),
        (line_of(text, "0 = {"), "channel 0: north = [700, 650] must be [low, high] with low < high"),
        (line_of(text, "1 = {"), "channel 1: north = [500, inf] contains the empty baseline 512"),
        (line_of(text, "2 = {"), "channel 2: south = [-inf, 610] contains the empty baseline 512"),
        (line_of(text, "2 = {"), "channel 2: south = [-inf, 610] and north = [600, inf] overlap"),
        (line_of(text, "3 = {"), "channel 3 has no band for south; add `CLASS = [low, high]`"),
    ]
    assert len(found) == len(expected), found
    for (line, message), (wanted_line, start) in zip(found, expected):
        assert line == wanted_line and message.startswith(start), (line, message)


def test_presence_sensors_need_no_calibration(tmp_path: Path) -> None:
    text = example_text("squareoff") + "\n[calibration]\n0 = { baseline = 1.0 }\n"
    assert problems_of(tmp_path, text) == [
        (line_of(text, "[calibration]"), "calibration is only for analog sensors; remove [calibration] or set"
                                         ' kind = "analog" under [sensors]')]


def test_adjacent_bands_that_do_not_touch_are_in_order() -> None:
    calibration = ChannelCalibration(0.0, (ClassBand("south", -500, -10), ClassBand("weak", 10, 99.5),
                                           ClassBand("north", 100, 400)))
    assert band_order_problems(calibration) == []
