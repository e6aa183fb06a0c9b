"""``gameboard record`` through the entry point: a journal's game exported, a record checked and imported to play
on, and replayed on the LEDs of an idle mock board stepped by its buttons."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine import new_game
from engine.record import Stepper, parse_record, record_game, replay, write_record
from firmware_host.cli import main
from firmware_host.journal import Journal
from firmware_host.led_replay import LedReplay, replay_colours
from firmware_host.presenter import PALETTE, Presenter
from hal.mock_driver import shared_mock_board
from tests.calibration.person import scrambled_wiring
from tests.calibration.test_end_to_end import write_config
from wiring.files import save_wiring


def played(name: str, plies: int, seed: int = 1):
    state = new_game(name)
    start = state.clone()
    rng = random.Random(seed)
    while len(state.history) < plies and not state.is_terminal():
        state.push(state.random_move(rng))
    return start, state


def test_a_journal_game_exports_and_imports_back_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start, state = played("overpass", 40)
    journal = Journal(tmp_path / "j.sqlite3")
    journal.start(start)
    for move in state.history:
        journal.record(move)
    journal.close()
    out = tmp_path / "game.txt"
    assert main(["record", "export", "--journal", str(tmp_path / "j.sqlite3"), "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out}: overpass, 40 moves, *\n"
    record = parse_record(out.read_text())
    assert record.moves == tuple(map(str, state.history)) and record.date.startswith("20")

    assert main(["record", "import", str(out), "--journal", str(tmp_path / "k.sqlite3")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"{tmp_path / 'k.sqlite3'}: game 1: overpass, 40 moves, *",
                     f"to play on: gameboard sim overpass --option players=4 --option goal=one --journal "
                     f"{tmp_path / 'k.sqlite3'}"]
    resumed = Journal(tmp_path / "k.sqlite3").resume()
    assert resumed is not None and resumed.position() == state.position()

    assert main(["record", "import", str(out), "--journal", str(tmp_path / "k.sqlite3")]) == 0
    assert capsys.readouterr().out.startswith(f"{tmp_path / 'k.sqlite3'}: its game 1 under way is closed (as a new "
                                              "game closes it; `gameboard record export --journal ")
    assert main(["record", "export", "--journal", str(tmp_path / "k.sqlite3"), "-o", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"gameboard: error: {tmp_path}: cannot write the record (Is a directory); " \
                                      "give -o a file in a folder you can write\n"


def test_check_prints_the_last_position_and_refuses_an_illegal_move_by_number(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start, state = played("squareoff", 12)
    path = tmp_path / "game.txt"
    path.write_text(write_record(record_game(start, state.history)))
    assert main(["record", "check", str(path), "--ply", "2", "--svg", str(tmp_path / "p.svg")]) == 0
    out = capsys.readouterr().out.splitlines()
    first, second = map(str, state.history[:2])
    assert out[0] == f"{path}: ok: Square Off (squareoff, variant=classic first_player=black), 12 moves, " \
                     "the game goes on"
    assert out[1] == f"position after move 2 ({second}), black to move:"
    assert sorted(out[2:4]) == [f"  black: {first}", f"  white: {second}"]
    assert 'data-loc="p' in (tmp_path / "p.svg").read_text()

    path.write_text(path.read_text().replace(f"\n3. {state.history[2]}\n", f"\n3. {first}\n"))
    assert main(["record", "check", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"gameboard: error: {path}: line 9: move 3 ({first}) is refused: "
                                              f"'{first}' is not a legal move here; legal: ")


def test_a_record_that_cannot_be_read_says_so_in_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "check", str(tmp_path / "none.txt")]) == 2
    assert capsys.readouterr().err == f"gameboard: error: {tmp_path / 'none.txt'}: cannot read the record " \
                                      "(No such file or directory)\n"
    assert main(["record", "export", "--journal", str(tmp_path / "none.sqlite3")]) == 2
    assert "none.sqlite3: no such file; give --journal the journal's file" in capsys.readouterr().err


@pytest.fixture
def board(tmp_path: Path) -> Path:
    """A Square Off board on the mock driver, wired in a scrambled order."""
    truth = scrambled_wiring("squareoff", seed=5, spare_channels=2)
    save_wiring(tmp_path / "truth.toml", truth)
    save_wiring(tmp_path / "wiring.toml", truth)
    return write_config(tmp_path, "squareoff", tmp_path / "truth.toml")


def test_the_leds_show_each_position_stepped_by_the_buttons(board: Path) -> None:
    mock = shared_mock_board({"board": "squareoff", "wiring": str(board.parent / "truth.toml")})
    start, state = played("squareoff", 24, seed=3)
    stepper = Stepper(replay(parse_record(write_record(record_game(start, state.history)))))
    presenter = Presenter(mock.wiring, 1.0, 1e6, 60)
    lines: list[str] = []
    replay_ = LedReplay(stepper, mock.leds, presenter, start.game.pieces, lines.append)
    presses = iter(["end_turn", "end_turn", "undo", "hint", "confirm", "new_game"])
    seen = []

    def pause(_: float) -> None:  # the person looks at the board, then presses the next button
        seen.append({location: mock.leds.location_colour(location) for location in mock.wiring.leds})
        mock.buttons.press(next(presses))

    replay_.by_buttons(mock.buttons, pause, first=0)
    assert [len(frame) for frame in seen] == [24] * 6
    assert [line.split(" ")[0] for line in lines[1:]] == ["0/24", "1/24", "2/24", "1/24", "24/24"]
    after_two = Stepper(replay(parse_record(write_record(record_game(start, state.history))))).go(2)
    assert seen[2] == {location: replay_colours(after_two, start.game.pieces).get(location, (0, 0, 0))
                       for location in mock.wiring.leds}
    assert seen[2][after_two.places[0]] == PALETTE["last_move"]
    assert all(colour == (0, 0, 0) for colour in seen[0].values())  # Square Off starts on an empty board


def test_record_replay_drives_the_configured_leds_then_leaves_them_dark(
        board: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mock = shared_mock_board({"board": "squareoff", "wiring": str(board.parent / "truth.toml")})
    start, state = played("squareoff", 6)
    path = tmp_path / "game.txt"
    path.write_text(write_record(record_game(start, state.history)))
    before = mock.leds.frames_shown
    assert main(["record", "replay", str(path), "--config", str(board), "--seconds", "0", "--ply", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(" ")[0] for line in out] == ["2/6", "3/6", "4/6", "5/6", "6/6"]
    assert out[-1].startswith(f"6/6 {state.history[-1]} (")
    assert mock.leds.frames_shown - before >= 5
    assert all(mock.leds.location_colour(location) == (0, 0, 0) for location in mock.wiring.leds)

    hexover = tmp_path / "hexover.txt"
    hexover.write_text('[Game "hexover"]\n')
    assert main(["record", "replay", str(hexover), "--config", str(board), "--seconds", "0"]) == 2
    assert capsys.readouterr().err.startswith("gameboard: error: hexover is played on the hexover board, this board "
                                              "is squareoff")
