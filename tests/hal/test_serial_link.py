"""The serial co-processor link over a real pseudo-terminal, with a fake microcontroller."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from hal import registry
from hal.base import HardwareError
from hal.serial_drivers import SerialLeds, SerialSensors

from .fake_coprocessor import SHOW, SYNC, FakeCoprocessor, frame


def wait_for(condition: Callable[[], bool], what: str) -> None:
    """Wait for the reader thread to catch up (a deadline, not a speed check)."""
    deadline = time.monotonic() + 10
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.005)


@pytest.fixture
def mcu(tmp_path: Path) -> Iterator[FakeCoprocessor]:
    fake = FakeCoprocessor(tmp_path / "ttyGAMEBOARD", channels=12, strips=(3, 2))
    yield fake
    fake.unplug()


@pytest.fixture
def sensors(mcu: FakeCoprocessor) -> Iterator[SerialSensors]:
    opened = registry.open_sensors("serial", {"port": str(mcu.port), "retry_interval": 0.02})
    yield opened
    opened.close()


def test_the_host_asks_for_a_snapshot_and_reads_the_full_state(mcu):
    mcu.values[2] = mcu.values[11] = 1
    sensors = SerialSensors.from_options({"port": str(mcu.port)})
    try:
        assert mcu.received[0] == SYNC
        assert sensors.kind == "presence" and sensors.channels == 12
        assert sensors.read().values == (0, 0, 1) + (0,) * 8 + (1,)
        assert sensors.link.hello.name == "fake-mcu 1.0"
    finally:
        sensors.close()


def test_changes_update_the_latest_state(mcu, sensors):
    mcu.write(mcu.change((4, 1), (5, 1)))
    wait_for(lambda: sensors.read().values[4:6] == (1, 1), "changes applied")
    mcu.write(mcu.change((4, 0)))
    wait_for(lambda: sensors.read().values[4:6] == (0, 1), "second change applied")
    assert sensors.link.stats["lost"] == 0 and not sensors.link.bad_frames


def test_a_corrupted_frame_is_dropped_and_the_gap_brings_a_fresh_snapshot(mcu, sensors):
    corrupted = bytearray(mcu.change((7, 1)))
    corrupted[3] ^= 0x40  # a flipped bit on the line
    mcu.write(bytes(corrupted))
    mcu.write(mcu.change((8, 1)))  # the next frame shows one missing
    wait_for(lambda: sensors.read().values[7:9] == (1, 1), "state repaired by a snapshot")
    link = sensors.link
    assert link.bad_frames["crc"] + link.bad_frames["cobs"] == 1
    assert link.stats["lost"] == 1
    assert mcu.received.count(SYNC) == 2


def test_a_cut_frame_does_not_spoil_the_next_one(mcu, sensors):
    cut = mcu.change((1, 1))
    mcu.write(cut[: len(cut) // 2])  # the cable glitched mid-frame
    mcu.write(mcu.change((2, 1)))
    mcu.write(mcu.change((3, 1)))
    wait_for(lambda: sensors.read().values[1:4] == (1, 1, 1), "all three channels seen")
    assert sum(sensors.link.bad_frames.values()) == 1


def test_garbage_is_counted_not_raised(mcu, sensors):
    mcu.write(b"\x55" * 5000)  # a long run without a delimiter
    mcu.write(b"\x00")
    mcu.write(mcu.change((0, 1)))
    wait_for(lambda: sensors.read().values[0] == 1, "a good frame after the garbage")
    assert sensors.link.bad_frames["overlong"] >= 1


def test_an_unknown_message_type_is_ignored_and_costs_no_snapshot(mcu, sensors):
    syncs = mcu.received.count(SYNC)
    mcu.write(frame(mcu.next_payload(0x7E, b"from a later version")))
    mcu.write(mcu.change((0, 1)))
    wait_for(lambda: sensors.read().values[0] == 1, "the change after the unknown message")
    link = sensors.link
    assert link.stats["unknown"] == 1 and link.stats["lost"] == 0 and link.stats["malformed"] == 0
    assert mcu.received.count(SYNC) == syncs and sensors.health().sees


def test_a_malformed_message_costs_only_itself_and_brings_a_snapshot(mcu, sensors):
    syncs = mcu.received.count(SYNC)
    mcu.values[3] = 1  # reported by a CHANGES that arrives cut short
    mcu.write(frame(mcu.next_payload(0x03, b"\x00\x03\x00")))
    wait_for(lambda: sensors.read().values[3] == 1, "the snapshot that repairs the state")
    link = sensors.link
    assert link.stats["malformed"] == 1 and link.stats["lost"] == 0
    assert mcu.received.count(SYNC) == syncs + 1
    assert "not a whole number of 4-byte changes" in link.last_error


def test_the_link_survives_an_unplugged_cable_and_resynchronises(mcu, sensors):
    leds = SerialLeds.from_options({"port": str(mcu.port)})
    assert leds.link is sensors.link  # one port, one link
    mcu.unplug()
    wait_for(lambda: not sensors.link.connected, "the host noticed the unplug")
    assert sensors.read().values == (0,) * 12  # the last known state while unplugged
    leds.show([[(1, 2, 3)] * 3, [(4, 5, 6)] * 2])  # dropped now, resent on reconnect
    mcu.values[9] = 1  # a piece placed while the cable was out
    mcu.plug()
    wait_for(lambda: sensors.read().values[9] == 1, "the snapshot after the reconnect")
    wait_for(lambda: mcu.shown, "the LED frame resent after the reconnect")
    assert mcu.shown[-1] == [[(1, 2, 3)] * 3, [(4, 5, 6)] * 2]
    assert sensors.link.stats["connects"] == 2 and sensors.link.stats["disconnects"] == 1
    leds.close()


def test_led_frames_go_strip_by_strip_then_show(tmp_path):
    mcu = FakeCoprocessor(tmp_path / "ttyLEDS", channels=2, strips=(700, 5))
    leds = registry.open_leds("serial", {"port": str(mcu.port)})
    try:
        assert leds.strip_lengths == (700, 5)
        frame_ = [[(i % 256, 0, 255 - i % 256) for i in range(700)], [(9, 9, 9)] * 5]
        leds.show(frame_)
        wait_for(lambda: mcu.shown, "a SHOW")
        assert mcu.shown[0] == frame_
        assert mcu.received.count(SHOW) == 1
    finally:
        leds.close()
        mcu.unplug()


def test_analog_snapshots_carry_raw_counts(tmp_path):
    mcu = FakeCoprocessor(tmp_path / "ttyHALL", channels=3, kind="analog", strips=())
    mcu.values[:] = [512, 830, 190]
    sensors = registry.open_sensors("serial", {"port": str(mcu.port)})
    try:
        assert sensors.kind == "analog"
        assert sensors.read().values == (512, 830, 190)
        mcu.write(mcu.change((1, 515)))
        wait_for(lambda: sensors.read().values[1] == 515, "analog change")
    finally:
        sensors.close()
        mcu.unplug()


def test_a_silent_or_missing_port_is_a_hardware_error_with_the_reason(tmp_path, mcu):
    with pytest.raises(HardwareError, match=r"ttyNONE within 0\.2 s \(cannot open .*ttyNONE"):
        registry.open_sensors("serial", {"port": str(tmp_path / "ttyNONE"), "connect_timeout": 0.2})
    mcu.answer_sync = False
    with pytest.raises(HardwareError, match=r"\(it sent no HELLO and SNAPSHOT\); check the cable"):
        registry.open_sensors("serial", {"port": str(mcu.port), "connect_timeout": 0.2})


def test_a_port_held_by_the_daemon_is_said_so(mcu):
    held = serial.Serial(str(mcu.port), exclusive=True)
    try:
        with pytest.raises(HardwareError, match=r"ttyGAMEBOARD is held by another program, such as the daemon"):
            registry.open_sensors("serial", {"port": str(mcu.port), "connect_timeout": 0.3})
    finally:
        held.close()


def test_a_silent_coprocessor_is_asked_to_sync_again(mcu):
    sensors = registry.open_sensors("serial", {"port": str(mcu.port), "silence_timeout": 0.1})
    try:
        syncs = mcu.received.count(SYNC)
        wait_for(lambda: mcu.received.count(SYNC) > syncs, "a SYNC after the silence")
        assert sensors.link.stats["silences"] >= 1
        assert "said nothing for 0.1 s" in sensors.link.last_error
    finally:
        sensors.close()


def test_health_is_stale_while_the_coprocessor_is_silent_and_fresh_once_it_speaks_again(tmp_path):
    mcu = FakeCoprocessor(tmp_path / "ttyQUIET", channels=4, heartbeat=0.02)
    sensors = registry.open_sensors("serial", {"port": str(mcu.port), "silence_timeout": 0.3})
    try:
        assert sensors.health().sees
        mcu.hung = True  # the firmware stopped; the USB port stays open
        wait_for(lambda: not sensors.health().sees, "stale after the silence")
        health = sensors.health()
        assert health.connected and health.stale and "has said nothing for" in health.problem
        wait_for(lambda: sensors.health().errors.get("silences"), "the silence counted (and a SYNC sent)")
        mcu.hung = False  # it answers the next SYNC with a fresh snapshot
        wait_for(lambda: sensors.health().sees, "fresh again")
    finally:
        sensors.close()
        mcu.unplug()


def test_health_says_unplugged_until_the_snapshot_after_the_reconnect(mcu, sensors):
    assert sensors.health().sees
    mcu.unplug()
    wait_for(lambda: not sensors.health().connected, "the unplug seen")
    health = sensors.health()
    assert health.stale and "not connected" in health.problem and health.errors["disconnects"] == 1
    mcu.answer_sync = False  # plugged back, but no snapshot yet: still stale
    mcu.plug()
    wait_for(lambda: sensors.link.connected, "reconnected")
    assert not sensors.health().sees and "waiting for the co-processor" in sensors.health().problem
    mcu.answer_sync = True
    mcu.send_hello()
    mcu.send_snapshot()
    wait_for(lambda: sensors.health().sees, "fresh after the snapshot")


def test_a_lost_frame_makes_the_state_stale_until_the_snapshot_repairs_it(mcu, sensors):
    mcu.answer_sync = False
    mcu.change((7, 1))  # made, never sent: lost on the line
    mcu.write(mcu.change((8, 1)))
    wait_for(lambda: sensors.link.stats["lost"] == 1, "the gap seen")
    assert not sensors.health().sees and sensors.read().values[7] == 0
    mcu.send_snapshot()
    wait_for(lambda: sensors.health().sees, "repaired by the snapshot")
    assert sensors.read().values[7:9] == (1, 1)


# -- resets and a HELLO that disagrees ----------------------------------------------------------


def test_a_coprocessor_that_resets_behind_an_open_port_gets_its_led_frame_again(mcu, sensors):
    leds = SerialLeds.from_options({"port": str(mcu.port)})
    try:
        lit = [[(10, 20, 30)] * 3, [(40, 50, 60)] * 2]
        leds.show(lit)
        wait_for(lambda: mcu.shown, "the first frame")
        mcu.values[6] = 1  # a piece put down while the firmware restarted
        mcu.reset()
        wait_for(lambda: len(mcu.shown) == 2, "the LED frame sent again")
        assert mcu.shown[-1] == lit
        wait_for(lambda: sensors.read().values[6] == 1 and sensors.health().sees, "the reset's snapshot")
        link = sensors.link
        assert link.stats["resets"] == 1 and link.stats["lost"] == 0  # new numbering is not a loss
        assert sensors.health().errors["resets"] == 1
    finally:
        leds.close()


def test_a_hello_with_other_leds_is_refused_the_leds_go_on_and_an_agreeing_one_ends_it(mcu, sensors):
    leds = SerialLeds.from_options({"port": str(mcu.port)})
    try:
        mcu.strips = (256,)  # a firmware reconfigured under the running daemon
        mcu.values[1] = 1
        mcu.reset()
        wait_for(lambda: not sensors.health().sees, "the refusal")
        health = sensors.health()
        assert "now announces LED strips [256], not [3, 2] as when the daemon started" in health.problem
        assert health.connected and health.errors["refused"] == 1
        assert leds.strip_lengths == (3, 2) and sensors.channels == 12
        leds.show([[(1, 1, 1)] * 3, [(2, 2, 2)] * 2])  # the session's frame: sent, not a crash
        assert sensors.read().values[1] == 0  # its snapshot is not taken: the state stays the last known
        mcu.strips = (3, 2)
        mcu.reset()
        wait_for(lambda: sensors.health().sees, "an agreeing HELLO and its snapshot")
        assert sensors.read().values[1] == 1 and not sensors.link.problem
    finally:
        leds.close()


@pytest.mark.parametrize(("change", "words"), [
    (lambda mcu: mcu.values.extend([0] * 20), "channel count 32, not 12"),
    (lambda mcu: setattr(mcu, "kind", "analog"), "sensing kind analog, not presence"),
    (lambda mcu: setattr(mcu, "version", 2), "protocol version 2, this host speaks 1"),
])
def test_a_later_hello_with_another_layout_or_version_is_refused(mcu, sensors, change, words):
    change(mcu)
    mcu.reset()
    wait_for(lambda: not sensors.health().sees, "the refusal")
    assert words in sensors.health().problem and len(sensors.read().values) == 12


def test_a_snapshot_of_another_size_is_refused_and_a_fresh_one_asked_for(mcu, sensors):
    syncs = mcu.received.count(SYNC)
    mcu.values[2] = 1
    short = mcu.values[:8]
    mcu.send(0x02, bytes((0, 8, 0, sum(v << c for c, v in enumerate(short)))))  # 8 channels, not 12
    wait_for(lambda: sensors.read().values[2] == 1, "the snapshot asked for in its place")
    assert sensors.link.stats["refused"] == 1 and mcu.received.count(SYNC) == syncs + 1
    assert len(sensors.read().values) == 12


def test_a_first_hello_of_another_version_or_too_many_channels_stops_the_start(tmp_path):
    mcu = FakeCoprocessor(tmp_path / "ttyV2", channels=4)
    try:
        mcu.version = 2
        with pytest.raises(HardwareError, match="speaks protocol version 2, this host speaks 1"):
            registry.open_sensors("serial", {"port": str(mcu.port), "connect_timeout": 0.5})
        mcu.version, mcu.kind, mcu.values = 1, "analog", [0] * 510
        with pytest.raises(HardwareError, match=r"510 analog channels, more than one SNAPSHOT carries \(509\)"):
            registry.open_sensors("serial", {"port": str(mcu.port), "connect_timeout": 0.5})
    finally:
        mcu.unplug()


def test_a_boot_hello_before_the_answer_to_sync_is_no_reset(mcu, sensors):
    mcu.send_hello()  # the answer to a SYNC sent twice, or a boot HELLO queued before the port opened
    mcu.send_snapshot()
    mcu.write(mcu.change((3, 1)))
    wait_for(lambda: sensors.read().values[3] == 1, "the change after the second HELLO")
    assert sensors.link.stats["resets"] == 0 and sensors.link.stats["lost"] == 0 and sensors.health().sees
