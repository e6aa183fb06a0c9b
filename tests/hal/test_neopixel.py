"""The NeoPixel sink on Blinka's fake board: the real Adafruit classes, the bytes they write."""

from __future__ import annotations

import neopixel
import pytest

from hal import registry
from hal.base import DriverOptionError
from hal.frames import FrameError


@pytest.fixture
def written(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, bytes]]:
    """The (pin, bytes) of every write to a data pin: the boundary where the strip begins."""
    writes: list[tuple[object, bytes]] = []
    monkeypatch.setattr(neopixel, "neopixel_write", lambda pin, buf: writes.append((pin, bytes(buf))))
    return writes


def test_each_strip_gets_its_colours_in_grb_order_with_one_write_a_frame(written):
    leds = registry.open_leds(
        "neopixel", {"strips": [{"pin": "NEOPIXEL", "length": 3}, {"pin": "Dx_OUTPUT", "length": 2, "order": "RGB"}]}
    )
    assert leds.strip_lengths == (3, 2)
    leds.show([[(255, 0, 0), (0, 255, 0), (1, 2, 3)], [(10, 20, 30), (0, 0, 0)]])
    assert [data for _, data in written] == [bytes((0, 255, 0, 255, 0, 0, 2, 1, 3)), bytes((10, 20, 30, 0, 0, 0))]
    leds.close()
    assert written[-1][1] == bytes(6)  # closing turns the LEDs off


def test_brightness_stays_at_full_scale_the_presenter_scales_colours(written):
    leds = registry.open_leds("neopixel", {"strips": [{"pin": "NEOPIXEL", "length": 1}]})
    leds.show([[(200, 100, 50)]])
    assert written[-1][1] == bytes((100, 200, 50))


def test_a_frame_that_does_not_fit_is_refused_before_any_write(written):
    leds = registry.open_leds("neopixel", {"strips": [{"pin": "NEOPIXEL", "length": 2}]})
    with pytest.raises(FrameError, match="strip 0 has 2 LEDs, the frame gives 1"):
        leds.show([[(1, 1, 1)]])
    assert written == []


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, "strips: the neopixel driver needs this option"),
        ({"strips": [{"pin": "D99", "length": 3}]}, r"strips\[0\]\.pin: the board has no pin 'D99'"),
        ({"strips": [{"pin": "NEOPIXEL"}]}, r"strips\[0\]\.length: the neopixel driver needs this option"),
        ({"strips": [{"pin": "NEOPIXEL", "length": 3, "order": "WRGB"}]}, r"strips\[0\]\.order: 'WRGB' is not one of"),
        (
            {"strips": [{"pin": "NEOPIXEL", "length": 3, "brightness": 0.3}]},
            r"strips\[0\]\.brightness: the neopixel driver has no such option",
        ),
    ],
)
def test_strip_options_are_checked(options, message):
    with pytest.raises(DriverOptionError, match=message) as raised:
        registry.open_leds("neopixel", options)
    assert raised.value.key == "strips"


def test_neopixel_spi_strips_on_the_fake_spi_bus(monkeypatch):
    import busio

    sent: list[bytes] = []
    monkeypatch.setattr(busio.SPI, "write", lambda self, buf, *args, **kwargs: sent.append(bytes(buf)))
    leds = registry.open_leds("neopixel_spi", {"strips": [{"length": 2}]})
    leds.show([[(255, 0, 0), (0, 0, 0)]])
    assert len(sent) == 1
    # neopixel_spi sends each colour bit as one SPI byte, 0b11110000 for 1 and 0b11000000 for 0,
    # in GRB order between runs of zero bytes (the latch): the first LED's green is eight 0s, its red eight 1s.
    bits = sent[0].strip(b"\x00")
    assert len(bits) == 2 * 24
    assert bits[:8] == bytes([0b11000000]) * 8 and bits[8:16] == bytes([0b11110000]) * 8
    with pytest.raises(DriverOptionError, match=r"length: 500 is not a whole number from 1 to 170"):
        registry.open_leds("neopixel_spi", {"strips": [{"length": 500}]})
