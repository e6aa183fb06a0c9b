"""A scripted person for the calibration tests, and a board soldered in an unknown order.

The person acts on the mock board the way someone at a real board would: reads the
question, looks at which LEDs are lit, puts pieces down and presses a key.  Mistakes
are scripted per location as a list of actions used up in order; once a location's
list is used up the person does the right thing.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.boards import load_board
from hal.mock import MockBoard
from firmware_host.calibration.questions import CARRY_ON, MOVE, QUIT, READ, SKIP, YES, Ask
from wiring.model import ChannelCalibration, ClassBand, Wiring, straight_wiring

#: Where the tests' analog pieces come from: piece code -> magnet class.
CLASSES = {"black": "north", "white": "south"}


def scrambled_wiring(board_name: str, *, seed: int = 1, spare_channels: int = 0, strips: int = 2,
                     sensing: str = "presence", piece_classes: dict[str, str] | None = None) -> Wiring:
    """The board soldered in a random order: channels shuffled (with spares), LEDs over several strips."""
    board = load_board(board_name)
    names = list(board.locations)
    rng = random.Random(seed)
    channels = rng.sample(range(len(names) + spare_channels), len(names))
    led_order = rng.sample(range(len(names)), len(names))
    base, extra = divmod(len(names), strips)
    lengths = [base + (1 if strip < extra else 0) for strip in range(strips)]
    starts = [sum(lengths[:strip]) for strip in range(strips)]
    leds = {}
    for name, position in zip(names, led_order):
        strip = max(s for s in range(strips) if starts[s] <= position)
        leds[name] = ((strip, position - starts[strip]),)
    wiring = Wiring(board=board_name, sensing=sensing, channels=dict(zip(channels, names)), leds=leds,
                    strip_lengths=tuple(lengths), piece_classes=dict(piece_classes or {}),
                    sensor_channels=len(names) + spare_channels)
    if sensing == "analog":  # the mock reads its magnet model; these only make the file pass the check
        bands = tuple(ClassBand(name, 600.0 + 100 * n, 650.0 + 100 * n) for n, name in enumerate(wiring.classes))
        wiring.calibration = {channel: ChannelCalibration(512.0, bands) for channel in wiring.channels}
    return wiring


def starting_wiring(board_name: str, truth: Wiring) -> Wiring:
    """What the tool starts from: the board's plain order, and the piece classes (not the soldering)."""
    return straight_wiring(load_board(board_name), truth.sensing, truth.piece_classes)


Action = str | Callable[[MockBoard], str]


class ScriptedPerson:
    """Answers the calibration on a mock board; ``mistakes[location]`` lists actions to use up first.

    Actions: ``"wrong LOC"`` (put the piece on LOC and press Enter), ``"none"`` (press
    Enter with no piece down), ``"skip"``, ``"move"``, ``"quit"``, ``"interrupt"``
    (Ctrl-C), or a callable that handles the board and returns the key.
    """

    def __init__(self, mock: MockBoard, mistakes: dict[str, list[Action]] | None = None,
                 on_empty: str = READ, stop_after: int | None = None) -> None:
        self.mock = mock
        self.truth = mock.wiring
        self.mistakes = {key: list(actions) for key, actions in (mistakes or {}).items()}
        self.on_empty = on_empty
        self.stop_after = stop_after
        self.told: list[str] = []
        self.asked: list[Ask] = []

    def tell(self, text: str) -> None:
        self.told.append(text)

    def ask(self, question: Ask) -> str:
        self.asked.append(question)
        if self.stop_after is not None and len(self.asked) > self.stop_after:
            raise KeyboardInterrupt
        return getattr(self, f"_{question.phase}")(question)

    def piece(self, piece_class: str | None) -> str:
        """A piece of the asked class (any piece when the sensors cannot tell)."""
        return next((code for code, cls in self.truth.piece_classes.items() if cls == piece_class), "black")

    def lit(self) -> list[str]:
        """The locations a person sees lit, through the board's true LEDs."""
        frame = self.mock.leds.frame
        return [loc for loc, leds in self.truth.leds.items() if any(frame[s][i] != (0, 0, 0) for s, i in leds)]

    def _empty(self, question: Ask) -> str:
        self.mock.set_contents({})
        return CARRY_ON if CARRY_ON in question.choices else self.on_empty

    def _sensors(self, question: Ask) -> str:
        target = question.locations[0]
        piece = self.piece(question.piece_class)
        script = self.mistakes.get(target)
        action = script.pop(0) if script else f"wrong {target}"
        if callable(action):
            return action(self.mock)
        if action.startswith("wrong "):
            self.mock.set_contents({action.split()[1]: piece})
            return READ
        if action == "none":
            self.mock.set_contents({})
            return READ
        if action == "interrupt":
            raise KeyboardInterrupt
        return {"skip": SKIP, "move": MOVE, "quit": QUIT}[action]

    def _leds(self, question: Ask) -> str:
        lit = self.lit()
        if not lit or (self.asked[-2:-1] == [question] and self.told[-1].startswith("No channel sees a piece")):
            return SKIP
        self.mock.set_contents({lit[0]: "black"})
        return READ

    def _chase(self, question: Ask) -> str:
        return YES

    def _classes(self, question: Ask) -> str:
        piece = self.piece(question.piece_class)
        self.mock.set_contents({loc: piece for loc in self.lit()})
        return READ
