"""The parts of the page that come from the daemon's snapshot, the same in the simulator and the mirror."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.board import Board
from engine.draw import Arrow, Blink, Drawing, Overlay
from firmware_host.presenter import PALETTE, indicator
from firmware_host.words import FAULT_HEADS
from hal.base import RGB, SensorHealth

#: How wide the page's board is drawn (px; the page scales it to fit).
BOARD_WIDTH = 760
#: The light whose colour each kind of arrow takes.
ARROW_LIGHTS = {"last_move": "last_move", "carry": "carry_to", "hint": "hint"}

#: The parts of the page a read-only page (the mirror, a spectator's) leaves empty: no form, no hands.
READ_ONLY_VIEW: dict[str, Any] = {"games": [], "options": {}, "buttons": [], "dice_entry": False, "hand": [],
                                  "hand_hint": "", "clicks": {}, "tray": [], "noise": False}


def snapshot_view(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The status line, dice, moves, LED legend and faults of a daemon's snapshot, as the page shows them."""
    return {
        "dice": snapshot["dice"],
        "status": snapshot["status_text"] + (f" - {snapshot['note']}" if snapshot["note"] else ""),
        "log": snapshot["history"],
        "legend": snapshot["legend"],
        # The banner: what is wrong, in the words of the status line, as long as it lasts.
        "faults": [{"kind": kind, "head": FAULT_HEADS[kind], "problem": problem}
                   for kind, problem in snapshot["faults"].items()],
        "remote": remote_words(snapshot),
        "sensor_errors": sensor_words(snapshot),
        "speech": snapshot["speech"],  # the moment the board's voice speaks of (static/speech.js)
    }


def sensor_words(snapshot: dict[str, Any]) -> str:
    """What went wrong on the way from the sensors since the start ("sensors: crc 2, lost 1"), "" if nothing."""
    counts = SensorHealth(errors=snapshot["sensors"]["errors"]).error_words()
    return f"sensors: {counts} since the start" if counts else ""


def remote_words(snapshot: dict[str, Any]) -> str:
    """A remote game in a line: "remote game friday on mqtt://host:1883 as bob (white: alice, black: bob):
    connected; alice online"; "" for a game on this board alone."""
    remote = snapshot["remote"]
    if remote is None:
        return ""
    link = "connected" if remote["connected"] else remote["problem"] or "connecting"
    others = "; ".join(f"{name} {'online' if online else 'offline'}" for name, online in
                       sorted(remote["online"].items()) if name != remote["name"])
    seats = ", ".join(f"{seat['name']}: {seat['holder'] or remote['name']}" for seat in snapshot["seats"])
    return (f"remote game {remote['game']} on {remote['broker']} as {remote['name']} ({seats}): {link}"
            + (f"; {others}" if others else "") + DICE_WORDS[remote["dice"]])


#: How a remote game's dice are rolled, in the remote line ("" for a game without dice).
DICE_WORDS = {"": "", "fair": "; fair dice: every seat rolls them together through the broker (no board's own dice "
                             "are read)", "by hand": "; dice by hand, as every seat agreed"}


class BoardPicture:
    """A game's board as the page shows it: the board itself (``drawing``, the same for the whole game, with
    every place's name in a group the page shows on request), then each place's pieces and lights
    (``places``: location -> [its spot, its area if it has one]) and the arrows (``marks``), as SVG.

    Lights come by name, drawn in the colour of their meaning as a lit LED looks (the legend's colours),
    whatever the brightness; a blinking one carries both phases and the page blinks it.
    """

    def __init__(self, board: Board, piece_colours: Mapping[str, str]) -> None:
        self.drawing = Drawing(board, BOARD_WIDTH)
        self.piece_colours = dict(piece_colours)
        self.colours: dict[str, RGB] = {**PALETTE, **{f"turn_{code}": indicator(code, display)
                                                     for code, display in piece_colours.items()}}
        self.frame = {"board": board.name, "svg": self.drawing.frame(ids=True)}
        self._places: dict[tuple[Any, ...], list[str]] = {}

    def view(self, pieces: Mapping[str, str], snapshot: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The board's keys of the view: ``pieces`` where they stand, and the lights, arrows and the line
        that decided the game (Hexover's winning path) of a daemon's ``snapshot``, if there is one."""
        lights: Mapping[str, Sequence[Any]] = snapshot["lights"] if snapshot else {}
        arrows: Mapping[str, Sequence[str]] = snapshot["arrows"] if snapshot else {}
        outcome = snapshot["outcome"] if snapshot else None
        line = outcome["line"] if outcome else ()
        leds: dict[str, RGB] = {}
        blinks: dict[str, Blink] = {}
        for location, (first, second, rhythm) in lights.items():
            if first is not None:
                leds[location] = self.colours[first]
            if rhythm:
                blinks[location] = Blink(None if second is None else self.colours[second], rhythm)
        overlay = Overlay(pieces=pieces, leds=leds, piece_colours=self.piece_colours, blinks=blinks,
                          arrows=tuple(Arrow(tuple(through), self.colours[ARROW_LIGHTS[kind]], kind)
                                       for kind, through in arrows.items()), line=tuple(line))
        return {"drawing": self.frame, "places": {location: self._place(location, overlay)
                                                  for location in self.drawing.board.locations},
                # Each lit place's light by name (a blinking one's lit phase): what a screen reader says of it.
                "lights": {location: first or second for location, (first, second, _) in lights.items()
                           if first or second},
                "marks": self.drawing.marks(overlay), "blink_ms": snapshot["blink_ms"] if snapshot else 0}

    def _place(self, location: str, overlay: Overlay) -> list[str]:
        """A place's spot and area, drawn once for each state it is in (a game visits few)."""
        key = (location, overlay.pieces.get(location), overlay.leds.get(location), overlay.blinks.get(location))
        drawn = self._places.get(key)
        if drawn is None:
            if len(self._places) > PLACES_KEPT:
                self._places.clear()
            area = self.drawing.area(location, overlay)
            drawn = self._places[key] = [self.drawing.spot(location, overlay), *([area] if area else [])]
        return drawn


#: How many drawn places a ``BoardPicture`` keeps before it starts again.
PLACES_KEPT = 5000
