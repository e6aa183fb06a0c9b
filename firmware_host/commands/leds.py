"""``gameboard leds test``: light each location in turn, then run a light along each strip."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from firmware_host.calibration.bringup import chase, light_each_location
from firmware_host.commands.arguments import at_least
from firmware_host.commands.calibrate import opened_hal
from firmware_host.commands.run import default_config
from firmware_host.validation import check_opened_hal, checked_config


def register(subparsers: argparse._SubParsersAction) -> None:
    leds = subparsers.add_parser("leds", help="bring-up checks of the LED strips")
    sub = leds.add_subparsers(dest="leds_command", metavar="ACTION", required=True)
    test = sub.add_parser("test", help="light each location in turn through the wiring, then chase along each strip",
                          description="Each location lights alone while the terminal names it, in the board's "
                                      "order; then a light runs along every strip from its first LED to its last.")
    test.add_argument("--config", type=Path, default=None, help=f"the configuration file (default: {default_config()})")
    test.add_argument("--seconds", type=at_least(0), default=0.4, help="how long each location stays lit (default 0.4)")
    test.add_argument("--chase-seconds", type=at_least(0), default=0.03, help="per LED of a chase (default 0.03)")
    test.set_defaults(handler=test_leds)


def test_leds(args: argparse.Namespace) -> int:
    config = checked_config(args.config or default_config(), journal=False)
    wiring = config.load_wiring()
    board = config.game().board
    with opened_hal(config) as hal:
        sink = hal.leds
        check_opened_hal(config, wiring, hal)
        order = [location for location in board.locations if location in wiring.leds]
        light_each_location(sink, wiring, order, time.sleep, args.seconds, print)
        for strip, length in enumerate(sink.strip_lengths):
            print(f"chase along strip {strip} ({length} LEDs)")
            chase(sink, strip, time.sleep, args.chase_seconds)
    return 0
