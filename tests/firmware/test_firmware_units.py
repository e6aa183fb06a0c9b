"""The reference firmware's parts under CPython: frames, the change rules, the messages, the settings."""

from __future__ import annotations

import json
import random
import struct
from pathlib import Path

import machine
import pytest
from gameboard_fw import NAME, frames
from gameboard_fw.protocol import LEDS, SHOW, SYNC, Session
from gameboard_fw.sensors import Board, DirectInputs, ShiftChain
from gameboard_fw.settings import Settings, SettingsError
from gameboard_fw.strips import Strips

from engine.registry import game_class
from hal.cobs_frames import encode_frame
from hal.mock import MockBoard
from hal.serial_protocol import Changes, Hello, Snapshot, parse_device_message
from tests.firmware.pico import Pico
from tests.hal.documented_frames import documented_frames
from wiring.model import straight_wiring


def test_the_documented_frames_on_the_firmware_side():
    for payload, wire in documented_frames():
        assert bytes(frames.encode(payload)) == wire
        assert frames.FrameReader().feed(wire) == [payload]


def test_frames_agree_with_the_pi_whatever_the_bytes():
    rng = random.Random(5)
    for size in [*range(600), 1024]:
        payload = bytes(rng.choice((0, 0, 1, 0xFF, rng.randrange(256))) for _ in range(size))
        assert bytes(frames.encode(payload)) == encode_frame(payload)
        assert frames.decode(encode_frame(payload)[:-1]) == (payload if size else None)


def test_bad_and_overlong_frames_are_dropped_and_the_next_one_taken():
    reader = frames.FrameReader()
    good = encode_frame(b"\x81\x07")
    flipped = bytearray(good)
    flipped[2] ^= 0x10
    assert reader.feed(bytes(flipped) + b"\x07" * 3000 + b"\x00" + good[:3]) == []
    assert reader.feed(good[3:]) == [b"\x81\x07"]
    assert reader.dropped == 2  # the flipped frame and the run longer than 1031 bytes


class Readings:
    """A front-end whose readings the test sets."""

    def __init__(self, kind: str, values: list[int]) -> None:
        self.kind, self.channels, self.values = kind, len(values), values

    def read(self, into) -> None:
        for channel, value in enumerate(self.values):
            into[channel] = value


def test_an_analog_change_beyond_the_noise_is_sent_at_most_every_5_ms_and_a_held_one_later():
    sensors = Readings("analog", [2000, 2000])
    board = Board(sensors, noise=3)
    assert list(board.snapshot(now=0)) == [2000, 2000]
    sensors.values[0] = 2003
    assert board.changes(10) == []  # within the noise
    sensors.values[0] = 2010
    assert board.changes(11) == [(0, 2010)]
    sensors.values[0] = 2030
    assert board.changes(13) == []  # 2 ms after the last report: held back
    sensors.values[0] = 2040
    assert board.changes(15) == []
    sensors.values[0:2] = [2050, 1900]
    assert board.changes(16) == [(0, 2050), (1, 1900)]  # 5 ms on: the value read now; channel 1 at once
    sensors.values[0] = 2052
    assert board.changes(30) == []  # within the noise of what was reported


def test_every_presence_change_is_sent_at_once():
    sensors = Readings("presence", [0, 0, 0])
    board = Board(sensors)
    board.snapshot()
    sensors.values[1] = 1
    assert board.changes(1) == [(1, 1)]
    sensors.values[1] = 0
    assert board.changes(2) == [(1, 0)]
    assert board.changes(3) == []


@pytest.fixture
def pico(tmp_path: Path):
    """The simulated Pico around a Square Off mock board (its 24 channels), not running the firmware."""
    wiring = straight_wiring(game_class("squareoff")().board)
    settings = {"sensors": {"front_end": "hc165", "sck": 18, "miso": 16, "load": 17, "chips": 3},
                "strips": [{"pin": 22, "leds": 24}]}
    simulated = Pico(MockBoard(wiring), settings, tmp_path / "ttyPICO")
    machine.PICO = simulated
    yield simulated
    simulated.stop()


@pytest.mark.parametrize("active_low", [True, False])
def test_a_74hc165_chain_reads_1_for_a_piece_whatever_the_polarity(pico, active_low):
    pico.sensors["active_low"] = active_low
    pico.mock.place("p5", "black")
    pico.mock.place("p17", "white")
    values = bytearray(24)
    ShiftChain(0, 18, 16, 17, chips=3, channels=24, active_low=active_low).read(values)
    assert [channel for channel, value in enumerate(values) if value] == [4, 16]  # p1 is channel 0


def test_direct_inputs_read_1_for_a_piece(pico):
    pico.sensors.update(front_end="gpio", pins=list(range(6, 30)))
    pico.mock.place("p2", "black")
    values = bytearray(24)
    DirectInputs(list(range(6, 30))).read(values)
    assert [channel for channel, value in enumerate(values) if value] == [1]


class Line:
    def __init__(self) -> None:
        self.sent = b""

    def write(self, data) -> None:
        self.sent += bytes(data)

    def messages(self) -> list:
        return [parse_device_message(payload) for payload in frames.FrameReader().feed(self.sent)]


def test_the_session_answers_sync_and_shows_led_frames(pico):
    pico.mock.place("p3", "black")
    line = Line()
    session = Session(line, Board(ShiftChain(0, 18, 16, 17, chips=3, channels=24)), Strips([{"pin": 22, "leds": 24}]))
    session.obey(bytes((SYNC, 0)))
    (hello_seq, hello), (snapshot_seq, snapshot) = line.messages()
    assert hello == Hello(1, "presence", 24, (24,), NAME) and snapshot_seq == hello_seq + 1
    assert snapshot == Snapshot(tuple(int(channel == 2) for channel in range(24)))
    session.obey(bytes((LEDS, 1)) + struct.pack(">BH", 0, 22) + bytes((1, 2, 3, 4, 5, 6, 7, 8, 9)))  # 2 past the end
    session.obey(bytes((LEDS, 2)) + struct.pack(">BH", 3, 0) + bytes((9, 9, 9)))  # no strip 3
    session.obey(bytes((0x9F, 3, 1, 2)))  # a later version's message
    session.obey(bytes((SHOW, 4)))
    assert pico.strip(0) == [(0, 0, 0)] * 22 + [(1, 2, 3), (4, 5, 6)]
    session.report([(4, 1)] * 300)  # more than one frame holds
    *_, (_, first), (_, second) = line.messages()
    assert first == Changes(((4, 1),) * 255) and second == Changes(((4, 1),) * 45)


@pytest.mark.parametrize(("settings", "message"), [
    ({}, "gameboard.json: sensors is missing"),
    ({"sensors": {"front_end": "hc166"}}, 'sensors.front_end must be "hc165", "gpio" or "hall_mux", not "hc166"'),
    ({"sensors": {"front_end": "hc165", "sck": 18, "miso": 16, "load": 40, "chips": 3}},
     "sensors.load must be a GPIO number from 0 to 29, not 40"),
    ({"sensors": {"front_end": "gpio", "pins": [1, 2], "pullup": True}},
     "gameboard.json: sensors has no key 'pullup': a misspelling?"),
    ({"sensors": {"front_end": "hall_mux", "select": [2, 3, 4, 5], "muxes": [{"adc": 26}, {"adc": 26}]}},
     'the multiplexers on ADC pin 26 each need an "enable" pin'),
    ({"sensors": {"front_end": "hall_mux", "select": [2, 3, 4], "muxes": [{"adc": 26}]}},
     "sensors.select must be a list of 4 GPIO numbers, not [2, 3, 4]"),
    ({"sensors": {"front_end": "hall_mux", "select": [2, 3, 4, 5], "muxes": [{"adc": 25}]}},
     "sensors.muxes[0].adc must be a GPIO number (26, 27, 28), not 25"),
    ({"sensors": {"front_end": "gpio", "pins": [1]}, "strips": [{"pin": 22}]}, "strips[0].leds is missing"),
    ({"sensors": {"front_end": "gpio", "pins": [1]}, "line": {"port": "spi"}}, 'line.port must be "usb" or "uart"'),
])
def test_settings_mistakes_name_the_key_and_the_fix(settings, message):
    with pytest.raises(SettingsError) as caught:
        Settings(settings)
    assert message in str(caught.value)


@pytest.mark.parametrize("example", sorted((Path(__file__).parents[2] / "firmware" / "examples").glob("*.json")),
                         ids=lambda path: path.name)
def test_the_example_configurations_are_valid(example):
    settings = Settings(json.loads(example.read_text()), example.name)
    assert settings.front_end["front_end"] in ("hc165", "gpio", "hall_mux") and settings.strips
