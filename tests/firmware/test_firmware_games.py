"""The reference firmware plays whole games against the real `gameboard run` over a pseudo-terminal.

The firmware (firmware/gameboard_fw) runs under CPython behind the ``machine``/``rp2``
shim, scanning a mock board through a simulated 74HC165 chain or Hall multiplexers
and showing the daemon's LED frames on simulated WS2812 strips.  A person moves the
pieces on the mock board, checks that the strips light the way (the daemon's frames
as the firmware decoded them), and waits for each move in the daemon's journal.
"""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from engine.core import Change, Move, State
from engine.registry import game_class
from firmware_host.presenter import PALETTE
from hal.magnets import MagnetModel
from hal.mock import MockBoard, Noise
from tests.daemon.tables import calibrated
from tests.firmware.pico import Pico, running
from wiring.files import save_wiring
from wiring.model import Wiring, straight_wiring

COMMAND = str(Path(sys.executable).with_name("gameboard"))
#: A hand's pause between touching two pieces: the firmware scans many times meanwhile.
ACTION_S = 0.02
#: The Pico's ADC counts 12 bits; the magnets swing its reading as they swing a 10-bit one.
PICO_MAGNETS = MagnetModel(full_scale=4095, swing=1200.0, baseline_spread=100.0)

CONFIG = """\
[game]
name = "{game}"
{board}
[sensors]
driver = "serial"
port = "{port}"
[leds]
driver = "serial"
port = "{port}"
brightness = 1.0
current_budget_ma = 100000
[loop]
debounce_ms = 5
settle_ms = 60
[journal]
path = "journal.sqlite3"
"""


class Daemon:
    """`gameboard run` in its own process, its log (the status lines) in a file."""

    def __init__(self, config: Path) -> None:
        self.log = config.with_name("gameboard.log")
        with self.log.open("w") as log:
            self.process = subprocess.Popen([COMMAND, "run", "--config", str(config)], stdout=subprocess.DEVNULL,
                                            stderr=log)

    def said(self, lines: int = 8) -> str:
        return "\n".join(self.log.read_text().splitlines()[-lines:])

    def stop(self) -> None:
        self.process.terminate()
        assert self.process.wait(timeout=20) == 0, self.said()


def wait_for(condition: Callable[[], bool], what: str, daemon: Daemon, seconds: float = 15) -> None:
    """Wait for the daemon and the firmware to catch up (a deadline, not a speed check)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if daemon.process.poll() is not None:
            raise AssertionError(f"gameboard run stopped while waiting for {what}:\n{daemon.said()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}; the daemon said last:\n{daemon.said()}")
        time.sleep(0.005)


def journal_moves(path: Path) -> list[str]:
    if not path.exists():
        return []
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        try:
            return [text for (text,) in db.execute("SELECT move FROM moves ORDER BY game, ply")]
        except sqlite3.OperationalError:
            return []  # the daemon is still making its tables


def unambiguous(state: State) -> list[Move]:
    """The moves whose changes on the board no other legal move shares: no confirm button needed."""
    footprints = {move: state.footprint(move).changes for move in state.legal_moves}
    shared: dict[tuple[Change, ...], int] = {}
    for changes in footprints.values():
        shared[changes] = shared.get(changes, 0) + 1
    return [move for move, changes in footprints.items() if changes and shared[changes] == 1]


class Person:
    """Makes moves on the mock board by hand and reads the strips the firmware drives."""

    def __init__(self, mock: MockBoard, pico: Pico, wiring: Wiring, daemon: Daemon) -> None:
        self.mock, self.pico, self.wiring, self.daemon = mock, pico, wiring, daemon
        self.checked_lights = 0

    def light(self, location: str) -> tuple[int, int, int]:
        (strip, index), *_ = self.wiring.leds[location]
        shown = self.pico.strip(strip)
        return shown[index] if index < len(shown) else (0, 0, 0)

    def see(self, location: str, light: str, what: str) -> None:
        wait_for(lambda: self.light(location) == PALETTE[light], f"{location} lit {light} ({what})", self.daemon)
        self.checked_lights += 1

    def make(self, state: State, move: Move) -> None:
        """Lift what goes, carry what moves, place what comes, turn what turns; the LEDs show the way."""
        changes = state.footprint(move).changes
        removed = [c for c in changes if c.before is not None and c.after is None]
        added = [c for c in changes if c.before is None and c.after is not None]
        turned = [c for c in changes if c.before is not None and c.after is not None]
        for arrival in added:
            source = next((c for c in removed if c.before == arrival.after), None)
            if source is not None:
                removed.remove(source)
                self.mock.lift(source.location)
                self.see(source.location, "lifted", f"{move}: the lifted piece")
                self.see(arrival.location, "destination", f"{move}: where it may go")
            else:
                self.see(arrival.location, "destination", f"{move}: where a piece may be placed")
            self.pause()
            self.mock.place(arrival.location, arrival.after)
            self.pause()
        for change in removed:
            self.mock.lift(change.location)
            self.pause()
        for change in turned:
            self.mock.lift(change.location)
            self.pause()
            self.mock.place(change.location, change.after)
            self.pause()

    @staticmethod
    def pause() -> None:
        time.sleep(ACTION_S)


def play_whole_game(tmp_path: Path, game_name: str, sensing: str, firmware: dict, seed: int) -> None:
    game = game_class(game_name)()
    classes = {"black": "north", "white": "south"} if sensing == "analog" else None
    wiring = straight_wiring(game.board, sensing, classes)
    mock = MockBoard(wiring, noise=Noise(analog_jitter=2.0) if sensing == "analog" else None, seed=seed,
                     magnets=PICO_MAGNETS)
    state = game.new_initial_state()
    mock.set_contents({loc: piece for loc, piece in state.contents().items() if piece})
    board = ""
    if sensing == "analog":
        wiring.calibration = calibrated(mock)
        save_wiring(tmp_path / "wiring.toml", wiring)
        board = '[board]\nwiring = "wiring.toml"'
    port = tmp_path / "ttyPICO"
    config = tmp_path / "gameboard.toml"
    config.write_text(CONFIG.format(game=game_name, board=board, port=port))
    journal = tmp_path / "journal.sqlite3"
    with running(mock, firmware, port) as pico:
        daemon = Daemon(config)
        try:
            person = Person(mock, pico, wiring, daemon)
            rng = random.Random(seed)
            while not state.is_terminal():
                moves = unambiguous(state)
                assert moves, f"no move without a confirm at ply {len(state.history)}"
                move = rng.choice(moves)
                person.make(state, move)
                state.apply(move)
                wait_for(lambda: len(journal_moves(journal)) == len(state.history), f"{move} accepted", daemon)
                assert journal_moves(journal) == [str(m) for m in state.history]
            assert mock.contents == {loc: piece for loc, piece in state.contents().items() if piece}
            assert person.checked_lights >= len(state.history)
            assert pico.dropped_bytes == 0
        finally:
            daemon.stop()
    assert pico.strip(0) == [(0, 0, 0)] * wiring.strip_lengths[0], "the daemon leaves the strips dark as it stops"


def test_square_off_on_a_74hc165_chain(tmp_path):
    firmware = {"line": {"port": "uart", "tx": 0, "rx": 1},
                "sensors": {"front_end": "hc165", "sck": 18, "miso": 16, "load": 17, "chips": 3},
                "strips": [{"pin": 22, "leds": 24}]}
    play_whole_game(tmp_path, "squareoff", "presence", firmware, seed=83)


def test_hexover_on_hall_sensors_through_multiplexers(tmp_path):
    firmware = {"line": {"port": "uart", "tx": 0, "rx": 1},
                "sensors": {"front_end": "hall_mux", "select": [2, 3, 4, 5], "channels": 61,
                            "muxes": [{"adc": 26, "enable": 6}, {"adc": 26, "enable": 7},
                                      {"adc": 27, "enable": 8}, {"adc": 28}]},
                "strips": [{"pin": 22, "leds": 61}]}
    play_whole_game(tmp_path, "hexover", "analog", firmware, seed=12)


def test_sensors_watch_reads_the_board_through_the_firmware(tmp_path):
    """The deployment's last step (docs/firmware.md): `gameboard sensors watch` sees a piece put down."""
    game = game_class("squareoff")()
    mock = MockBoard(straight_wiring(game.board))
    mock.place("p7", "black")
    port = tmp_path / "ttyPICO"
    config = tmp_path / "gameboard.toml"
    config.write_text(CONFIG.format(game="squareoff", board="", port=port))
    firmware = {"sensors": {"front_end": "gpio", "pins": list(range(2, 26))}, "line": {"port": "uart", "tx": 0, "rx": 1},
                "strips": [{"pin": 26, "leds": 24}]}
    with running(mock, firmware, port):
        watch = subprocess.run([COMMAND, "sensors", "watch", "--config", str(config), "--count", "1"],
                               capture_output=True, text=True, timeout=60, check=False)
    assert watch.returncode == 0, watch.stderr
    assert "sensors: see the board" in watch.stdout
    assert "1 of 24 locations hold a piece" in watch.stdout and "p7 (ch 6: present)" in watch.stdout
