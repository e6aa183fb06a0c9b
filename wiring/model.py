"""The maps between the hardware and the board, as values.

A ``Wiring`` says which sensor channel sits under each location, which LEDs light
it, and (for analog Hall sensors) how to turn a channel's raw reading into an
observation.  The file format lives in ``wiring.files``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.board import Board

#: What a sensor reports for a location: None for empty, "present" for a piece seen by
#: a presence sensor, or the name of a piece class told apart by an analog Hall sensor.
Observation = str | None

PRESENT = "present"


@dataclass(frozen=True)
class ClassBand:
    """A piece class on an analog channel: readings in [low, high] mean this class."""

    name: str
    low: float
    high: float


@dataclass(frozen=True)
class ChannelCalibration:
    """An analog channel's zero-field baseline and its class bands."""

    baseline: float
    bands: tuple[ClassBand, ...] = ()

    def observe(self, value: float) -> Observation:
        for band in self.bands:
            if band.low <= value <= band.high:
                return band.name
        return None


@dataclass
class Wiring:
    """Channel -> location, location -> LEDs, and per-channel calibration."""

    board: str
    sensing: str = "presence"  # or "analog"
    channels: dict[int, str] = field(default_factory=dict)
    leds: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    strip_lengths: tuple[int, ...] = ()
    calibration: dict[int, ChannelCalibration] = field(default_factory=dict)
    #: Piece code (as the engine writes it) -> the class an analog sensor reads.
    piece_classes: dict[str, str] = field(default_factory=dict)
    #: How many channels the sensor array reads (0: not recorded); spare ones stay unmapped.
    sensor_channels: int = 0

    @property
    def channel_of(self) -> dict[str, int]:
        return {location: channel for channel, location in self.channels.items()}

    @property
    def classes(self) -> tuple[str, ...]:
        """The analog piece classes, each once, in the order the piece codes name them."""
        return tuple(dict.fromkeys(self.piece_classes.values()))

    def expected(self, content: str | None) -> Observation:
        """What a correctly working sensor reports for a location holding ``content``."""
        if content is None:
            return None
        if self.sensing == "analog":
            return self.piece_classes.get(content, PRESENT)
        return PRESENT


def straight_wiring(board: Board, sensing: str = "presence", piece_classes: dict[str, str] | None = None) -> Wiring:
    """Channel i and LED i under the i-th location, one strip: the mock HAL's default."""
    names = list(board.locations)
    return Wiring(
        board=board.name,
        sensing=sensing,
        channels=dict(enumerate(names)),
        leds={name: ((0, i),) for i, name in enumerate(names)},
        strip_lengths=(len(names),),
        piece_classes=dict(piece_classes or {}),
        sensor_channels=len(names),
    )
