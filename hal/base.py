"""The small interfaces every driver implements, and the values they exchange.

As with gpiozero's pin factories, the daemon never knows which driver is behind an
interface: configuration picks one, and the mock HAL is one like any other.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.errors import GameboardError

#: A colour as (red, green, blue), each 0-255.
RGB = tuple[int, int, int]

#: The names of the board's buttons.
BUTTONS = ("end_turn", "confirm", "undo", "new_game", "hint")


class HardwareError(GameboardError, RuntimeError):
    """A device that cannot be opened or read; the message says which and why."""


class DriverOptionError(GameboardError, ValueError):
    """A driver option that is missing or wrong: ``key`` names it, the message gives the fix.

    The configuration loader adds the file and line before it reaches a person.
    """

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        super().__init__(f"{key}: {message}")


@dataclass(frozen=True)
class Scan:
    """One reading of every channel at once.

    ``values[i]`` is channel i: 0 or 1 for presence sensors, the raw ADC value for
    analog Hall sensors.  ``timestamp`` is in seconds from a monotonic clock.
    """

    values: tuple[int, ...]
    timestamp: float


@dataclass(frozen=True)
class SensorHealth:
    """Whether a sensor array's readings show the board as it is now.

    ``stale`` readings are the last known ones, not the board's: an unplugged cable,
    a silent co-processor, a bus that fails to answer.  ``problem`` says why in words
    for people; ``errors`` counts what went wrong since the array was opened.
    """

    connected: bool = True
    stale: bool = False
    problem: str = ""
    errors: Mapping[str, int] = field(default_factory=dict)

    @property
    def sees(self) -> bool:
        """Whether the readings can be trusted: connected and current."""
        return self.connected and not self.stale

    def error_words(self) -> str:
        """The counts in words, "crc 2, lost 1"; "" when nothing went wrong."""
        return ", ".join(f"{name} {count}" for name, count in sorted(self.errors.items()))


#: The health of sensors that see the board, with nothing gone wrong.
SEES = SensorHealth()


class SensorArray(ABC):
    """Every sensor channel of the board, read at once."""

    #: "presence" (reed switches, digital Hall) or "analog" (Hall through an ADC).
    kind: str = "presence"

    def __str__(self) -> str:
        return "the sensor driver"

    @property
    @abstractmethod
    def channels(self) -> int:
        """How many channels a scan returns."""

    @abstractmethod
    def read(self) -> Scan:
        """Read every channel now; a bus that fails raises HardwareError (or OSError)."""

    def health(self) -> SensorHealth:
        """Whether the last reading was current; sensors wired to the Pi itself always are."""
        return SEES

    def close(self) -> None:
        """Release the hardware."""


class LedSink(ABC):
    """One or more LED strips, updated a whole frame at a time."""

    def __str__(self) -> str:
        return "the LED driver"

    @property
    @abstractmethod
    def strip_lengths(self) -> tuple[int, ...]:
        """The number of LEDs on each strip."""

    @abstractmethod
    def show(self, frame: Sequence[Sequence[RGB]]) -> None:
        """Show a frame: one colour per LED, one sequence per strip."""

    def close(self) -> None:
        """Turn the LEDs off and release the hardware."""


@dataclass(frozen=True)
class ButtonEvent:
    """A button pressed, by name (one of BUTTONS), at a monotonic time."""

    button: str
    timestamp: float


class ButtonPanel(ABC):
    """The board's buttons; presses are queued until the loop collects them."""

    @abstractmethod
    def events(self) -> list[ButtonEvent]:
        """The presses since the last call, oldest first."""

    def close(self) -> None:
        """Release the hardware."""


class DiceSource(ABC):
    """Where dice come from: rolled by the daemon or entered by the players.

    The engine offers a roll as outcomes, each a text (such as "roll 3+4") with its
    probability; a dice source picks one.
    """

    @abstractmethod
    def roll(self, outcomes: Sequence[tuple[str, float]]) -> str | None:
        """The outcome rolled, or None while the players have not entered one yet."""
