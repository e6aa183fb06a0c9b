"""The firmware's checks, run under CPython (test_firmware_units.py) and under MicroPython's unix
port (test_firmware_checks.py, through run_checks.py): the same checks on both interpreters, so a
construct that CPython accepts and MicroPython refuses fails here.

Plain Python both run: no pytest, no ``__future__``, no ``typing`` at run time; a check is a
function registered by ``@check`` that raises (AssertionError) when it fails and ``Skip`` when
it cannot run on this interpreter.  The hardware is hal/pico_offchip/fake_pico.py.
"""

import math
import struct
import sys

import machine
import pico_clock
from fake_pico import FakePico
from gameboard_fw import NAME, app, frames
from gameboard_fw.line import USB_READS_PER_TURN, CobsBlocks
from gameboard_fw.protocol import CHANGES, HELLO, LEDS, SHOW, SNAPSHOT, SYNC, Session
from gameboard_fw.sensors import Board, DirectInputs, ShiftChain
from gameboard_fw.settings import Settings, SettingsError, load, make_front_end, parse
from gameboard_fw.strips import Strips
from tests.hal.documented_frames import documented_frames

MICROPYTHON = sys.implementation.name == "micropython"
ROOT = __file__.rsplit("/", 3)[0]
CHECKS: list = []


class Skip(Exception):
    """This check cannot run on this interpreter; the message says why."""


def check(function):
    CHECKS.append(function)
    return function


# -- helpers ------------------------------------------------------------------------------------------


def pseudo_random_bytes(seed: int, size: int, zeros: bool = True) -> bytes:
    """The same bytes on both interpreters (their ``random`` differ): a linear congruential generator."""
    out = bytearray(size)
    state = seed
    for index in range(size):
        state = (1103515245 * state + 12345) & 0x7FFFFFFF
        byte = state >> 16 & 0xFF
        out[index] = byte if zeros or byte else 1
    return bytes(out)


def textbook_cobs(data) -> bytes:
    """COBS as Cheshire and Baker define it, written apart from the firmware's: every zero-free run
    is cut into pieces of 254 (code 0xFF, no zero after them) and a last piece led by its length + 1
    (a zero after it); the zero after the last run is implied, so a last run of 254 * k bytes ends
    on its full piece."""
    out = bytearray()
    runs = bytes(data).split(b"\x00")
    for index in range(len(runs)):
        run, last = runs[index], index == len(runs) - 1
        while len(run) > 254 or (len(run) == 254 and not last):
            out += b"\xff" + run[:254]
            run = run[254:]
        if len(run) < 254:
            out.append(len(run) + 1)
        else:
            out.append(0xFF)
        out += run
    return bytes(out)


def wire(payload: bytes) -> bytes:
    """The bytes a well-behaved sender puts on the line for ``payload``."""
    crc = frames.crc16(payload)
    return textbook_cobs(payload + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


class Line:
    """The far end of the firmware's line: what it wrote, cut into payloads."""

    def __init__(self) -> None:
        self.sent = bytearray()

    def write(self, data) -> None:
        self.sent.extend(data)

    def payloads(self) -> list:
        return frames.FrameReader().feed(self.sent)


def changed(board: Board, now: int) -> list:
    """What one scan reports, as a list (a quiet scan gives the firmware's shared empty tuple)."""
    return list(board.changes(now))


class Readings:
    """A front-end whose readings the check sets."""

    def __init__(self, kind: str, values: list) -> None:
        self.kind, self.channels, self.values = kind, len(values), values

    def read(self, into) -> None:
        for channel in range(self.channels):
            into[channel] = self.values[channel]


def next_state(state: int) -> int:
    """A linear congruential generator: the same numbers on both interpreters (their ``random`` differ)."""
    return (1103515245 * state + 12345) & 0x7FFFFFFF


class JitteryHall:
    """Hall sensors at rest whose readings jitter: Gaussian, ``sigma`` counts (drawn once into a table
    by Box-Muller, then picked from it at each reading)."""

    kind = "analog"

    def __init__(self, channels: int, sigma: float) -> None:
        self.channels = channels
        self.rest = [1500 + 7 * channel % 900 for channel in range(channels)]
        self.jitter = []
        state = 1
        for _ in range(1024):
            state = next_state(state)
            uniform = (state + 1) / 2**31
            state = next_state(state)
            gauss = math.sqrt(-2 * math.log(uniform)) * math.cos(2 * math.pi * state / 2**31)
            self.jitter.append(math.floor(sigma * gauss + 0.5))
        self.state = 7

    def read(self, into) -> None:
        jitter, rest, state = self.jitter, self.rest, self.state
        for channel in range(self.channels):
            state = next_state(state)
            into[channel] = rest[channel] + jitter[state >> 21]
        self.state = state


class CountingLine:
    def __init__(self) -> None:
        self.bytes = 0

    def write(self, data) -> None:
        self.bytes += len(data)


def traffic(noise: int, sigma: float, channels: int = 201, scans_per_second: int = 200, seconds: int = 2) -> float:
    """Bytes a second the firmware sends for ``channels`` jittery Hall sensors scanned at the protocol's
    200 scans a second: CHANGES as the loop sends them, heartbeats every 500 ms when nothing changed."""
    board = Board(JitteryHall(channels, sigma), noise)
    line = CountingLine()
    session = Session(line, board, None)
    board.snapshot(now=0)
    last_sent = 0
    for scan in range(1, seconds * scans_per_second + 1):
        now = scan * 1000 // scans_per_second
        changes = board.changes(now)
        if changes or now - last_sent >= 500:
            session.report(changes)
            last_sent = now
    return line.bytes / seconds


#: What a UART at 115200 baud carries, 8N1: bytes a second.
UART_BYTES_PER_SECOND = 11520


def fake_pico(settings: dict, values: list) -> FakePico:
    pico = FakePico(Settings(settings).front_end, values)
    machine.PICO = pico
    return pico


def raises_settings_error(settings: dict) -> str:
    try:
        Settings(settings)
    except SettingsError as exc:
        return str(exc)
    raise AssertionError("accepted: " + repr(settings))


def setter(values: list, channel: int, value: int):
    """An action for ``FakePico.at``: a reading changes."""

    def action() -> None:
        values[channel] = value

    return action


def ending_in_a_run(run: int, alone: bool) -> bytes:
    """A payload whose bytes on the line (payload and CRC) end in ``run`` non-zero bytes, after a zero
    unless ``alone`` (then the run is all of them)."""
    for seed in range(1, 100):
        payload = (b"" if alone else b"\x05\x00") + pseudo_random_bytes(seed, run - 2, zeros=False)
        crc = frames.crc16(payload)
        if crc >> 8 and crc & 0xFF:
            return payload
    raise AssertionError("no CRC without a zero byte in 99 tries")


#: (length, alone) of last runs of non-zero bytes around every multiple of 254 a frame holds (payload
#: 1024 + CRC 2): alone, the run is all of the frame's bytes, else a zero comes before it.
RUNS_AROUND_254K = [(254 * k + delta, alone) for k in (1, 2, 3, 4) for delta in (-2, -1, 0, 1, 2)
                    for alone in (True, False) if 254 * k + delta + (0 if alone else 2) <= 1026]


SQUARE_OFF_CHAIN = {"front_end": "hc165", "sck": 18, "miso": 16, "load": 17, "chips": 3}
DAY_MS = 86_400_000
#: Where an RP2's ticks_ms stand after 49 days (the wrap of a 32-bit millisecond counter elsewhere).
AT_49_DAYS = pico_clock.ticks_add(0, 49 * DAY_MS)


# -- frames -------------------------------------------------------------------------------------------


@check
def check_the_documented_frames():
    for payload, on_the_wire in documented_frames():
        assert bytes(frames.encode(payload)) == on_the_wire, payload
        assert frames.FrameReader().feed(on_the_wire) == [payload]


@check
def check_frames_round_trip_and_are_textbook_cobs_whatever_the_bytes():
    for size in list(range(0, 600, 7)) + [1022, 1023, 1024]:
        payload = pseudo_random_bytes(size, size)
        encoded = bytes(frames.encode(payload))
        assert encoded == wire(payload), size
        assert frames.decode(encoded[:-1]) == (payload if size else None), size


@check
def check_a_run_of_254_k_non_zero_bytes_at_the_end_takes_no_extra_cobs_block():
    """COBS ends a last run of 254 * k non-zero bytes on its full block: no empty block (01) after it."""
    for run, alone in RUNS_AROUND_254K:
        payload = ending_in_a_run(run, alone)
        encoded = bytes(frames.encode(payload))
        assert encoded == wire(payload), (run, alone, encoded[-4:])
        assert frames.FrameReader().feed(encoded) == [payload], (run, alone)


@check
def check_bad_and_overlong_frames_are_dropped_and_the_next_one_taken():
    reader = frames.FrameReader()
    good = wire(b"\x81\x07")
    flipped = bytearray(good)
    flipped[2] ^= 0x10
    assert reader.feed(bytes(flipped) + b"\x07" * 3000 + b"\x00" + good[:3]) == []
    assert reader.feed(good[3:]) == [b"\x81\x07"]
    assert reader.dropped == 2  # the flipped frame and the run longer than 1031 bytes


@check
def check_the_tail_of_an_overlong_run_split_across_reads_is_no_frame():
    """Bytes with no 0x00 for longer than a frame are one bad frame up to the next 0x00, however they
    arrive: the end of such a run, a frame's worth of bytes, is dropped with it."""
    good = wire(b"\x81\x07")
    for cut in (2000, 1500, 1032):
        reader = frames.FrameReader()
        run = b"\x07" * 2000 + good  # a frame glued to garbage: no 0x00 before it
        assert reader.feed(run[:cut]) == []
        assert reader.feed(run[cut:]) == [], cut
        assert reader.feed(good) == [b"\x81\x07"], cut
        assert reader.dropped == 1, cut


# -- the change rules ---------------------------------------------------------------------------------


@check
def check_an_analog_change_beyond_the_noise_is_sent_at_most_every_5_ms_and_a_held_one_later():
    sensors = Readings("analog", [2000, 2000])
    board = Board(sensors, noise=3)
    assert list(board.snapshot(now=0)) == [2000, 2000]
    sensors.values[0] = 2003
    assert changed(board, 10) == []  # within the noise
    sensors.values[0] = 2010
    assert changed(board, 11) == [(0, 2010)]
    sensors.values[0] = 2030
    assert changed(board, 13) == []  # 2 ms after the last report: held back
    sensors.values[0] = 2040
    assert changed(board, 15) == []
    sensors.values[0] = 2050
    sensors.values[1] = 1900
    assert changed(board, 16) == [(0, 2050), (1, 1900)]  # 5 ms on: the value read now; channel 1 at once
    sensors.values[0] = 2052
    assert changed(board, 30) == []  # within the noise of what was reported


@check
def check_every_presence_change_is_sent_at_once():
    sensors = Readings("presence", [0, 0, 0])
    board = Board(sensors)
    board.snapshot(now=0)
    sensors.values[1] = 1
    assert changed(board, 1) == [(1, 1)]
    sensors.values[1] = 0
    assert changed(board, 2) == [(1, 0)]
    assert changed(board, 3) == []


@check
def check_an_analog_channel_quiet_for_days_reports_its_next_change_at_once():
    """The RP2's ticks wrap at 2**30 ms: 2**29 ms after a report, ticks_diff from it turns negative
    (day 6.2), which must not hold the channel's next change back until day 12.4."""
    quiet_spells = [DAY_MS, (1 << 29) - 1, 1 << 29, (1 << 29) + 1, 7 * DAY_MS, 1 << 30, (1 << 30) + 2, 49 * DAY_MS]
    for start in (pico_clock.ticks_add(0, -3), 0, AT_49_DAYS):  # just before the wrap, at it, at 49 days
        for quiet in quiet_spells:
            sensors = Readings("analog", [2000, 2000])
            board = Board(sensors, noise=3)
            board.snapshot(now=start)
            for ms in range(1, 8):  # the loop scans on after the report
                assert changed(board, pico_clock.ticks_add(start, ms)) == []
            now = pico_clock.ticks_add(start, quiet)
            sensors.values[0] = 2100
            assert changed(board, now) == [(0, 2100)], (start, quiet)
            sensors.values[0] = 2200
            assert changed(board, pico_clock.ticks_add(now, 4)) == [], (start, quiet)  # held 5 ms, across the wrap too
            assert changed(board, pico_clock.ticks_add(now, 5)) == [(0, 2200)], (start, quiet)


@check
def check_the_loop_reports_and_beats_across_the_wrap_and_at_49_days():
    """app.run on a stopped clock that moves 1 ms a loop turn: the heartbeat, a held analog change and
    the answer to SYNC keep their times from a second before the wrap across it, and at 49 days."""
    for start in (pico_clock.ticks_add(0, -1000), AT_49_DAYS):
        values = [2000] * 16
        settings = Settings({"line": {"port": "uart", "tx": 0, "rx": 1}, "strips": [{"pin": 22, "leds": 4}],
                             "sensors": {"front_end": "hall_mux", "select": [2, 3, 4, 5], "muxes": [{"adc": 26}],
                                         "settle_us": 0, "noise": 8}})
        pico = FakePico(settings.front_end, values)
        machine.PICO = pico
        pico_clock.stop_at(start)
        pico.run_ms = 2200
        pico.at(1000, setter(values, 3, 2500))  # at the wrap, for the first start
        pico.at(1002, setter(values, 3, 2600))  # within 5 ms of the report: held back
        pico.at(1500, lambda: pico.send(wire(bytes((SYNC, 9)))))
        app.run(settings)
        sent = [(ms, payload) for ms, data in pico.writes for payload in frames.FrameReader().feed(data)]
        kinds = [payload[0] for _, payload in sent]
        assert kinds[:2] == [HELLO, SNAPSHOT] and kinds.count(HELLO) == 2, kinds
        changes = [(ms, payload[2:]) for ms, payload in sent if payload[0] == CHANGES and len(payload) > 2]
        assert changes == [(1000, b"\x00\x03\x09\xc4"), (1005, b"\x00\x03\x0a\x28")], (start, changes)
        hello_again = [ms for ms, payload in sent if payload[0] == HELLO][1]
        assert hello_again == 1500, hello_again
        gaps = [later[0] - earlier[0] for earlier, later in zip(sent, sent[1:])]
        assert max(gaps) <= settings.heartbeat_ms, gaps


@check
def check_the_default_noise_keeps_jittery_hall_sensors_well_within_a_uart():
    """201 Hall sensors at rest: with 2 counts of jitter the default threshold sends heartbeats only
    (the old default, 3, sent 34 KB/s: three times what 115200 baud carries), with 3 counts (the
    mock board's realistic noise) under a tenth of the UART."""
    noise = Settings({"sensors": {"front_end": "hall_mux", "select": [2, 3, 4, 5], "muxes": [{"adc": 26}]}}).noise
    assert noise == Board(JitteryHall(1, 0)).noise
    heartbeats_only = 2 * 6  # two empty CHANGES a second, 6 bytes each on the line
    assert traffic(noise, 2) == heartbeats_only, traffic(noise, 2)
    assert traffic(noise, 3) < UART_BYTES_PER_SECOND / 10, traffic(noise, 3)
    assert traffic(3, 2) > 2 * UART_BYTES_PER_SECOND  # what the check would see of the old default


# -- the front-ends -----------------------------------------------------------------------------------


@check
def check_a_74hc165_chain_reads_1_for_a_piece_whatever_the_polarity():
    for active_low in (True, False):
        values = [0] * 24
        values[4] = values[16] = 1
        fake_pico({"sensors": dict(SQUARE_OFF_CHAIN, active_low=active_low)}, values)
        read = bytearray(24)
        ShiftChain(0, 18, 16, 17, chips=3, channels=24, active_low=active_low).read(read)
        assert [channel for channel in range(24) if read[channel]] == [4, 16], active_low


@check
def check_direct_inputs_read_1_for_a_piece():
    values = [0] * 24
    values[1] = 1
    fake_pico({"sensors": {"front_end": "gpio", "pins": list(range(6, 30))}}, values)
    read = bytearray(24)
    DirectInputs(list(range(6, 30))).read(read)
    assert [channel for channel in range(24) if read[channel]] == [1]


#: The largest board's 201 channels on each front-end (with room for a strip on GPIO 22 and the UART).
FRONT_ENDS_OF_201 = [
    {"front_end": "hall_mux", "select": [2, 3, 4, 5], "channels": 201, "settle_us": 0,
     "muxes": [{"adc": (26, 27, 28)[index % 3], "enable": 6 + index} for index in range(13)]},
    {"front_end": "hc165", "sck": 18, "miso": 16, "load": 17, "chips": 26, "channels": 201},
    {"front_end": "gpio", "pins": list(range(2, 22))},
]


@check
def check_a_scan_allocates_nothing_per_channel():
    """A Hall scan of 201 channels allocated 7.8 KB (a tuple a channel): garbage the Pico's collector
    then stops the loop for.  Counted by gc.mem_alloc, with the collector off."""
    if not MICROPYTHON:
        raise Skip("gc.mem_alloc counts the heap's bytes under MicroPython only")
    import gc

    for front_end in FRONT_ENDS_OF_201:
        settings = Settings({"sensors": front_end})
        values = [2000 if front_end["front_end"] == "hall_mux" else channel % 2 for channel in range(201)]
        machine.PICO = FakePico(settings.front_end, values)
        board = Board(make_front_end(settings.front_end), settings.noise)
        board.snapshot(now=0)
        board.changes(10)
        gc.collect()
        gc.disable()
        try:
            before = gc.mem_alloc()
            board.front_end.read(board._values)
            read = gc.mem_alloc() - before
            before = gc.mem_alloc()
            for scan in range(10):
                board.changes(20 + 5 * scan)
            scans = (gc.mem_alloc() - before) // 10
        finally:
            gc.enable()
        assert read == 0 and scans == 0, (front_end["front_end"], read, scans)


# -- the messages -------------------------------------------------------------------------------------


@check
def check_the_session_answers_sync_and_shows_led_frames():
    values = [0] * 24
    values[2] = 1
    pico = fake_pico({"sensors": SQUARE_OFF_CHAIN}, values)
    line = Line()
    session = Session(line, Board(ShiftChain(0, 18, 16, 17, chips=3, channels=24)), Strips([{"pin": 22, "leds": 24}]))
    session.obey(bytes((SYNC, 0)))
    hello, snapshot = line.payloads()
    assert hello == bytes((HELLO, hello[1], 1, 0, 0, 24, 1, 0, 24)) + NAME.encode()
    assert snapshot == bytes((SNAPSHOT, (hello[1] + 1) & 0xFF, 0, 24, 0, 0b100, 0, 0))
    session.obey(bytes((LEDS, 1)) + struct.pack(">BH", 0, 22) + bytes((1, 2, 3, 4, 5, 6, 7, 8, 9)))  # 2 past the end
    session.obey(bytes((LEDS, 2)) + struct.pack(">BH", 3, 0) + bytes((9, 9, 9)))  # no strip 3
    session.obey(bytes((0x9F, 3, 1, 2)))  # a later version's message
    session.obey(bytes((SHOW, 4)))
    assert pico.strip(22) == [(0, 0, 0)] * 22 + [(1, 2, 3), (4, 5, 6)]
    session.report([(4, 1)] * 300)  # more than one frame holds
    first, second = line.payloads()[-2:]
    assert first[0] == second[0] == CHANGES and second[1] == (first[1] + 1) & 0xFF
    assert first[2:] == b"\x00\x04\x00\x01" * 255 and second[2:] == b"\x00\x04\x00\x01" * 45


class Console:
    """MicroPython's USB stdin as the firmware sees it: it says only whether a byte waits, and a read of
    more bytes than the Pi has written would wait (the loop would stall): that fails the check."""

    def __init__(self) -> None:
        self.written = bytearray()  # what the Pi wrote and the firmware has not read yet
        self.reads = 0

    def ready(self) -> bool:
        return len(self.written) > 0

    def read(self, count: int) -> bytes:
        assert count <= len(self.written), "read(%d) with %d bytes written: the loop stalls" % (count, len(self.written))
        self.reads += 1
        data = bytes(self.written[:count])
        self.written = self.written[count:]
        return data


def led_frame(leds: int, sequence: int = 0, lit_every: int = 10) -> bytes:
    """The Pi's LED frame for one strip as it writes it, LEDS then SHOW: most LEDs dark, as in play."""
    colours = bytearray(3 * leds)
    for led in range(0, leds, lit_every):
        colours[3 * led : 3 * led + 3] = bytes((200, 40 + led % 200, 0))
    return wire(bytes((LEDS, sequence)) + struct.pack(">BH", 0, 0) + colours) + wire(bytes((SHOW, sequence + 1)))


def cobs_blocks(frames_on_the_wire: bytes) -> int:
    """How many COBS blocks the frames hold (a code byte each)."""
    count, at = 0, 0
    while at < len(frames_on_the_wire):
        code = frames_on_the_wire[at]
        at += code if code else 1
        count += 1 if code else 0
    return count


@check
def check_usb_reads_take_an_led_frame_a_cobs_block_at_a_time():
    """USB stdin says only that a byte waits; a byte a read cost a poll and a read a byte, the scan
    stopped meanwhile.  Now a read takes a COBS block and the next code byte (one read a block, one
    to start each frame), at most USB_READS_PER_TURN a loop turn, and never more than was written."""
    for lit_every in (1, 4, 10, 1000):
        console = Console()
        blocks = CobsBlocks(console.ready, console.read)
        frame = led_frame(201, lit_every=lit_every)
        console.written.extend(frame)
        received = bytearray()
        turns = 0
        while console.written:
            received.extend(blocks.read(USB_READS_PER_TURN))
            turns += 1
        assert received == frame and console.reads == 2 + cobs_blocks(frame), (lit_every, console.reads)
        assert turns == (console.reads + USB_READS_PER_TURN - 1) // USB_READS_PER_TURN, turns
    for size in (1, 2, 3, 60, 254, 300, 600):  # the first bytes seen are the middle of a frame
        console = Console()
        blocks = CobsBlocks(console.ready, console.read)
        console.written.extend(led_frame(201)[size:] + led_frame(201, 2) + wire(bytes((SYNC, 4))) + led_frame(1, 5))
        received = bytearray()
        while console.written:
            received.extend(blocks.read(USB_READS_PER_TURN))
        payloads = frames.FrameReader().feed(received)  # all but the LEDS cut short
        assert [payload[:2] for payload in payloads] == [b"\x83\x01", b"\x82\x02", b"\x83\x03", b"\x81\x04",
                                                         b"\x82\x05", b"\x83\x06"], size


# -- the settings -------------------------------------------------------------------------------------

SETTINGS_MISTAKES = [
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
     "sensors.muxes[0].adc must be an ADC pin (26, 27, 28), not 25"),
    ({"sensors": {"front_end": "gpio", "pins": [1]}, "strips": [{"pin": 22}]}, "strips[0].leds is missing"),
    ({"sensors": {"front_end": "gpio", "pins": [1]}, "line": {"port": "spi"}}, 'line.port must be "usb" or "uart"'),
]


@check
def check_settings_mistakes_name_the_key_and_the_fix():
    for settings, message in SETTINGS_MISTAKES:
        said = raises_settings_error(settings)
        assert message in said, said


def thirty_two_multiplexers(channels=None) -> dict:
    """32 multiplexers (512 inputs), each pin a field alone accepts: 30 on ADC 26 with enables 0-29."""
    muxes = [{"adc": 26, "enable": pin} for pin in range(30)] + [{"adc": 27}, {"adc": 28}]
    sensors = {"front_end": "hall_mux", "select": [2, 3, 4, 5], "muxes": muxes}
    if channels is not None:
        sensors["channels"] = channels
    return {"sensors": sensors}


#: Settings every field of which passes alone, that cannot work on a Pico: what it must say instead.
SETTINGS_THAT_CANNOT_WORK = [
    ({"sensors": SQUARE_OFF_CHAIN, "strips": [{"pin": 17, "leds": 24}]},
     "gameboard.json: strips[0].pin is GPIO 17, which sensors.load uses already: each needs a pin of its own"),
    ({"sensors": {"front_end": "hall_mux", "select": [2, 3, 4, 5],
                  "muxes": [{"adc": 26, "enable": 6}, {"adc": 26, "enable": 6}]}},
     "sensors.muxes[1].enable is GPIO 6, which sensors.muxes[0].enable uses already"),
    ({"sensors": {"front_end": "hall_mux", "select": [2, 3, 4, 5], "muxes": [{"adc": 26, "enable": 5}]}},
     "sensors.muxes[0].enable is GPIO 5, which sensors.select[3] uses already"),
    ({"sensors": {"front_end": "gpio", "pins": [6, 7, 6]}}, "sensors.pins[2] is GPIO 6, which sensors.pins[0]"),
    ({"line": {"port": "uart", "tx": 16, "rx": 17}, "sensors": SQUARE_OFF_CHAIN},
     "sensors.miso is GPIO 16, which line.tx uses already"),
    (thirty_two_multiplexers(), "sensors.muxes: 32 multiplexers carry 512 channels, more than the 509 analog "
                                "channels a SNAPSHOT holds: set sensors.channels to at most 509"),
    (thirty_two_multiplexers(channels=510), "sensors.channels must be a whole number from 1 to 509, not 510"),
    ({"sensors": dict(SQUARE_OFF_CHAIN, spi=1)}, "sensors.sck must be an SCK pin of SPI1 (10, 14, 26), not 18"),
    ({"sensors": dict(SQUARE_OFF_CHAIN, sck=10)}, "sensors.sck must be an SCK pin of SPI0 (2, 6, 18, 22), not 10"),
    ({"sensors": dict(SQUARE_OFF_CHAIN, spi=1, sck=10)},
     "sensors.miso must be a MISO pin of SPI1 (8, 12, 24, 28), not 16"),
    ({"line": {"port": "uart", "uart": 1, "tx": 0, "rx": 1}, "sensors": {"front_end": "gpio", "pins": [6]}},
     "line.tx must be a TX pin of UART1 (4, 8, 20, 24), not 0"),
    ({"line": {"port": "uart", "uart": 1, "tx": 4, "rx": 1}, "sensors": {"front_end": "gpio", "pins": [6]}},
     "line.rx must be an RX pin of UART1 (5, 9, 21, 25), not 1"),
]


@check
def check_settings_that_cannot_work_on_a_pico_are_refused_naming_the_keys():
    """One pin used twice, more analog channels than a SNAPSHOT holds, SPI or UART pins of another
    bus: refused with the keys, not a ValueError of the Pico's when the firmware opens them."""
    for settings, message in SETTINGS_THAT_CANNOT_WORK:
        said = raises_settings_error(settings)
        assert message in said, said
    shared_adc = Settings({"sensors": {"front_end": "hall_mux", "select": [2, 3, 4, 5],
                                       "muxes": [{"adc": 26, "enable": 6}, {"adc": 26, "enable": 7}]}})
    assert [mux["adc"] for mux in shared_adc.front_end["muxes"]] == [26, 26]  # one ADC pin, shared by design


#: Settings files that are not JSON, and where and what the mistake is.  MicroPython's json takes
#: the first four (and says "syntax error in JSON" with no place for the rest).
NOT_JSON = [
    ('{"sensors": {"front_end": "gpio" "pins": [6]}}', "line 1, column 34: a ',' is missing before this key"),
    ('{"sensors": {"front_end": "gpio", "pins": [6 7]}}', "line 1, column 46: a ',' is missing before this value"),
    ('{"sensors": {"front_end": "gpio", "pins": [6, 7,]}}',
     "line 1, column 48: a ',' with no value after it: remove it"),
    ('{\n  "sensors": {"front_end": "gpio", "pins": [6]},\n}',
     "line 2, column 48: a ',' with no key after it: remove it"),
    ('{\n  "sensors": {\n    "front_end": "gpio",\n    "pins": [6]\n  }\n  "strips": []\n}',
     "line 6, column 3: a ',' is missing before this key"),
    ("", "line 1, column 1: the file is empty"),
    ('{"sensors": {"front_end": gpio}}', "line 1, column 27: a value is expected here"),
    ("{'sensors': {}}", "line 1, column 2: a key in double quotes is expected here"),
    ('{"heartbeat_ms": 0500}', "line 1, column 18: a number such as 12 or -3.5"),
    ('{"heartbeat_ms": NaN}', "line 1, column 18: a value is expected here"),
    ('{"line": {"port": "usb"}, "line": {}}', 'line 1, column 27: the key "line" is given twice'),
    ('{"sensors": {"front_end": "gp\nio"}}', "line 1, column 30: a line break inside a string"),
    ('{"sensors": {"front_end": "gpio\\x"}}', "line 1, column 32: \\x is no JSON escape"),
    ('{"sensors": {"front_end": "gpio', "line 1, column 27: this string has no closing '\"'"),
    ('{"sensors": {}', "line 1, column 15: the file ends inside {...}: a '}' is missing"),
    ('{"sensors": {}} {}', "line 1, column 17: more after the end of the settings"),
]


@check
def check_the_settings_file_is_read_as_strict_json_with_the_place_of_a_mistake():
    """The same strict reading on the Pico as under CPython: no missing or trailing comma, no key twice,
    no NaN, and a mistake says its line and column."""
    for text, message in NOT_JSON:
        try:
            parse(text)
        except SettingsError as exc:
            assert str(exc).startswith("gameboard.json, " + message), (text, str(exc))
        else:
            raise AssertionError("accepted: " + text)
    settings = parse('{"sensors": {"front_end": "gpio", "pins": [6, 7], "active_low": false},\n'
                     ' "strips": [{"pin": 22, "leds": 2, "order": "R\\u0047B"}], "heartbeat_ms": 250}')
    assert settings.front_end == {"front_end": "gpio", "pins": [6, 7], "active_low": False}
    assert settings.strips == [{"pin": 22, "leds": 2, "order": "RGB"}] and settings.heartbeat_ms == 250


@check
def check_the_example_configurations_are_valid():
    import os

    folder = ROOT + "/firmware/examples"
    names = sorted(name for name in os.listdir(folder) if name.endswith(".json"))
    assert len(names) >= 3, names
    for name in names:
        settings = load(folder + "/" + name)
        assert settings.front_end["front_end"] in ("hc165", "gpio", "hall_mux") and settings.strips, name
