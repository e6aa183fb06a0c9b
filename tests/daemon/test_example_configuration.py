"""The example configuration, systemd/gameboard.toml, works on a Pi prepared by the README's steps."""

from __future__ import annotations

from firmware_host.config import load_config
from tests.daemon.test_install_docs import ROOT, pi_steps

#: What a Pi step must say for each bus to be on.
TURNED_ON_BY = {"spi0": "do_spi 0", "spi1": "dtoverlay=spi1", "i2c": "do_i2c 0"}
SENSOR_BUSES = {"hc165": {"spi0"}, "mcp3008": {"spi0"}, "mcp23017": {"i2c"}, "ads1115": {"i2c"}}


def test_the_example_configuration_uses_only_the_buses_the_pi_steps_turn_on() -> None:
    """It once put a strip on SPI1, which the steps never turn on (raspi-config's do_spi is SPI0 only)."""
    config = load_config(ROOT / "systemd" / "gameboard.toml")
    steps = "\n".join(pi_steps())
    used = set(SENSOR_BUSES.get(config.sensors.driver, ()))
    if config.leds.driver == "neopixel_spi":
        used |= {"spi1" if strip.get("clock") == "SCK_1" else "spi0" for strip in config.leds.options["strips"]}
    assert [bus for bus in sorted(used) if TURNED_ON_BY[bus] not in steps] == []
