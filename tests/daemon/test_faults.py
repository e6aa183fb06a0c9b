"""Faults the daemon lives through: a full disk, sensors that cannot see, a confirm pressed during a bump.

None of them stops the loop or loses a move: the move waits, the status, the snapshot and
the LEDs say why, and play goes on by itself once the fault clears.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware_host.config import Hal
from firmware_host.daemon import JOURNAL_RETRY_S, Daemon
from firmware_host.journal import Journal
from firmware_host.observer import WiringMismatchError
from firmware_host.presenter import PALETTE
from firmware_host.validation import checked_config
from hal import registry
from hal.dice import EnteredDice
from hal.mock import MockLeds
from tests.hal.fake_coprocessor import FakeCoprocessor
from wiring.model import straight_wiring

DARK = (0, 0, 0)


def flashes(person, location: str, seconds: float = 2.0) -> set[tuple[int, int, int]]:
    """The colours ``location`` shows over ``seconds`` of board time."""
    seen = set()
    for _ in range(round(seconds / 0.1)):
        person.run(0.1)
        seen.add(person.mock.leds.location_colour(location))
    return seen


# -- a full disk -------------------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real filesystem of 512 KiB (tmpfs) to fill up; skipped where this process may not mount one."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command to make a small filesystem")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)
    if made.returncode:
        pytest.skip(f"cannot mount a small filesystem here (needs root): {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path) -> Path:
    """Write a file until the disk is full; removing it gives the space back."""
    filler = disk / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(descriptor, b"\0" * 4096)
    except OSError:
        return filler
    finally:
        os.close(descriptor)


def test_a_full_disk_leaves_the_move_waiting_and_play_goes_on_when_space_returns(toy, hands, tables, small_disk):
    daemon, mock, person = tables.toy_table(toy, hands, small_disk)
    played = daemon.journal.moves()
    filler = fill(small_disk)
    mock.move("p1", "p5")
    person.run(1.0)
    assert [str(m) for m in daemon.state.history] == played == daemon.journal.moves()  # not taken: not durable
    assert daemon.status_text().startswith("the journal cannot be written: ")
    assert "database or disk is full" in daemon.snapshot()["faults"]["journal"]
    assert flashes(person, "p24") == {PALETTE["fault_journal"], DARK}
    filler.unlink()
    person.run(JOURNAL_RETRY_S + 0.1)
    assert daemon.journal.moves() == [*played, "p1-p5"] == [str(m) for m in daemon.state.history]
    assert daemon.faults == {} and daemon.status_text() == "roll the dice and enter the roll"
    assert Journal(daemon.journal.path).resume().history == daemon.state.history


def test_a_button_move_refused_by_a_full_disk_is_made_by_pressing_again(toy, hands, tables, small_disk):
    daemon, mock, person = tables.toy_table(toy, hands, small_disk, moves=("roll 2",))
    filler = fill(small_disk)
    mock.buttons.press("end_turn")
    person.run(0.1)
    assert [str(m) for m in daemon.state.history] == ["roll 2"] and "journal" in daemon.faults
    filler.unlink()
    mock.buttons.press("end_turn")
    person.run(0.1)
    assert daemon.journal.moves()[-1] == "pass" and daemon.faults == {}


# -- sensors that cannot see ------------------------------------------------------------------


def test_unplugged_sensors_take_no_move_flash_amber_and_play_resumes_by_itself(toy, hands, tables, tmp_path):
    daemon, mock, person = tables.toy_table(toy, hands, tmp_path)
    played = daemon.journal.moves()
    mock.unplug_sensors()
    person.run(0.1)
    assert daemon.status_text() == "the board cannot see: the mock board's sensor cable is unplugged"
    snapshot = daemon.snapshot()
    assert snapshot["sensors"]["connected"] is False and snapshot["sensors"]["stale"] is True
    assert flashes(person, "p24") == {PALETTE["fault_sensors"], DARK}
    mock.move("p1", "p5")  # made while the board cannot see it
    person.run(2.0)
    assert daemon.journal.moves() == played
    mock.repair_sensors()
    person.run(0.1)
    assert daemon.faults == {} and daemon.journal.moves() == played  # seen now, settling
    person.run(0.5)
    assert daemon.journal.moves() == [*played, "p1-p5"]


def test_a_move_settling_when_the_cable_is_pulled_waits_for_the_board_to_be_seen_again(toy, hands, tables, tmp_path):
    daemon, mock, person = tables.toy_table(toy, hands, tmp_path)
    played = daemon.journal.moves()
    mock.move("p1", "p5")
    person.run(0.1)
    assert daemon.snapshot()["status"] == "settling"
    mock.unplug_sensors()
    person.run(1.0)  # well past the settle time: the last reading shows the move, but it is stale
    assert daemon.journal.moves() == played
    mock.lift("p5")  # the person took the piece back into the hand meanwhile
    mock.repair_sensors()
    person.run(1.0)
    assert daemon.journal.moves() == played and daemon.snapshot()["status"] != "settling"


def test_a_bus_that_stops_answering_is_a_fault_not_a_crash(toy, hands, tables, tmp_path):
    daemon, mock, person = tables.toy_table(toy, hands, tmp_path)
    mock.break_bus("[Errno 121] Remote I/O error")
    person.run(0.2)
    assert daemon.status_text() == ("the board cannot see: the sensors cannot be read: [Errno 121] Remote I/O error "
                                    "(errors since the start: read_errors 1)")
    assert daemon.snapshot()["sensors"]["errors"]["read_errors"] == 20
    mock.repair_sensors()
    mock.move("p1", "p5")
    person.run(0.6)
    assert daemon.journal.moves()[-1] == "p1-p5" and daemon.faults == {}
    assert daemon.snapshot()["sensors"]["errors"] == {"read_errors": 20}  # counted since the start


def test_no_button_makes_a_move_while_the_board_cannot_see(toy, hands, tables, tmp_path):
    daemon, mock, person = tables.toy_table(toy, hands, tmp_path)
    played = daemon.journal.moves()
    mock.unplug_sensors()
    mock.buttons.press("end_turn")
    person.run(0.1)
    assert daemon.journal.moves() == played
    assert daemon.snapshot()["note"] == "the board cannot see: press end_turn again once it can"


def wait_stepping(daemon: Daemon, condition: Callable[[], bool], what: str) -> None:
    """Step the daemon in real time until ``condition`` holds (a deadline, not a speed check)."""
    deadline = time.monotonic() + 10
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what} (status: {daemon.status_text()})")
        daemon.step()
        time.sleep(0.005)


def test_a_silent_coprocessor_is_shown_and_the_daemon_resumes_when_it_speaks(toy, tmp_path):
    game = toy.ToyGame()
    wiring = straight_wiring(game.board)
    mcu = FakeCoprocessor(tmp_path / "ttyBOARD", channels=len(wiring.channels), heartbeat=0.02)
    sensors = registry.open_sensors("serial", {"port": str(mcu.port), "silence_timeout": 0.3})
    hal = Hal(sensors, MockLeds(wiring), None, EnteredDice())
    daemon = Daemon(game, hal, wiring, Journal(tmp_path / "j.sqlite3"))
    try:
        wait_stepping(daemon, lambda: daemon.status_text() == "roll the dice and enter the roll", "ready")
        mcu.hung = True
        wait_stepping(daemon, lambda: "the board cannot see: the co-processor" in daemon.status_text(), "the fault")
        assert "has said nothing for" in daemon.snapshot()["faults"]["sensors"]
        mcu.hung = False
        wait_stepping(daemon, lambda: not daemon.faults, "the fault cleared")
        assert daemon.status_text() == "roll the dice and enter the roll"
    finally:
        daemon.close()
        mcu.unplug()


# -- a confirm pressed during a bump ------------------------------------------------------------


def test_a_confirm_pressed_while_a_bump_disturbs_the_offer_makes_the_move_once_the_piece_is_back(
        toy, hands, tables, tmp_path):
    daemon, mock, person = tables.trade_awaiting_confirm(toy, hands, tmp_path)
    assert daemon.snapshot()["candidates"] == ["trade p1 p9"] and daemon.snapshot()["status"] == "confirm"
    played = daemon.journal.moves()
    mock.lift("p9")  # knocked off by the hand on its way to the button
    person.run(0.1)
    mock.buttons.press("confirm")
    person.run(0.1)
    assert daemon.journal.moves() == played
    assert daemon.snapshot()["note"] == "confirm kept: the move is made once the board is back as it was"
    mock.place("p9", "black")
    person.run(0.1)
    assert daemon.journal.moves() == [*played, "trade p1 p9"]


def test_a_kept_confirm_makes_nothing_when_the_board_ends_somewhere_else(toy, hands, tables, tmp_path):
    daemon, mock, person = tables.trade_awaiting_confirm(toy, hands, tmp_path)
    played = daemon.journal.moves()
    mock.lift("p9")
    person.run(0.1)
    mock.buttons.press("confirm")
    person.run(0.1)
    mock.place("p5", "black")  # the person moves on instead: no move ends here
    person.run(2.0)
    mock.lift("p5")
    mock.place("p9", "black")  # back to the offer, long after: the press is forgotten
    person.run(1.0)
    assert daemon.journal.moves() == played and daemon.snapshot()["status"] == "confirm"


def test_a_coprocessor_back_with_other_leds_is_a_fault_shown_not_a_crash(toy, tmp_path):
    game = toy.ToyGame()
    wiring = straight_wiring(game.board)
    mcu = FakeCoprocessor(tmp_path / "ttyBOARD", channels=len(wiring.channels), strips=wiring.strip_lengths,
                          heartbeat=0.02)
    port = {"port": str(mcu.port)}
    hal = Hal(registry.open_sensors("serial", port), registry.open_leds("serial", port), None, EnteredDice())
    daemon = Daemon(game, hal, wiring, Journal(tmp_path / "j.sqlite3"))
    try:
        wait_stepping(daemon, lambda: mcu.shown, "an LED frame")
        lit = mcu.shown[-1]
        mcu.strips = (256,)  # reflashed for another board under the running daemon
        mcu.reset()
        wait_stepping(daemon, lambda: "LED strips [256]" in daemon.status_text(), "the fault")
        assert daemon.status_text().startswith("the board cannot see: the co-processor now announces LED strips")
        assert daemon.status_text().endswith("(errors since the start: refused 1)")
        mcu.strips = wiring.strip_lengths
        mcu.reset()
        wait_stepping(daemon, lambda: not daemon.faults, "the fault cleared by an agreeing HELLO")
        wait_stepping(daemon, lambda: mcu.shown[-1] == lit, "the LEDs lit again")
    finally:
        daemon.close()
        mcu.unplug()


def test_leds_that_disagree_with_the_wiring_at_start_name_both(toy, tmp_path):
    game = toy.ToyGame()
    wiring = straight_wiring(game.board)
    mcu = FakeCoprocessor(tmp_path / "ttyBOARD", channels=len(wiring.channels), strips=(256,))
    config = tmp_path / "gameboard.toml"
    config.write_text(f'[game]\nname = "{game.name}"\n[sensors]\ndriver = "serial"\nport = "{mcu.port}"\n'
                      f'[leds]\ndriver = "serial"\nport = "{mcu.port}"\n[journal]\npath = "j.sqlite3"\n')
    try:
        with pytest.raises(WiringMismatchError) as caught:
            Daemon.from_config(checked_config(config))
        assert str(caught.value) == (
            f"the straight wiring of {game.board.name} has LED strips {list(wiring.strip_lengths)} but the "
            f"co-processor on {mcu.port} (fake-mcu 1.0) has [256]: make them agree, in the wiring "
            f"(`gameboard calibrate`) or in the LEDs' configuration ([leds] in {config})")
    finally:
        mcu.unplug()
