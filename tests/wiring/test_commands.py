"""The bring-up commands through ``gameboard``'s entry point, on the mock HAL opened from a config."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.calibration.questions import QUIT, READ, SKIP, Ask
from firmware_host.cli import main
from firmware_host.commands.calibrate import TerminalPerson
from hal.mock_driver import shared_mock_board
from tests.calibration.person import scrambled_wiring
from tests.calibration.test_end_to_end import write_config
from wiring.examples import example_path, example_text
from wiring.files import save_wiring


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """A squareoff board on the mock driver, its true wiring scrambled, calibrated as ``wiring.toml``."""
    truth = scrambled_wiring("squareoff", seed=4, spare_channels=2)
    save_wiring(tmp_path / "truth.toml", truth)
    save_wiring(tmp_path / "wiring.toml", truth)
    return write_config(tmp_path, "squareoff", tmp_path / "truth.toml")


def test_wiring_check_passes_a_good_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wiring", "check", str(example_path("overpass"))]) == 0
    assert capsys.readouterr().out.endswith(
        "ok: overpass board, 201 locations on presence channels (of 201), 201 LEDs on 2 strip(s)\n")


def test_wiring_check_lists_every_problem_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = example_text("squareoff").replace("p3 = { channel = 2,", "p3 = { channel = 0,")
    text = text.replace("[[0, 5]]", "[[0, 4]]")
    (tmp_path / "w.toml").write_text(text)
    assert main(["wiring", "check", str(tmp_path / "w.toml")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and out[-1] == f"{tmp_path / 'w.toml'}: 2 problem(s)"
    lines = text.splitlines()
    p1, p3, p6 = (next(n for n, line in enumerate(lines, 1) if line.startswith(f"{location} ="))
                  for location in ("p1", "p3", "p6"))
    file = tmp_path / "w.toml"
    assert out[:2] == [
        f"{file}:{p3}: p3: channel 0 already reads p1 (line {p1}); each channel reads one location",
        f"{file}:{p6}: p6: LED [0, 4] already lights p5; each LED lights one location"]


def test_wiring_check_of_broken_toml_exits_with_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "w.toml").write_text("format = 1\nboard = \n")
    assert main(["wiring", "check", str(tmp_path / "w.toml")]) == 2
    assert f"{tmp_path / 'w.toml'}:2: not valid TOML" in capsys.readouterr().err


def test_wiring_example_prints_the_board_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wiring", "example", "hexover"]) == 0
    assert capsys.readouterr().out == example_path("hexover").read_text()


def test_leds_test_lights_each_location_then_chases_each_strip(config: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    mock = shared_mock_board({"board": "squareoff", "wiring": str(config.parent / "truth.toml")})
    shown = mock.leds.frames_shown
    assert main(["leds", "test", "--config", str(config), "--seconds", "0", "--chase-seconds", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    lengths = mock.wiring.strip_lengths
    assert out[0] == f"[1/24] p1 (LED {mock.wiring.leds['p1'][0][0]}:{mock.wiring.leds['p1'][0][1]})"
    assert out[24:] == [f"chase along strip {s} ({n} LEDs)" for s, n in enumerate(lengths)]
    assert mock.leds.frames_shown - shown == 24 + 1 + sum(lengths) + len(lengths)


def test_sensors_watch_shows_the_observed_board_and_raw_readings(config: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    mock = shared_mock_board({"board": "squareoff", "wiring": str(config.parent / "truth.toml")})
    mock.set_contents({"p5": "black", "p9": "white"})
    spare = next(c for c in range(mock.sensors.channels) if c not in mock.wiring.channels)
    mock.stick(spare, 1)
    assert main(["sensors", "watch", "--config", str(config), "--count", "2", "--interval", "0"]) == 0
    out = capsys.readouterr().out
    channel = mock.wiring.channel_of
    assert out.count("scan ") == 2
    pieces = f"pieces: p5 (ch {channel['p5']}: present), p9 (ch {channel['p9']}: present)"
    assert f"2 of 24 locations hold a piece\nsensors: see the board\n{pieces}" in out
    assert f"channels wired to no location that read something: {spare}" in out
    assert "   0-15  " in out and "  16-25  " in out


def test_sensors_watch_says_when_the_sensors_cannot_see_the_board(config: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    mock = shared_mock_board({"board": "squareoff", "wiring": str(config.parent / "truth.toml")})
    mock.unplug_sensors()
    try:
        assert main(["sensors", "watch", "--config", str(config), "--count", "1", "--interval", "0"]) == 0
    finally:
        mock.repair_sensors()
    assert "\nsensors: CANNOT SEE THE BOARD: the mock board's sensor cable is unplugged\n" in capsys.readouterr().out


def test_the_terminal_person_reads_keys_until_one_is_offered() -> None:
    typed = iter(["x", "S", ""])
    written: list[str] = []
    person = TerminalPerson(read=lambda prompt: written.append(prompt) or next(typed), write=written.append)
    question = Ask("sensors", "Put a piece on p3.", {READ: "read the sensors", SKIP: "skip p3"}, 2, 24, ("p3",))
    assert person.ask(question) == SKIP
    assert written[0] == "[sensors 2/24 done] Put a piece on p3."
    assert written[1] == "  (Enter: read the sensors · s: skip p3) > "
    assert written[2] == "  'x' is not one of the keys offered"
    assert person.ask(question) == READ and written[-1] == written[1]  # the same question again: only the keys


def test_the_terminal_person_stops_when_input_ends() -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    person = TerminalPerson(read=closed, write=lambda text: None)
    assert person.ask(Ask("empty", "Clear the board.", {READ: "read"})) == QUIT


def test_calibrate_stopped_at_the_first_question_keeps_what_is_there(config: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    before = (config.parent / "wiring.toml").read_text()
    monkeypatch.setattr("builtins.input", lambda prompt: "q")
    assert main(["calibrate", "--config", str(config)]) == 1
    assert "stopped; nothing was found yet, so nothing is kept" in capsys.readouterr().out
    assert (config.parent / "wiring.toml").read_text() == before


def test_calibrate_interrupted_before_anything_was_found_says_nothing_is_kept(
        config: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    assert main(["calibrate", "--config", str(config)]) == 130
    assert capsys.readouterr().out.endswith("gameboard calibrate: stopped; nothing was found yet, so nothing is kept: "
                                            "run the same command to start again\n")


def test_calibrate_refuses_an_unwritable_output_before_the_first_question(
        config: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail("asked a question"))
    monkeypatch.chdir(config.parent)
    assert main(["calibrate", "--config", str(config), "-o", "nodir/w.toml"]) == 2
    assert capsys.readouterr().err == ("gameboard: error: cannot write the wiring file: the folder nodir does not "
                                       "exist; give --output a file in a folder you can write\n")


def test_calibrate_needs_a_file_to_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path, "squareoff", example_path("squareoff"))
    config.write_text(config.read_text().replace('[board]\nwiring = "wiring.toml"\n', ""))
    assert main(["calibrate", "--config", str(config)]) == 2
    assert "no wiring file to write: give --output FILE, or set [board] wiring" in capsys.readouterr().err


def test_calibrate_rejects_badly_written_classes(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "--config", str(config), "--classes", "white:north"]) == 2
    assert "write piece=class pairs separated by commas" in capsys.readouterr().err


def test_calibrate_redo_needs_an_existing_file_and_known_locations(config: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "--config", str(config), "--redo", "p5,x9"]) == 2
    assert "--redo: x9 not on the squareoff board" in capsys.readouterr().err
    (config.parent / "wiring.toml").unlink()
    assert main(["calibrate", "--config", str(config), "--redo", "p5"]) == 2
    assert "--redo changes an existing wiring file" in capsys.readouterr().err


def test_calibrate_redo_carries_on_only_its_own_stopped_session(config: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A stopped ``--redo p5`` is not carried on by ``--redo p7`` (which would never ask for p7), nor by a run of
    the whole board; and the ids are checked with or without a session waiting."""
    answers = iter(["", "q"])  # the empty board read, then stop at p5
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert main(["calibrate", "--config", str(config), "--redo", "p5"]) == 1
    progress = config.parent / "wiring.toml.progress.json"
    assert f"progress kept in {progress}" in capsys.readouterr().out
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail("asked a question"))
    for redo, wanted in ((["--redo", "p7"], "this one is of p7 (--redo)"), ([], "this one is of the whole board")):
        assert main(["calibrate", "--config", str(config), *redo]) == 2
        assert capsys.readouterr().err == (
            f"gameboard: error: {progress}: a calibration of p5 (--redo) was stopped here, and {wanted}: carry that one"
            " on by running it again (--redo p5), or delete the file to start this one\n")
    assert main(["calibrate", "--config", str(config), "--redo", "p5,x9"]) == 2
    assert "--redo: x9 not on the squareoff board" in capsys.readouterr().err
    answers = iter(["q"])  # the same --redo (an id given twice counts once) carries on: p5's question again
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert main(["calibrate", "--config", str(config), "--redo", "p5,p5"]) == 1
    assert "[sensors 23/24 done] Put a piece on p5 " in capsys.readouterr().out
