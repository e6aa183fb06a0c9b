"""The guided calibration on the mock HAL, driven by a scripted person, mistakes included."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.boards import load_board
from firmware_host.calibration.progress import ProgressFileError, progress_path
from firmware_host.calibration.questions import CARRY_ON, READ, CalibrationPaused
from firmware_host.calibration.start import start_wiring
from firmware_host.calibration.walk import Calibration, Settings
from hal.magnets import MagnetModel
from hal.mock import MockBoard, Noise
from wiring.files import load_wiring, read_wiring
from wiring.model import straight_wiring

from .person import CLASSES, ScriptedPerson, scrambled_wiring, starting_wiring

BOARD = "squareoff"


def calibrate(mock: MockBoard, person: ScriptedPerson, output: Path, **settings) -> object:
    board = load_board(mock.wiring.board)
    start = starting_wiring(board.name, mock.wiring)
    tool = Calibration(board, mock.sensors, mock.leds, person, output, start,
                       Settings(chase_pause=0, **settings), pause=lambda seconds: None)
    return tool.run()


def test_a_scrambled_board_is_calibrated_by_the_tool_alone(tmp_path: Path) -> None:
    truth = scrambled_wiring(BOARD, spare_channels=3)
    mock = MockBoard(truth)
    person = ScriptedPerson(mock)
    result = calibrate(mock, person, tmp_path / "wiring.toml")
    written = load_wiring(tmp_path / "wiring.toml")
    assert written.channels == truth.channels
    assert written.leds == truth.leds
    assert written.strip_lengths == truth.strip_lengths
    assert written.sensor_channels == truth.sensor_channels
    assert result.problems == []
    spare = sorted(set(range(truth.sensor_channels)) - set(truth.channels))
    assert result.notes == [f"channels that never answered a location (dead sensors, or spare channels): "
                            f"{', '.join(map(str, spare))}"]
    assert not progress_path(tmp_path / "wiring.toml").exists()


def test_progress_is_shown_as_done_of_total(tmp_path: Path) -> None:
    mock = MockBoard(scrambled_wiring(BOARD))
    person = ScriptedPerson(mock)
    calibrate(mock, person, tmp_path / "wiring.toml")
    sensors = [(q.done, q.total) for q in person.asked if q.phase == "sensors"]
    leds = [(q.done, q.total) for q in person.asked if q.phase == "leds"]
    assert sensors == [(n, 24) for n in range(24)]
    assert leds == [(n, 24) for n in range(24)]
    chases = [q for q in person.asked if q.phase == "chase"]
    assert [(q.done, q.total) for q in chases] == [(0, 2), (1, 2)]


def test_each_location_is_lit_once_its_leds_are_known(tmp_path: Path) -> None:
    """Before the LED step the tool lights by the starting order; the LED step lights one LED at a time."""
    truth = scrambled_wiring(BOARD)
    mock = MockBoard(truth)
    seen: list[tuple[str, list[str]]] = []

    class Watching(ScriptedPerson):
        def _leds(self, question):
            seen.append((question.phase, self.lit()))
            return super()._leds(question)

    calibrate(mock, Watching(mock), tmp_path / "wiring.toml")
    assert all(len(lit) == 1 for _, lit in seen)
    assert sorted(lit[0] for _, lit in seen) == sorted(truth.leds)


def test_mistakes_are_caught_and_the_file_says_what_is_left(tmp_path: Path) -> None:
    truth = scrambled_wiring(BOARD)
    mock = MockBoard(truth)
    stuck_location = "p20"
    mock.stick(truth.channel_of[stuck_location], 1)
    mistakes = {
        "p2": ["wrong p1"],  # on a location already recorded: the tool names it
        "p3": ["wrong p9"],  # on a location not yet recorded: found when p9 comes up
        "p9": ["wrong p9", "move"],  # the tool names p3; the person says p3 was the mistake
        "p5": ["none", "skip"],  # no piece placed, then the person gives up on p5
        stuck_location: ["skip"],
    }
    person = ScriptedPerson(mock, mistakes)
    result = calibrate(mock, person, tmp_path / "wiring.toml")

    stuck = truth.channel_of[stuck_location]
    assert any(f"Channels {stuck} read a piece with the board empty" in text for text in person.told)
    assert any("it already belongs to p1: is the piece on p1 instead of p2?" in text for text in person.told)
    assert any("it already belongs to p3: is the piece on p3 instead of p9?" in text for text in person.told)
    assert any("No channel sees a piece. Check that the piece is on p5" in text for text in person.told)
    asked_for = [q.locations[0] for q in person.asked if q.phase == "sensors"]
    assert asked_for.count("p3") == 2

    source = read_wiring(tmp_path / "wiring.toml")
    expected = {channel: loc for channel, loc in truth.channels.items() if loc not in ("p5", stuck_location)}
    assert source.wiring.channels == expected
    problems = [p.message for p in source.all_problems()]
    assert len(problems) == 2 and "location p5 has no sensor channel" in problems[0]
    text = (tmp_path / "wiring.toml").read_text()
    assert f"# Note: stuck channels (on with the board empty), left out: {stuck}" in text
    assert "# Note: p5 skipped: no channel answered it" in text
    assert "# Note: channel " in text and "was recorded for p3, then given to p9" in text
    assert {p.line for p in result.problems} == {0}


def test_two_channels_answering_one_location_are_reported(tmp_path: Path) -> None:
    truth = scrambled_wiring(BOARD)
    mock = MockBoard(truth)

    def two_pieces(board: MockBoard) -> str:
        board.set_contents({"p7": "black", "p8": "black"})
        return ""

    person = ScriptedPerson(mock, {"p7": [two_pieces]})
    calibrate(mock, person, tmp_path / "wiring.toml")
    assert any(text.startswith("Channels ") and "all changed: two channels answer p7" in text for text in person.told)
    assert load_wiring(tmp_path / "wiring.toml").channels == truth.channels


def test_ctrl_c_keeps_progress_and_a_rerun_continues(tmp_path: Path) -> None:
    truth = scrambled_wiring(BOARD)
    mock = MockBoard(truth)
    output = tmp_path / "wiring.toml"
    first = ScriptedPerson(mock, stop_after=11)
    with pytest.raises(KeyboardInterrupt):
        calibrate(mock, first, output)
    assert progress_path(output).exists() and not output.exists()

    second = ScriptedPerson(mock)
    calibrate(mock, second, output)
    asked = [q.locations[0] for q in second.asked if q.phase == "sensors"]
    assert asked == list(load_board(BOARD).locations)[10:]
    assert not any(q.phase == "empty" for q in second.asked)
    assert load_wiring(output).channels == truth.channels


# Questions of an analog run: 1 empty board, 24 sensors, 24 LEDs, 2 strips, 5 batches of south pieces.
@pytest.mark.parametrize("stop_after", [1, 30, 50, 53])
def test_a_run_stopped_in_any_step_and_resumed_writes_the_same_file(tmp_path: Path, stop_after: int) -> None:
    truth = scrambled_wiring(BOARD, sensing="analog", piece_classes=CLASSES)
    mock = MockBoard(truth)
    calibrate(mock, ScriptedPerson(mock), tmp_path / "whole.toml", pieces=5)
    with pytest.raises(KeyboardInterrupt):
        calibrate(mock, ScriptedPerson(mock, stop_after=stop_after), tmp_path / "resumed.toml", pieces=5)
    second = ScriptedPerson(mock)
    calibrate(mock, second, tmp_path / "resumed.toml", pieces=5)
    assert len(second.asked) == 56 - stop_after
    assert (tmp_path / "resumed.toml").read_text() == (tmp_path / "whole.toml").read_text()


def test_progress_saved_for_other_hardware_is_refused(tmp_path: Path) -> None:
    output = tmp_path / "wiring.toml"
    mock = MockBoard(scrambled_wiring(BOARD))
    with pytest.raises(KeyboardInterrupt):
        calibrate(mock, ScriptedPerson(mock, stop_after=3), output)
    other = MockBoard(scrambled_wiring(BOARD, spare_channels=8))
    with pytest.raises(ProgressFileError, match=r"saved progress is for channels = 24, this run has 32; delete"):
        calibrate(other, ScriptedPerson(other), output)


def test_q_pauses_and_a_rerun_of_a_finished_file_keeps_a_backup(tmp_path: Path) -> None:
    truth = scrambled_wiring(BOARD)
    mock = MockBoard(truth)
    output = tmp_path / "wiring.toml"
    calibrate(mock, ScriptedPerson(mock), output)
    first = output.read_text()
    with pytest.raises(CalibrationPaused, match="progress kept in"):
        calibrate(mock, ScriptedPerson(mock, {"p4": ["quit"]}), output)
    result = calibrate(mock, ScriptedPerson(mock), output)
    assert result.backup == tmp_path / "wiring.toml.bak"
    assert result.backup.read_text() == first
    assert load_wiring(output).channels == truth.channels


def test_analog_classes_get_ordered_bands_that_read_every_piece(tmp_path: Path) -> None:
    truth = scrambled_wiring(BOARD, sensing="analog", piece_classes=CLASSES)
    mock = MockBoard(truth, noise=Noise(analog_jitter=2.0), seed=3)
    person = ScriptedPerson(mock)
    result = calibrate(mock, person, tmp_path / "wiring.toml", pieces=5)
    written = load_wiring(tmp_path / "wiring.toml")
    assert written.channels == truth.channels and result.problems == []
    batches = [q.locations for q in person.asked if q.phase == "classes"]
    assert [len(b) for b in batches] == [5, 5, 5, 5, 4]
    for location, channel in written.channel_of.items():
        calibration = written.calibration[channel]
        for piece, piece_class in CLASSES.items():
            mock.set_contents({location: piece})
            assert calibration.observe(mock.sensors.read().values[channel]) == piece_class
        mock.set_contents({})
        assert calibration.observe(mock.sensors.read().values[channel]) is None


def test_overlapping_classes_are_warned_about(tmp_path: Path) -> None:
    classes = {"black": "north", "white": "north_weak"}
    truth = scrambled_wiring(BOARD, sensing="analog", piece_classes=classes)
    alike = MagnetModel(fields={"north": 1.0, "north_weak": 0.99})
    mock = MockBoard(truth, noise=Noise(analog_jitter=2.0), magnets=alike, seed=5)
    result = calibrate(mock, ScriptedPerson(mock), tmp_path / "wiring.toml")
    overlaps = [note for note in result.notes if "cannot tell them apart" in note]
    assert len(overlaps) == 24
    assert "north" in overlaps[0] and "north_weak" in overlaps[0]
    assert "cannot tell them apart" in (tmp_path / "wiring.toml").read_text()
    assert result.problems == []


def test_a_piece_left_on_the_empty_board_is_read_again_once_lifted(tmp_path: Path) -> None:
    truth = scrambled_wiring(BOARD)
    mock = MockBoard(truth)

    class Forgetful(ScriptedPerson):
        def _empty(self, question):
            if CARRY_ON in question.choices:  # told about the piece: lifts it and reads again
                mock.set_contents({})
                return READ
            mock.set_contents({"p4": "white"})
            return READ

    person = Forgetful(mock)
    result = calibrate(mock, person, tmp_path / "wiring.toml")
    assert any(f"Channels {truth.channel_of['p4']} read a piece with the board empty" in t for t in person.told)
    assert [q.text.split(";")[0] for q in person.asked if q.phase == "empty"] == [
        "Take every piece off the board", "Press Enter to read again, or c to carry on without these channels."]
    assert not any("stuck" in note for note in result.notes)
    assert load_wiring(tmp_path / "wiring.toml").channels == truth.channels


def test_keep_leds_trusts_the_starting_led_order(tmp_path: Path) -> None:
    board = load_board(BOARD)
    truth = scrambled_wiring(BOARD, strips=1)
    truth.leds = straight_wiring(board).leds  # soldered in a random order, LEDs laid as the example says
    mock = MockBoard(truth)
    lit: list[list[str]] = []

    class Watching(ScriptedPerson):
        def _sensors(self, question):
            lit.append(self.lit())
            return super()._sensors(question)

    person = Watching(mock)
    calibrate(mock, person, tmp_path / "wiring.toml", keep_leds=True)
    assert not any(q.phase == "leds" for q in person.asked)
    assert lit == [[location] for location in board.locations]
    assert load_wiring(tmp_path / "wiring.toml").leds == truth.leds


def test_redo_asks_only_for_the_given_locations_and_keeps_the_rest(tmp_path: Path) -> None:
    truth = scrambled_wiring(BOARD, sensing="analog", piece_classes=CLASSES)
    mock = MockBoard(truth, noise=Noise(analog_jitter=2.0), seed=9)
    output = tmp_path / "wiring.toml"
    calibrate(mock, ScriptedPerson(mock, {"p5": ["skip"]}), output, pieces=6)
    first = read_wiring(output).wiring
    assert "p5" not in first.channel_of

    person = ScriptedPerson(mock)
    board = load_board(BOARD)
    tool = Calibration(board, mock.sensors, mock.leds, person, output, start_wiring(board, output),
                       Settings(chase_pause=0, pieces=6), pause=lambda seconds: None, redo=["p5"])
    result = tool.run()
    assert [(q.phase, q.locations) for q in person.asked if q.phase != "leds"] == [
        ("empty", ()), ("sensors", ("p5",)), ("classes", ("p5",))]
    assert [q.led for q in person.asked if q.phase == "leds"] == list(truth.leds["p5"])
    assert result.problems == []
    second = load_wiring(output)
    assert second.channels == truth.channels and second.leds == truth.leds
    assert {c: k for c, k in second.calibration.items() if c != truth.channel_of["p5"]} == first.calibration
