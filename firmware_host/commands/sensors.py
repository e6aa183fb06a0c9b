"""``gameboard sensors watch``: a live view of every channel's raw reading and of the observed board."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from firmware_host.commands.arguments import at_least
from firmware_host.commands.calibrate import opened_hal
from firmware_host.commands.run import default_config
from firmware_host.observer import Observer
from firmware_host.validation import checked_config
from hal.base import Scan, SensorArray, SensorHealth

CLEAR = "\x1b[H\x1b[2J"


def register(subparsers: argparse._SubParsersAction) -> None:
    sensors = subparsers.add_parser("sensors", help="bring-up views of the sensors")
    sub = sensors.add_subparsers(dest="sensors_command", metavar="ACTION", required=True)
    watch = sub.add_parser("watch", help="show the raw readings and the observed board, refreshed live",
                           description="Reads the sensors through the configured wiring and calibration; "
                                       "Ctrl-C stops.")
    watch.add_argument("--config", type=Path, default=None,
                       help=f"the configuration file (default: {default_config()})")
    watch.add_argument("--interval", type=at_least(0), default=0.2, help="seconds between views (default 0.2)")
    watch.add_argument("--count", type=at_least(1, int), default=None,
                       help="stop after this many views, 1 or more (default: until Ctrl-C)")
    watch.set_defaults(handler=watch_sensors)


def watch_sensors(args: argparse.Namespace) -> int:
    config = checked_config(args.config or default_config(), journal=False)
    wiring = config.load_wiring()
    order = list(config.game().board.locations)
    with opened_hal(config) as hal:
        observer = Observer(wiring, hal.sensors.kind, hal.sensors.channels)
        live = sys.stdout.isatty()
        try:
            for view in watch(hal.sensors, observer, order, args.count, time.sleep, args.interval):
                print((CLEAR if live else "") + view, flush=True)
        except KeyboardInterrupt:
            pass
    return 0


def watch(sensors: SensorArray, observer: Observer, order: Sequence[str], count: int | None,
          pause: Callable[[float], None], interval: float) -> Iterator[str]:
    """One rendered view per scan, ``count`` of them (None: without end), ``interval`` seconds apart."""
    number = 0
    while count is None or number < count:
        number += 1
        yield render_view(number, sensors.read(), observer, order, sensors.health())
        if count is None or number < count:
            pause(interval)


def render_view(number: int, scan: Scan, observer: Observer, order: Sequence[str], health: SensorHealth,
                columns: int = 16) -> str:
    """One screen: the sensors' health, the locations that hold a piece (in ``order``), every channel's raw value."""
    per_channel = observer.observe(scan.values)
    channel_of = {location: channel for channel, location in enumerate(observer.location_of) if location is not None}
    seen = [f"{location} (ch {channel_of[location]}: {per_channel[channel_of[location]]})" for location in order
            if location in channel_of and per_channel[channel_of[location]] is not None]
    stray = [str(channel) for channel, location in enumerate(observer.location_of)
             if location is None and per_channel[channel] is not None]
    errors = health.error_words()
    lines = [f"scan {number} at {scan.timestamp:.3f} s: {len(seen)} of {len(channel_of)} locations hold a piece",
             ("sensors: see the board" if health.sees else f"sensors: CANNOT SEE THE BOARD: {health.problem}")
             + (f" (errors: {errors})" if errors else ""),
             "pieces: " + (", ".join(seen) or "none")]
    if stray:
        lines.append("channels wired to no location that read something: " + ", ".join(stray))
    width = max((len(str(value)) for value in scan.values), default=1)
    lines.append("raw readings by channel:")
    for start in range(0, len(scan.values), columns):
        row = scan.values[start:start + columns]
        lines.append(f"{start:4}-{start + len(row) - 1:<4} " + " ".join(f"{value:>{width}}" for value in row))
    return "\n".join(lines)
