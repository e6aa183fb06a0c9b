"""The Pico's side of bench/firmware_scan_rate.py, run by MicroPython's unix port (not by CPython).

The real firmware loop (``app.run``) with its real USB line, stdin and stdout (here a
pseudo-terminal the bench writes LED frames into), on a board of 201 channels simulated by
hal/pico_offchip/fake_pico.py.  When the time is up it stops as at BOOTSEL and prints its
counts, one JSON line on stderr.

    micropython bench/firmware_scan_rate_pico.py FIRMWARE_DIR SECONDS FRONT_END
"""

import json
import os
import sys

HERE = (__file__ if __file__.startswith("/") else os.getcwd() + "/" + __file__).rsplit("/", 1)[0]
ROOT = HERE.rsplit("/", 1)[0]
firmware, seconds, front_end = sys.argv[1], float(sys.argv[2]), sys.argv[3]
sys.path[:0] = [firmware, ROOT + "/hal/pico_offchip"]

import machine  # noqa: E402
import rp2  # noqa: E402
from fake_pico import FakePico  # noqa: E402
from gameboard_fw import app, line, sensors  # noqa: E402
from gameboard_fw.settings import Settings  # noqa: E402
from time import ticks_diff, ticks_ms, ticks_us  # noqa: E402

FRONT_ENDS = {
    "hc165": {"front_end": "hc165", "sck": 18, "miso": 16, "load": 17, "chips": 26, "channels": 201},
    # settle_us 0: the unix port's sleep_us is a system call of 50 us and more, not the Pico's busy wait.
    "hall_mux": {"front_end": "hall_mux", "select": [2, 3, 4, 5], "channels": 201, "settle_us": 0,
                 "muxes": [{"adc": (26, 27, 28)[index % 3], "enable": 6 + index} for index in range(13)]},
}
counts = {"scans": 0, "turns": 0, "reading_turns": 0, "read_us": 0, "read_bytes": 0, "shows": 0, "turn_read_us": []}


class BenchPico(FakePico):
    def state_machine_put(self, pin: int, words: list) -> None:
        counts["shows"] += 1
        super().state_machine_put(pin, words)


settings = Settings({"sensors": FRONT_ENDS[front_end], "strips": [{"pin": 22, "leds": 201}]})
values = [2000 if front_end == "hall_mux" else channel % 2 for channel in range(201)]
pico = BenchPico(settings.front_end, values)
pico.turn_ms = 0  # the clock follows the host's
machine.PICO = pico

scan = sensors.Board.changes
read = line.UsbLine.read


def counted_scan(board, now):
    counts["scans"] += 1
    return scan(board, now)


def timed_read(usb):
    began = ticks_us()
    data = read(usb)
    counts["turns"] += 1
    if data:  # the time this turn read for: the scanning waits that long
        spent = ticks_diff(ticks_us(), began)
        counts["reading_turns"] += 1
        counts["read_us"] += spent
        counts["read_bytes"] += len(data)
        counts["turn_read_us"].append(spent)
    return data


started = ticks_ms()
sensors.Board.changes = counted_scan
line.UsbLine.read = timed_read
rp2.bootsel_button = lambda: ticks_diff(ticks_ms(), started) >= seconds * 1000
app.run(settings)
counts["seconds"] = ticks_diff(ticks_ms(), started) / 1000
print(json.dumps(counts), file=sys.stderr)
