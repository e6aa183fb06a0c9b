"""The board's sensors as the loop reads them: scanned and debounced, followed by the move tracker, and
whether they can see the board at all (the sensors fault)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from firmware_host import words
from firmware_host.config import LoopConfig
from firmware_host.observer import Observer
from firmware_host.scanner import Scanner
from firmware_host.tracker import MoveTracker
from hal.base import SensorArray, SensorHealth
from wiring.model import Wiring


class Sensing:
    """One board's scanner and tracker, the locations its sensors watch and how they are."""

    def __init__(self, sensors: SensorArray, wiring: Wiring, places: Mapping[str, Any], loop: LoopConfig,
                 clock: Callable[[], float]) -> None:
        self.scanner = Scanner(sensors, Observer(wiring, sensors.kind, sensors.channels), loop.debounce_ms / 1000,
                               clock)
        self.watched = frozenset(location for location in wiring.channels.values())
        self.tracker = MoveTracker({loc: places[loc].xy for loc in self.watched}, loop.settle_ms / 1000,
                                   loop.out_of_sync_ms / 1000)
        self.health = SensorHealth()
        #: How many scans changed what the sensors see: the published state copies it only then.
        self.changed = 0

    def scan(self, now: float, faults: dict[str, str]) -> bool:
        """Read once and follow the changes; whether the sensors see the board now, the fault raised or cleared
        to match.

        The fault says the problem and the error counts when it began (the counts as they
        go on are in the snapshot: a status line changing at every scan would flood the log).
        Once the sensors see again, a move must hold still for the settle time as seen from then.
        """
        changes = self.scanner.scan(now)
        if changes:
            self.tracker.observe(changes, now)
            self.changed += 1
        health = self.health = self.scanner.health()
        if not health.sees:
            problem = health.problem or words.STALE_READINGS
            if not faults.get("sensors", "").startswith(problem):
                faults["sensors"] = words.sensor_fault(problem, health.error_words())
        elif faults.pop("sensors", None) is not None:
            self.tracker.hold(now)
        return health.sees
