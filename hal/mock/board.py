"""The physical board in memory: pieces handled on its locations, and every effect of the handling scheduled.

Its parts are drivers like any other: ``hal.mock.sensors``, ``hal.mock.leds``, ``hal.mock.buttons``.
"""

from __future__ import annotations

import functools
import math
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeVar

from engine.boards import load_board
from hal.magnets import MagnetModel
from hal.mock.buttons import MockButtons
from hal.mock.leds import MockLeds
from hal.mock.noise import MockBoardError, Noise
from hal.mock.sensors import MockSensors
from wiring.model import Wiring


#: How far a hand reaches when it bumps a neighbour, in multiples of the distance from
#: the handled location to the nearest location of its kind (point to point, cell to cell).
BUMP_REACH = 1.6


F = TypeVar("F", bound=Callable[..., Any])


def _locked(method: F) -> F:
    """Run a MockBoard method under its lock: a simulator thread handling pieces and the
    daemon's scan never see half a move."""

    @functools.wraps(method)
    def locked(self: MockBoard, *args: Any, **kwargs: Any) -> Any:
        with self.lock:
            return method(self, *args, **kwargs)

    return locked  # type: ignore[return-value]



@dataclass(frozen=True)
class _Override:
    """What a location's sensor sees for a while instead of the piece at rest there.

    One content is shown steadily; two mean the contact chatters between them.
    """

    start: float
    end: float
    shown: tuple[str | None, ...]


class MockBoard:
    """The physical board in memory: pieces on locations, seen through the board's true wiring.

    ``contents`` is the board at rest (what a person would see once the hand is
    gone); the sensors see it through the noise until the effects of each handling
    have passed.  The sensor array has ``channels`` channels, else the wiring's
    ``sensor_channels``, else one past the highest wired channel: more than the wired
    ones model spare channels.
    """

    def __init__(
        self,
        wiring: Wiring,
        *,
        clock: Callable[[], float] = time.monotonic,
        noise: Noise | None = None,
        seed: int = 0,
        channels: int | None = None,
        magnets: MagnetModel | None = None,
    ) -> None:
        self.wiring = wiring
        self.clock = clock
        self.noise = noise or Noise()
        self.lock = threading.RLock()
        self._locations = load_board(wiring.board).locations
        unknown = sorted(set(wiring.channels.values()) - set(self._locations))
        if unknown:
            raise MockBoardError(f"the wiring names locations that board {wiring.board!r} lacks: {', '.join(unknown)}")
        self._pieces: dict[str, str] = {}
        self.contents: Mapping[str, str] = MappingProxyType(self._pieces)
        self._overrides: dict[str, list[_Override]] = {}
        self._handling_rng = random.Random(f"{seed}:handling")
        self.reading_rng = random.Random(f"{seed}:reading")
        self._near_cache: dict[str, list[str]] = {}
        count = channels or wiring.sensor_channels or max(wiring.channels, default=-1) + 1
        self.sensors = MockSensors(self, count, magnets or MagnetModel(), seed)
        self.leds = MockLeds(wiring)
        self.buttons = MockButtons(clock)

    # -- handling pieces -------------------------------------------------------------

    @_locked
    def place(self, location: str, piece: str) -> None:
        """Put ``piece`` down on an empty location."""
        self._check_empty(location)
        self._change(location, piece, self.clock())

    @_locked
    def lift(self, location: str) -> str:
        """Take the piece off a location and return it."""
        piece = self._piece_at(location)
        self._change(location, None, self.clock())
        return piece

    @_locked
    def move(self, source: str, target: str, via: Sequence[str] = ()) -> None:
        """Slide the piece from ``source`` to an empty ``target``, passing over ``via`` in order.

        With ``noise.slide_step`` the piece is over each empty ``via`` location for that
        long and reaches the target last; without it, it arrives at once.
        """
        piece = self._piece_at(source)
        self._check_empty(target)
        for location in via:
            self._check_location(location)
        now = self.clock()
        self._change(source, None, now, bump=False)
        step = self.noise.slide_step
        for index, location in enumerate(via):
            if step and location not in self._pieces:
                self._add(location, _Override(now + index * step, now + (index + 1) * step, (piece,)))
        arrival = now + len(via) * step
        self._change(target, piece, arrival)
        if arrival > now:
            self._add(target, _Override(now, arrival, (None,)))

    @_locked
    def flip(self, location: str, piece: str) -> None:
        """Turn the disk on ``location`` over: it now shows ``piece``."""
        shown = self._piece_at(location)
        if shown == piece:
            raise MockBoardError(f"{location} already shows {piece}: a flip must change the piece")
        self._change(location, piece, self.clock())

    @_locked
    def set_contents(self, contents: Mapping[str, str | None]) -> None:
        """Set up the whole board at once (None or a missing location is empty), without noise."""
        for location, piece in contents.items():
            self._check_location(location)
            if piece is not None and not isinstance(piece, str):
                raise MockBoardError(f"{location}: {piece!r} is not a piece code")
        self._pieces.clear()
        self._pieces.update({location: piece for location, piece in contents.items() if piece is not None})
        self._overrides.clear()

    # -- faults ------------------------------------------------------------------------

    @_locked
    def stick(self, channel: int, value: int) -> None:
        """Make ``channel`` read ``value`` whatever stands over it (a stuck sensor)."""
        self.sensors.stick(channel, value)

    @_locked
    def kill(self, channel: int) -> None:
        """Freeze ``channel`` at its present reading: a dead sensor never changes."""
        self.sensors.stick(channel, self.sensors.read().values[channel])

    @_locked
    def unplug_sensors(self) -> None:
        """Pull the sensors' cable (a co-processor's lead): scans repeat the last reading, health says stale."""
        self.sensors.unplugged = self.sensors.read()

    @_locked
    def break_bus(self, problem: str) -> None:
        """Make every scan fail with ``problem``, as a bus that stops answering does."""
        self.sensors.failure = problem

    @_locked
    def repair_sensors(self) -> None:
        """The cable back in, the bus answering: scans read the board again."""
        self.sensors.unplugged = None
        self.sensors.failure = ""

    # -- what the sensors see ------------------------------------------------------------

    def seen(self, now: float) -> dict[str, str | None]:
        """What the sensors see at time ``now``: the pieces at rest, then every effect under way.

        One dict a scan (rather than a look-up per channel) keeps a 200-channel scan cheap.
        """
        seen: dict[str, str | None] = dict(self._pieces)
        for location, overrides in list(self._overrides.items()):
            overrides[:] = [override for override in overrides if override.end > now]
            if not overrides:
                del self._overrides[location]
                continue
            active = [override for override in overrides if override.start <= now]
            if active:
                seen[location] = self.reading_rng.choice(active[-1].shown)
        return seen

    # -- internals -----------------------------------------------------------------------

    def _change(self, location: str, piece: str | None, at: float, *, bump: bool = True) -> None:
        """Set a location's content; schedule its bounce and maybe a bumped neighbour."""
        before = self._pieces.get(location)
        self._overrides.pop(location, None)
        if piece is None:
            self._pieces.pop(location, None)
        else:
            self._pieces[location] = piece
        self._bounce(location, before, piece, at)
        if bump:
            self._maybe_bump(location, at)

    def _bounce(self, location: str, before: str | None, after: str | None, at: float) -> None:
        noise = self.noise
        if noise.bounce_time and self._handling_rng.random() < noise.bounce_probability:
            self._add(location, _Override(at, at + noise.bounce_time, (before, after)))

    def _maybe_bump(self, location: str, at: float) -> None:
        """Perhaps knock a nearby piece: it is off for ``bump_time``, then drops back."""
        noise = self.noise
        if not (noise.bump_time and self._handling_rng.random() < noise.bump_probability):
            return
        candidates = [near for near in self._near(location) if near in self._pieces]
        if not candidates:
            return
        neighbour = self._handling_rng.choice(candidates)
        piece = self._pieces[neighbour]
        landing = at + noise.bump_time
        self._add(neighbour, _Override(at, landing, (None,)))
        self._bounce(neighbour, piece, None, at)
        self._bounce(neighbour, None, piece, landing)

    def _near(self, location: str) -> list[str]:
        """The locations a hand at ``location`` can bump."""
        if location not in self._near_cache:
            here = self._locations[location]
            distances = {
                other: math.dist(place.xy, here.xy) for other, place in self._locations.items() if other != location
            }
            alike = [d for other, d in distances.items() if self._locations[other].kind == here.kind]
            reach = BUMP_REACH * min(alike or distances.values(), default=0.0)
            self._near_cache[location] = sorted(other for other, d in distances.items() if d <= reach)
        return self._near_cache[location]

    def _add(self, location: str, override: _Override) -> None:
        self._overrides.setdefault(location, []).append(override)

    def _check_location(self, location: str) -> None:
        if location not in self._locations:
            raise MockBoardError(f"{location!r} is not a location of board {self.wiring.board!r}")

    def _check_empty(self, location: str) -> None:
        self._check_location(location)
        if location in self._pieces:
            raise MockBoardError(f"{location} already holds {self._pieces[location]}: lift it first")

    def _piece_at(self, location: str) -> str:
        self._check_location(location)
        if location not in self._pieces:
            raise MockBoardError(f"{location} is empty: there is no piece to take")
        return self._pieces[location]
