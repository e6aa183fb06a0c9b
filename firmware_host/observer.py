"""From raw channel readings to what stands on each location (the wiring and calibration step).

A presence channel reads 1 for a piece; an analog Hall channel is classified by its
calibration bands.  An analog class that no piece code maps to is reported as
PRESENT, so the tracker compares observations by plain equality.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import GameboardError
from wiring.model import PRESENT, Observation, Wiring


class WiringMismatchError(GameboardError, ValueError):
    """The wiring and the sensor hardware disagree; the message says how to reconcile them."""


class Observer:
    """Turns one scan's values into one observation per channel, and channels into locations."""

    def __init__(self, wiring: Wiring, kind: str, channels: int) -> None:
        if wiring.sensing != kind:
            raise WiringMismatchError(f"the wiring is for {wiring.sensing} sensors but the sensor driver reads "
                                      f"{kind} ones; calibrate again or pick the matching driver")
        beyond = sorted(channel for channel in wiring.channels if not 0 <= channel < channels)
        if beyond:
            raise WiringMismatchError(f"the wiring maps channels {beyond[:5]} but the sensors have only "
                                      f"{channels} (0..{channels - 1}); check the driver's chip count")
        if kind == "analog":
            uncalibrated = sorted(set(wiring.channels) - set(wiring.calibration))
            if uncalibrated:
                raise WiringMismatchError(f"analog channels {uncalibrated[:5]} have no calibration; "
                                          "run `gameboard calibrate`")
        self.analog = kind == "analog"
        self.location_of: list[str | None] = [wiring.channels.get(channel) for channel in range(channels)]
        self._calibration = [wiring.calibration.get(channel) for channel in range(channels)]
        self._known_classes = frozenset(wiring.piece_classes.values())

    def observe(self, values: Sequence[int | float]) -> list[Observation]:
        """One observation per channel (unmapped channels included, as read)."""
        if not self.analog:
            return [PRESENT if value else None for value in values]
        return [self._classify(channel, value) for channel, value in enumerate(values)]

    def _classify(self, channel: int, value: float) -> Observation:
        calibration = self._calibration[channel]
        observed = calibration.observe(value) if calibration else None
        if observed is None or observed in self._known_classes:
            return observed
        return PRESENT
