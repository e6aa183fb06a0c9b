"""The Pico co-processor's settings file (``gameboard.json``, docs/firmware.md) for a board built to a plan.

The chain and the strips are the plan's (as many chips, channels and LEDs as the wiring file
``board route`` writes beside it), the pins those of the Pico's examples (``parts.toml``), the
same the schematic draws, so the Pico reports what the wiring file expects.
"""

from __future__ import annotations

import math
from typing import Any

from firmware_host.kit.data import part_data
from wiring.kit.data import KitError
from wiring.kit.plan import Plan


def multiplexer_pins(count: int) -> list[dict[str, int]]:
    """Each CD74HC4067's ADC pin and enable pin: the examples' enables, then the free pins; the ADCs shared in turn,
    at least two multiplexers to an ADC."""
    mux = part_data()["pins"]["pico"]["hall_mux"]
    enables = [*mux["enables"], *mux["free"]]
    if count > len(enables):
        raise KitError(f"{count} multiplexers need {count} enable pins and the Pico has {len(enables)} free "
                       "(parts.toml [pins.pico] hall_mux): a board this big needs a second Pico")
    per_adc = max(2, math.ceil(count / len(mux["adcs"])))
    return [{"adc": mux["adcs"][k // per_adc], "enable": enables[k]} for k in range(count)]


def pico_settings(plan: Plan) -> dict[str, Any]:
    """The Pico's settings for ``plan`` (a ``serial`` front-end): its sensors and its strips."""
    pins = part_data()["pins"]["pico"]
    if plan.front_end.host != "pico":
        raise KitError(f"--pico writes the Pico co-processor's settings, and --front-end {plan.front_end.name} is "
                       "read by the Pi: give --front-end serial, or leave out --pico")
    if plan.front_end.sensing == "presence":
        chain = pins["hc165"]
        sensors: dict[str, Any] = {"front_end": "hc165", "spi": 0, "sck": chain["sck"], "miso": chain["miso"],
                                   "load": chain["load"], "chips": plan.chips, "channels": plan.channels,
                                   "active_low": True}
    else:
        sensors = {"front_end": "hall_mux", "select": list(pins["hall_mux"]["select"]),
                   "muxes": multiplexer_pins(plan.chips), "channels": plan.channels}
    if len(plan.strips) > 1:
        raise KitError(f"{sum(map(len, plan.strips))} LEDs make {len(plan.strips)} strips and parts.toml gives the "
                       "Pico one strip pin ([pins.pico] strip): add the others' pins there")
    return {"line": {"port": "usb"}, "sensors": sensors,
            "strips": [{"pin": pins["strip"], "leds": len(strip)} for strip in plan.strips]}
