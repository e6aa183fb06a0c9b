"""Practising ``gameboard calibrate`` before any soldering: the real walk, on a simulated board in the page.

The board is the mock HAL's, soldered in an order the walk does not know (channels
shuffled over whole 74HC165s, LEDs in a shuffled order), exactly what a first real board
is.  The walk (``walk.py``) runs unchanged in a thread of its own; its ``Person`` is the
page: a question waits until the person, who puts pieces down and lifts them by clicking
the places, presses one of the keys offered.  At the end the page shows what the walk
found beside how the board was really soldered.
"""

from __future__ import annotations

import asyncio
import copy
import queue
import random
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine.board import Board
from engine.draw import Overlay, svg
from engine.errors import GameboardError
from engine.games.pieces import DISPLAY
from firmware_host.calibration.questions import QUIT, READ, Ask, CalibrationPaused
from firmware_host.calibration.start import start_wiring
from firmware_host.calibration.walk import Calibration, Result, Settings
from hal.base import RGB, LedSink
from hal.mock import MockBoard
from wiring.model import Wiring

CHIP_INPUTS = 8  # the channels are soldered over whole 74HC165s: the last chip's spare inputs stay unwired
MOST_LEDS_A_STRIP = 170  # as neopixel_spi takes them: Over-Pass's 201 LEDs make two strips
PIECE_COLOUR = "#c8a165"  # a piece of no colour: natural wood
PRESENCE_PIECE = "piece"
DEFAULT_CLASSES = {"white": "north", "black": "south"}  # as the Hexover example glues them
TOLD = 6  # the findings the page keeps showing
WIDTH = 760  # the drawing's width in pixels; the page scales it


def soldered_wiring(board: Board, seed: int, sensing: str = "presence",
                    piece_classes: dict[str, str] | None = None) -> Wiring:
    """``board`` as a builder might have soldered it: channels and LEDs in an order nobody wrote down."""
    rng = random.Random(seed)
    names = list(board.locations)
    channels = -(-len(names) // CHIP_INPUTS) * CHIP_INPUTS
    strips = -(-len(names) // MOST_LEDS_A_STRIP)
    base, extra = divmod(len(names), strips)
    lengths = [base + (1 if strip < extra else 0) for strip in range(strips)]
    every_led = [(strip, index) for strip, length in enumerate(lengths) for index in range(length)]
    leds = dict(zip(names, rng.sample(every_led, len(names))))
    return Wiring(board=board.name, channels=dict(zip(rng.sample(range(channels), len(names)), names)),
                  leds={name: (led,) for name, led in leds.items()}, strip_lengths=tuple(lengths),
                  sensor_channels=channels, sensing=sensing, piece_classes=dict(piece_classes or {}))


def id_labels(board: Board) -> str:
    """The drawing's layer of location ids, placed once: placing them takes far longer than drawing the board
    (1.5 s for Over-Pass's 201), and they never move while pieces and lights change."""
    drawn = svg(board, Overlay(show_ids=True), width=WIDTH)
    start = drawn.find('<g class="labels"')
    return drawn[start:drawn.rindex("</svg>")] if start >= 0 else ""


class ShownLeds(LedSink):
    """The simulated strips, telling the page each time a frame is shown (the chase runs along them live)."""

    def __init__(self, inner: LedSink, shown: Callable[[], None]) -> None:
        self.inner, self.shown = inner, shown

    @property
    def strip_lengths(self) -> tuple[int, ...]:
        return self.inner.strip_lengths

    def show(self, frame: Sequence[Sequence[RGB]]) -> None:
        self.inner.show(frame)
        self.shown()

    def close(self) -> None:
        self.inner.close()


class PagePerson:
    """The walk's ``Person``: each question waits in the page until a key offered there is pressed."""

    def __init__(self, session: PracticeSession) -> None:
        self.session = session
        self.keys: queue.Queue[str] = queue.Queue()

    def tell(self, text: str) -> None:
        self.session.told = [*self.session.told, text][-TOLD:]
        self.session.notify()

    def ask(self, question: Ask) -> str:
        self.session.question = question
        self.session.notify()
        key = self.keys.get()
        self.session.question = None
        return key


class PracticeSession:
    """The page's session (``firmware_host.web.app.Session``): a simulated board, the walk, and the person's hands."""

    def __init__(self, board: Board, output: Path, *, seed: int = 1, settings: Settings = Settings(samples=1),
                 sensing: str = "presence", classes: dict[str, str] | None = None, plan: Path | None = None) -> None:
        """``sensing`` "analog" practises linear Hall sensors: the pieces' magnets are ``classes`` (piece code ->
        class), else those of the file being replaced or the board's example, else white north and black south.
        ``plan`` (a wiring file from ``board route -o``): the board is soldered as it says and the walk starts from
        it, as a real calibration from the generated file does: it confirms the plan."""
        self.board, self.output = board, Path(output)
        start = start_wiring(board, plan or self.output, classes)
        if plan:
            sensing = start.sensing
        if sensing == "analog" and not start.piece_classes:
            start.piece_classes = dict(DEFAULT_CLASSES)
        #: The pieces a hand may put down: one kind for presence sensors, each class's piece for analog ones.
        self.pieces = list(start.piece_classes) if sensing == "analog" else [PRESENCE_PIECE]
        self.piece = self.pieces[0]
        self.truth = copy.deepcopy(start) if plan else soldered_wiring(board, seed, sensing, start.piece_classes)
        self.mock = MockBoard(self.truth, seed=seed)
        self.person = PagePerson(self)
        self.question: Ask | None = None
        self.told: list[str] = []
        self.outcome: dict[str, Any] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event = asyncio.Event()
        leds = ShownLeds(self.mock.leds, self.notify)
        self.labels = id_labels(board)
        self.calibration = Calibration(board, self.mock.sensors, leds, self.person, self.output, start, settings)

    # -- the walk, in a thread of its own ----------------------------------------------------------

    async def run(self) -> None:
        """Walk the calibration until it writes the file or the person stops it; the page then shows the outcome."""
        loop = self._loop = asyncio.get_running_loop()
        done: asyncio.Future[dict[str, Any]] = loop.create_future()

        def finish(outcome: dict[str, Any]) -> None:
            if not done.done():
                done.set_result(outcome)

        def walk() -> None:
            try:
                outcome = self._finished(self.calibration.run())
            except CalibrationPaused as paused:
                outcome = {"stopped": str(paused)}
            except GameboardError as exc:
                outcome = {"stopped": str(exc)}
            except Exception as exc:  # a fault of the simulated board or the walk: said on the page, not lost
                outcome = {"stopped": f"the walk failed: {exc!r}"}
            try:
                loop.call_soon_threadsafe(finish, outcome)
            except RuntimeError:  # the page stopped serving (Ctrl-C) while the walk ended
                pass

        threading.Thread(target=walk, name="calibration practice", daemon=True).start()
        try:
            self.outcome = await done
        finally:
            self.person.keys.put(QUIT)  # a walk still waiting (the server stopping) ends
        self.notify()

    def _finished(self, result: Result) -> dict[str, Any]:
        """What the walk found, beside the soldering it could not see."""
        truth = self.truth.channel_of
        found = result.wiring.channel_of
        return {"path": str(result.path), "notes": result.notes, "problems": [p.message for p in result.problems],
                "channels_right": sum(found.get(loc) == channel for loc, channel in truth.items()),
                "leds_right": sum(result.wiring.leds.get(loc) == leds for loc, leds in self.truth.leds.items()),
                "places": len(self.board.locations)}

    # -- the page's side ------------------------------------------------------------------------

    def notify(self) -> None:
        """Tell the page the view changed (from the walk's thread as well as the server's)."""
        if self._loop is None:
            self._event.set()
            return
        try:
            self._loop.call_soon_threadsafe(self._event.set)
        except RuntimeError:  # the page stopped serving
            pass

    def changed(self) -> asyncio.Event:
        self._event = asyncio.Event()
        return self._event

    def act(self, action: dict[str, Any]) -> None:
        """``{"type": "key", "key": K}`` answers the question; ``{"type": "hand", "location": L}`` puts the piece
        in hand down on an empty place or lifts the one there; ``{"type": "piece", "piece": P}`` takes another kind
        of piece in hand (analog sensors: each class's)."""
        kind = action["type"]
        if kind == "key":
            question, key = self.question, action.get("key")
            if question is None or not isinstance(key, str) or key not in question.choices:
                offered = ", ".join(repr(k) for k in question.choices) if question else "none (nothing is asked)"
                raise GameboardError(f"{key!r} is not a key offered now; the keys: {offered}")
            self.person.keys.put(key)
            return
        if kind == "hand":
            location = action.get("location")
            if location not in self.board.locations:
                raise GameboardError(f"{location!r} is not a place of the {self.board.name} board")
            if location in self.mock.contents:
                self.mock.lift(location)
            else:
                self.mock.place(location, self.piece)
            self.notify()
            return
        if kind == "piece":
            piece = action.get("piece")
            if piece not in self.pieces:
                raise GameboardError(f"{piece!r} is not a piece of this practice; the pieces: {', '.join(self.pieces)}")
            self.piece = piece
            self.notify()
            return
        raise GameboardError(f"no action {kind!r} here: the practice page sends key, hand and piece")

    def view(self) -> dict[str, Any]:
        question = self.question
        lit = {}
        for location in self.truth.leds:
            colour = self.mock.leds.location_colour(location)
            if any(colour):
                lit[location] = colour
        colours = {piece: DISPLAY.get(piece, PIECE_COLOUR) for piece in self.pieces}
        overlay = Overlay(pieces=dict(self.mock.contents), leds=lit, piece_colours=colours)
        return {
            "board": self.board.title,
            "svg": svg(self.board, overlay, width=WIDTH).replace("</svg>", self.labels + "</svg>"),
            "question": None if question is None else {
                "phase": question.phase, "text": question.text, "done": question.done, "total": question.total,
                "locations": list(question.locations), "piece_class": question.piece_class,
                "choices": [{"key": key, "label": "Enter" if key == READ else key, "meaning": meaning}
                            for key, meaning in question.choices.items()]},
            "lit": sorted(lit),
            "pieces": self.pieces,
            "classes": dict(self.truth.piece_classes),
            "hand": self.piece,
            "told": self.told,
            "outcome": self.outcome,
        }
