"""The LEDs as a view of the board's state: a ``Scene`` built from a ``BoardState`` and the time (for
blinking), drawn by the ``Presenter`` and shown on the strips.

A frame is built only when what the LEDs mean changes or a blink flips (``LedView.key``): at 200 Hz
most scans change nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from firmware_host.board_state import BoardState
from firmware_host.presenter import Presenter, Scene, legend
from firmware_host.tracker import Status
from hal.base import RGB, LedSink
from wiring.model import Wiring

#: A fault flashes the whole board in its colour for this long, then shows the usual picture as long.
FAULT_FLASH_S = 0.5


@dataclass(frozen=True)
class LedSettings:
    """How bright the LEDs are and how much current they may draw."""

    brightness: float = 0.5
    current_budget_ma: float = 2000.0
    ma_per_led: float = 60.0
    dice_locations: tuple[str, ...] = ()


class LedView:
    """One board's LEDs: the last frame's colours and current, kept for the page's snapshot."""

    def __init__(self, wiring: Wiring, leds: LedSink, settings: LedSettings, pieces: dict[str, str],
                 blink_ms: float, occurring: Callable[[], Collection[str]]) -> None:
        """``occurring``: the names of the lights the game can show (worked out when the legend is first asked
        for: it plays the game a little)."""
        self.presenter = Presenter(wiring, settings.brightness, settings.current_budget_ma, settings.ma_per_led,
                                   settings.dice_locations)
        self.leds = leds
        self.blink_ms = blink_ms
        self.pieces, self.occurring = pieces, occurring
        #: Location -> colour of the frame shown (before brightness and budget), and the current it draws.
        self.colours: dict[str, RGB] = {}
        self.current_ma = 0.0

    @cached_property
    def legend(self) -> list[dict[str, object]]:
        """The lights this game can show, with their meanings (the game, and so its pieces, never changes)."""
        return legend(self.pieces, self.occurring())

    def key(self, board: BoardState, now: float) -> tuple[Any, ...]:
        """What the frame shows at ``now``: a new frame is due when it changes."""
        view = board.view
        blinks = view.status is Status.CONFIRM or bool(view.todo) or bool(board.left_to_do) or board.guide is not None
        blink_on = int(now * 1000 / self.blink_ms) % 2 == 0 if blinks else True
        fault = board.fault
        fault_on = bool(fault) and int(now / FAULT_FLASH_S) % 2 == 0
        return (view, blink_on, board.last_move, board.dice, board.position.turn_locations, fault, fault_on,
                board.left_to_do, board.guide)

    def show(self, board: BoardState, key: tuple[Any, ...]) -> None:
        """Draw and show the frame ``key`` (from ``LedView.key``) says."""
        view, blink_on, _, _, _, fault, fault_on, _, _ = key
        position = board.position
        scene = Scene(view, board.last_move, position.turn_locations, position.turn_colour, board.dice, blink_on,
                      fault if fault_on else "", board.left_to_do, board.guide, board.hint is not None)
        self.colours = self.presenter.colours(scene)
        frame, self.current_ma = self.presenter.frame(self.colours)
        self.leds.show(frame)
