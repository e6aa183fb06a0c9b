"""The LEDs as a view of the board's state: a ``Scene`` built from a ``BoardState`` and the time (for
blinking), drawn by the ``Presenter`` and shown on the strips.

A frame is built only when what the LEDs mean changes or a blink flips (``LedView.key``): at 200 Hz
most scans change nothing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from firmware_host.board_state import BoardState
from firmware_host.presenter import LIGHTS, TURN, Presenter, Scene, legend
from firmware_host.tracker import Status
from hal.base import RGB, LedSink
from wiring.model import Wiring

log = logging.getLogger(__name__)

#: A fault flashes the whole board in its colour for this long, then shows the usual picture as long.
FAULT_FLASH_S = 0.5

#: A location's light as the page draws it: the light's name in the first half of a period and in the
#: second (None: dark), and the rhythm ("" steady, "blink" every ``blink_ms``, "flash" a fault's).
PageLight = tuple[str | None, str | None, str]


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
        """``occurring``: the names of the lights the game can show. Working them out plays the game a little
        (up to about 2.5 s on a Pi 4), so it runs on a thread of its own, never in the scanning loop, once the
        legend is first asked for (a board with no page never asks)."""
        self.presenter = Presenter(wiring, settings.brightness, settings.current_budget_ma, settings.ma_per_led,
                                   settings.dice_locations)
        self.leds = leds
        self.blink_ms = blink_ms
        self.pieces = pieces
        self._occurring: Collection[str] | None = None
        self._legend: list[dict[str, object]] | None = None
        self._working_out: threading.Thread | None = threading.Thread(target=self._work_out, args=(occurring,),
                                                                      name="legend", daemon=True)
        #: Location -> colour of the frame shown (before brightness and budget), and the current it draws.
        self.colours: dict[str, RGB] = {}
        self.current_ma = 0.0

    def _work_out(self, occurring: Callable[[], Collection[str]]) -> None:
        try:
            self._occurring = occurring()
        except Exception:  # a bug in working out the facts: the legend keeps every light
            log.exception("the lights this game can show could not be worked out; the legend lists them all")

    @property
    def legend_known(self) -> bool:
        """Whether the lights this game can show are worked out (until then the legend lists every light)."""
        return self._occurring is not None

    @property
    def legend(self) -> list[dict[str, object]]:
        """The lights this game can show, with their meanings: every light until they are worked out."""
        if self._working_out is not None:
            self._working_out.start()
            self._working_out = None
        if self._legend is None and self._occurring is not None:
            self._legend = legend(self.pieces, self._occurring)
        if self._legend is not None:
            return self._legend
        return legend(self.pieces, {*LIGHTS, *(f"turn_{code}" for code in self.pieces)})

    def key(self, board: BoardState, now: float) -> tuple[Any, ...]:
        """What the frame shows at ``now``: a new frame is due when it changes.  Its first part says what the
        lights mean, the rest the phase of a blink and of a fault's flash (see ``page_lights``)."""
        view = board.view
        blinks = view.status is Status.CONFIRM or bool(view.todo) or bool(board.left_to_do) or board.guide is not None
        blink_on = int(now * 1000 / self.blink_ms) % 2 == 0 if blinks else True
        fault = board.fault
        fault_on = bool(fault) and int(now / FAULT_FLASH_S) % 2 == 0
        return ((view, board.last_move, board.dice, board.position.turn_locations, fault, board.left_to_do,
                 board.guide), blink_on, fault_on)

    def show(self, board: BoardState, key: tuple[Any, ...]) -> None:
        """Draw and show the frame ``key`` (from ``LedView.key``) says."""
        _, blink_on, fault_on = key
        self.colours = self.presenter.colours(self._scene(board, blink_on, board.fault if fault_on else ""))
        frame, self.current_ma = self.presenter.frame(self.colours)
        self.leds.show(frame)

    def _scene(self, board: BoardState, blink_on: bool, fault: str) -> Scene:
        position = board.position
        return Scene(board.view, board.last_move, position.turn_locations, position.turn_colour, board.dice,
                     blink_on, fault, board.left_to_do, board.guide, board.hint is not None)

    def page_lights(self, board: BoardState) -> dict[str, PageLight]:
        """Every lit location's light over a whole blink: a page animates the blinking itself, so a blink's
        phase is no change to send.  Named as the legend names them (the mover's glow ``turn_PIECE``)."""
        turn = f"turn_{board.position.turn_piece}"
        on, off = ({location: turn if name == TURN else name
                    for location, name in self.presenter.meanings(self._scene(board, phase, "")).items()}
                   for phase in (True, False))
        lights: dict[str, PageLight] = {location: (name, off.get(location), "" if off.get(location) == name
                                                   else "blink") for location, name in on.items()}
        lights.update({location: (None, name, "blink") for location, name in off.items() if location not in on})
        if board.fault:
            flash = f"fault_{board.fault}"
            lights = {location: (flash, lights.get(location, (None,))[0], "flash") for location in self.presenter.leds}
        return lights
