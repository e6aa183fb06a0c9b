"""The wiring file: round trips, atomic saves with a backup, and every problem with its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.boards import board_names, load_board
from wiring.examples import example_path, example_text, example_wiring
from wiring.files import WiringFileError, load_wiring, read_wiring, save_wiring
from wiring.model import ChannelCalibration, ClassBand, straight_wiring


@pytest.mark.parametrize("board", board_names())
def test_every_board_round_trips(tmp_path: Path, board: str) -> None:
    wiring = straight_wiring(load_board(board))
    save_wiring(tmp_path / "w.toml", wiring)
    assert load_wiring(tmp_path / "w.toml") == wiring


def test_analog_calibration_round_trips_with_open_bands(tmp_path: Path) -> None:
    wiring = example_wiring("hexover")
    wiring.calibration[3] = ChannelCalibration(505.5, (ClassBand("north", 590.25, float("inf")),
                                                       ClassBand("south", float("-inf"), 430.0)))
    save_wiring(tmp_path / "w.toml", wiring)
    assert load_wiring(tmp_path / "w.toml") == wiring
    assert "3 = { baseline = 505.5, north = [590.25, inf], south = [-inf, 430.0] }" in (tmp_path / "w.toml").read_text()


def test_a_save_keeps_the_previous_file_as_backup_and_leaves_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "wiring.toml"
    first = straight_wiring(load_board("squareoff"))
    assert save_wiring(path, first) is None
    second = straight_wiring(load_board("squareoff"))
    second.channels = {channel + 1: location for channel, location in first.channels.items()}
    second.sensor_channels = 25
    backup = save_wiring(path, second, note="second run")
    assert backup == tmp_path / "wiring.toml.bak"
    assert load_wiring(backup) == first
    assert load_wiring(path) == second
    assert "# second run" in path.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wiring.toml", "wiring.toml.bak"]


def test_a_save_to_an_unwritable_place_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(WiringFileError, match="cannot write the wiring file"):
        save_wiring(tmp_path / "missing" / "wiring.toml", straight_wiring(load_board("squareoff")))


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(WiringFileError, match=r"nowhere.toml: cannot read the wiring file .*gameboard calibrate"):
        load_wiring(tmp_path / "nowhere.toml")


def test_a_file_that_is_not_text_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "w.toml").write_bytes(b"\x89PNG\r\n\x1a\n\xff")
    with pytest.raises(WiringFileError, match=r"w.toml: cannot read the wiring file \(not a text file\)"):
        load_wiring(tmp_path / "w.toml")


def test_a_location_written_twice_names_its_line(tmp_path: Path) -> None:
    text = example_text("squareoff").replace("p2 = { channel = 1", "p1 = { channel = 1")
    (tmp_path / "w.toml").write_text(text)
    line = text.splitlines().index("p1 = { channel = 1, leds = [[0, 1]] }") + 1
    with pytest.raises(WiringFileError) as caught:
        load_wiring(tmp_path / "w.toml")
    assert str(caught.value).startswith(f"{tmp_path / 'w.toml'}:{line}: not valid TOML: Cannot overwrite a value;"
                                        " each location and each channel may appear only once")


def test_wrong_entries_are_all_listed_with_their_lines(tmp_path: Path) -> None:
    text = (example_text("squareoff")
            .replace("format = 1", "format = 2\ncolour = 3")
            .replace('kind = "presence"', 'kind = "magnetic"')
            .replace("p3 = { channel = 2, leds = [[0, 2]] }", 'p3 = { channel = "two", leds = [[0, 2]] }')
            .replace("p4 = { channel = 3, leds = [[0, 3]] }", "p4 = { channel = 3, led = [0, 3] }")
            .replace("p5 = { channel = 4, leds = [[0, 4]] }", "p5 = { channel = 4, leds = [0, 4] }"))
    (tmp_path / "w.toml").write_text(text)
    lines = text.splitlines()

    def line(start: str) -> int:
        return next(n for n, line in enumerate(lines, 1) if line.startswith(start))

    found = [(p.line, p.message) for p in read_wiring(tmp_path / "w.toml").all_problems()]
    expected = [
        (line("format"), "format = 2 is not one this gameboard reads; it reads format = 1"),
        (line("colour"), "unknown key 'colour'; the file holds format, board, sensors"),
        (line("kind"), "kind = 'magnetic'; use \"presence\" or \"analog\""),
        (line("p3 ="), "p3: channel = 'two'; give the sensor channel number (0 or more)"),
        (line("p4 ="), "p4: unknown key 'led'; a location has `channel` and `leds`"),
        (line("p4 ="), "location p4 has no LED; give it `leds = [[strip, index]]`"),
        (line("p5 ="), "p5: leds = [0, 4]; give a list of [strip, index] pairs, e.g. [[0, 12]]"),
        (line("p5 ="), "location p5 has no LED"),
    ]
    assert len(found) == len(expected)
    for (line_found, message), (line_wanted, start) in zip(found, expected):
        assert line_found == line_wanted and message.startswith(start), (line_found, message)


@pytest.mark.parametrize("board", board_names())
def test_the_examples_are_current_and_pass_the_check(board: str) -> None:
    assert example_path(board).read_text() == example_text(board)
    assert read_wiring(example_path(board)).all_problems() == []


def test_the_overpass_example_spreads_its_leds_over_strips_an_spi_write_can_fill() -> None:
    wiring = load_wiring(example_path("overpass"))
    assert wiring.strip_lengths == (101, 100)
    assert wiring.leds["p102"] == ((1, 0),)


def test_an_unknown_or_missing_board_is_named(tmp_path: Path) -> None:
    text = example_text("squareoff")
    (tmp_path / "w.toml").write_text(text.replace('board = "squareoff"', 'board = "chess"'))
    line = text.splitlines().index('board = "squareoff"') + 1
    assert [(p.line, p.message) for p in read_wiring(tmp_path / "w.toml").all_problems()] == [
        (line, "unknown board 'chess'; the boards are: overpass, squareoff, hexover, pawns; set board = \"NAME\"")]
    (tmp_path / "w.toml").write_text(text.replace('board = "squareoff"\n', ""))
    assert [p.message for p in read_wiring(tmp_path / "w.toml").all_problems()] == [
        "missing `board = \"NAME\"`: the board this wiring belongs to"]
