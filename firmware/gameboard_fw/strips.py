"""WS2812 (NeoPixel) strips, each driven by its own PIO state machine (at most 8).

A LEDS message writes RGB into a strip's pixel buffer; SHOW sends every buffer out.
The Pi's colours are final (brightness and current budget applied): the strip only
gets them in its own colour order.
"""

from array import array

import rp2
from machine import Pin

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rp2.asm_pio import *


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True, pull_thresh=24)
def ws2812():
    # 10 cycles a bit at 8 MHz, 800 kHz: a 1 is high for 7 cycles (875 ns), a 0 for 2 (250 ns).
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[2]
    jmp(not_x, "do_zero").side(1)[1]
    jmp("bitloop").side(1)[4]
    label("do_zero")
    nop().side(0)[4]
    wrap()


#: Where red, green and blue go in the 24 bits a strip expects, first sent in the top byte.
ORDERS = {"GRB": (8, 16, 0), "RGB": (16, 8, 0), "BRG": (8, 0, 16), "RBG": (16, 0, 8), "GBR": (0, 16, 8),
          "BGR": (0, 8, 16)}


class Strips:
    """The strips' pixel buffers and state machines."""

    def __init__(self, strips: list) -> None:
        self.lengths = [strip["leds"] for strip in strips]
        self._pixels = [array("I", [0] * length) for length in self.lengths]
        self._shifts = [ORDERS[strip.get("order", "GRB")] for strip in strips]
        self._machines = []
        for number, strip in enumerate(strips):
            machine = rp2.StateMachine(number, ws2812, freq=8_000_000, sideset_base=Pin(strip["pin"]))
            machine.active(1)
            self._machines.append(machine)

    def set(self, strip: int, start: int, colours) -> None:
        """Colours (r, g, b bytes) for LEDs ``start`` on; a strip or LED that does not exist is ignored."""
        if strip >= len(self._pixels):
            return
        pixels = self._pixels[strip]
        red, green, blue = self._shifts[strip]
        for index in range(min(len(colours) // 3, len(pixels) - start)):
            at = 3 * index
            pixels[start + index] = colours[at] << red | colours[at + 1] << green | colours[at + 2] << blue

    def show(self) -> None:
        for machine, pixels in zip(self._machines, self._pixels):
            machine.put(pixels, 8)  # 24 bits a word, sent from its top: shifted up by 8
