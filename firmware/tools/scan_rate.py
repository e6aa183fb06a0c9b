# On the Pico: `mpremote run firmware/tools/scan_rate.py` (with gameboard.json and gameboard_fw copied).
# Scans the configured sensors for five seconds without the line and prints the scan rate, the
# time per channel and how long a frame of the configured strips takes to send out.
from time import ticks_diff, ticks_ms, ticks_us

from gameboard_fw.sensors import Board
from gameboard_fw.settings import load, make_front_end
from gameboard_fw.strips import Strips

settings = load()
board = Board(make_front_end(settings.front_end), settings.noise)
start = ticks_ms()
scans = 0
while ticks_diff(ticks_ms(), start) < 5000:
    board.changes(ticks_ms())
    scans += 1
seconds = ticks_diff(ticks_ms(), start) / 1000
print(f"{board.kind} board, {board.channels} channels: {scans / seconds:.0f} scans a second, "
      f"{1e6 * seconds / scans / board.channels:.1f} us a channel")
strips = Strips(settings.strips)
began = ticks_us()
strips.show()
print(f"a frame for strips {strips.lengths}: {ticks_diff(ticks_us(), began) / 1000:.1f} ms to send out")
