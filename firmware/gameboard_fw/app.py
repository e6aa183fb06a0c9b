"""The firmware's loop: scan, report changes (or a heartbeat), obey the Pi, until BOOTSEL is pressed."""

from time import ticks_diff, ticks_ms

import rp2

from gameboard_fw.frames import FrameReader
from gameboard_fw.line import UartLine, UsbLine
from gameboard_fw.protocol import Session
from gameboard_fw.sensors import Board
from gameboard_fw.settings import Settings, load, make_front_end
from gameboard_fw.strips import Strips

#: How often the BOOTSEL button is looked at (reading it stalls the flash for a moment).
BOOTSEL_EVERY_MS = 500


def open_line(settings: Settings):
    line = dict(settings.line)
    return UsbLine() if line.pop("port") == "usb" else UartLine(**line)


def run(settings: Settings) -> None:
    """Introduce the board (a reset's unasked HELLO and SNAPSHOT), then loop until BOOTSEL is pressed."""
    board = Board(make_front_end(settings.front_end), settings.noise)
    strips = Strips(settings.strips)
    line = open_line(settings)
    session = Session(line, board, strips)
    reader = FrameReader()
    try:
        last_sent = looked = ticks_ms()
        session.introduce()
        while True:
            now = ticks_ms()
            sent = session.sent
            changes = board.changes(now)
            if changes or ticks_diff(now, last_sent) >= settings.heartbeat_ms:
                session.report(changes)
            data = line.read()
            if data:
                for payload in reader.feed(data):
                    session.obey(payload)
            if session.sent != sent:
                last_sent = now
            if ticks_diff(now, looked) >= BOOTSEL_EVERY_MS:
                looked = now
                if rp2.bootsel_button():
                    return
    finally:
        line.close()


def main() -> None:
    run(load())
