"""Scan and debounce: a location's observation counts only once it has held still.

Reed switches chatter for about a millisecond and a slid piece passes over the
locations on its way; an observation that has not stayed the same for the debounce
time is not reported.  Debouncing works on observations, not raw values, so an
analog reading's noise within one class never resets the timer.

A read that fails (a bus that does not answer) keeps the last observations and
makes the scanner's health stale until a read succeeds again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from firmware_host.observer import Observer
from hal.base import HardwareError, SensorArray, SensorHealth
from wiring.model import Observation


class Debouncer:
    """Reports a channel's new value once it has stayed unchanged for ``hold`` seconds."""

    def __init__(self, initial: list[Observation], hold: float) -> None:
        self.hold = hold
        self.stable = list(initial)
        self._raw = list(initial)
        self._since: dict[int, float] = {}

    @property
    def pending(self) -> bool:
        """Whether some channel is changing but not yet stable (the loop must keep polling)."""
        return bool(self._since)

    def update(self, raw: list[Observation], now: float) -> dict[int, Observation]:
        """Feed one scan; return the channels whose stable value changed, with the new value."""
        if raw != self._raw:
            for channel, (old, new) in enumerate(zip(self._raw, raw)):
                if old != new:
                    if new == self.stable[channel]:
                        self._since.pop(channel, None)
                    else:
                        self._since[channel] = now
            self._raw = raw
        if not self._since:
            return {}
        settled = {channel: self._raw[channel] for channel, since in self._since.items() if now - since >= self.hold}
        for channel, value in settled.items():
            del self._since[channel]
            self.stable[channel] = value
        return settled


class Scanner:
    """Reads the sensors and reports debounced changes by location."""

    def __init__(self, sensors: SensorArray, observer: Observer, debounce: float,
                 clock: Callable[[], float]) -> None:
        self.sensors = sensors
        self.observer = observer
        self.clock = clock
        self._last_values: tuple[int | float, ...] | None = None
        self._read_failure = ""
        self.read_errors = 0
        first = observer.observe(sensors.read().values)
        self.debouncer = Debouncer(first, debounce)

    def board(self) -> dict[str, Observation]:
        """Every wired location's stable observation."""
        return {location: value for location, value in zip(self.observer.location_of, self.debouncer.stable)
                if location is not None}

    def health(self) -> SensorHealth:
        """The sensors' own health, stale too while reading them fails."""
        health = self.sensors.health()
        if self.read_errors:
            health = replace(health, errors={**health.errors, "read_errors": self.read_errors})
        return replace(health, stale=True, problem=self._read_failure) if self._read_failure else health

    def scan(self, now: float | None = None) -> dict[str, Observation]:
        """Read once; the locations whose stable observation changed, with the new observation."""
        try:
            values = self.sensors.read().values
        except (HardwareError, OSError) as exc:
            self.read_errors += 1
            self._read_failure = f"the sensors cannot be read: {exc}"
            return {}
        self._read_failure = ""
        now = self.clock() if now is None else now
        if values == self._last_values and not self.debouncer.pending:
            return {}
        self._last_values = values
        changed = self.debouncer.update(self.observer.observe(values), now)
        location_of = self.observer.location_of
        return {location_of[channel]: value for channel, value in changed.items()
                if location_of[channel] is not None}
