"""A person who has never read the rules: plays the simulator from the LEDs and the status line alone.

``LedPerson`` knows the LED legend (docs/daemon.md), reads the status line's words,
sees which lights blink, and has hands, the box of pieces and the board's buttons.  It
never asks the engine for a legal move: when the LEDs and the status offer it nothing
to do, the guidance has a gap and ``act`` raises ``Lost``.  Its choices are random
among what is offered, under a seed.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from firmware_host.presenter import PALETTE, css_colour
from firmware_host.sim import SimSession
from hal.clock import ManualClock

#: The legend as the person learnt it; a blinking green or orange is told apart by its blinking, and the
#: dice and fault flashes (which share colours with others) do not come up here.
NAMES = {css_colour(colour): name for name, colour in PALETTE.items()
         if not name.startswith(("todo_put", "todo_remove", "dice", "fault"))}
STEP = 0.025  # seconds between two steps of the loop


class Lost(AssertionError):
    """The LEDs and the status leave the person with nothing to do."""


@dataclass
class Sight:
    """What the person sees at one moment: each lit place's meaning, and which of them blink."""

    lights: dict[str, str]
    blinking: set[str]
    status: str

    def where(self, name: str, blinking: bool | None = None) -> list[str]:
        return sorted(loc for loc, light in self.lights.items() if light == name
                      and (blinking is None or (loc in self.blinking) == blinking))


@dataclass
class LedPerson:
    session: SimSession
    clock: ManualClock
    seed: int = 0
    trace: bool = False
    actions: int = 0
    rng: random.Random = field(init=False)
    #: Pieces lifted this turn that turned out to have no move (pink): not lifted again until the board moves on.
    stuck: set[str] = field(default_factory=set)
    #: The piece last taken from the box, and how many times hint was pressed to find its move.
    placed: str = ""
    hints: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.settle()  # sitting down at the board: it has seen the pieces set up

    # -- seeing and waiting ---------------------------------------------------------------

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / STEP)):
            self.clock.advance(STEP)
            self.session.step()

    def look(self) -> Sight:
        """Watch the board for one blink period: what is lit, what blinks, and the status."""
        blink = self.session.daemon.loop.blink_ms / 1000
        seen: list[dict[str, str]] = []
        for _ in range(4):  # half a period apart: both phases of a blink are seen
            snapshot = self.session.daemon.snapshot()
            seen.append({loc: NAMES.get(colour, "glow") for loc, colour in snapshot["leds"].items()})
            self.run(blink / 2)
        lights = {loc: light for sample in seen for loc, light in sample.items()}
        blinking = {loc for loc in lights if len({sample.get(loc) for sample in seen}) > 1}
        return Sight(lights, blinking, self.session.daemon.snapshot()["status_text"])

    # -- acting -------------------------------------------------------------------------

    def do(self, action: dict) -> None:
        self.actions += 1
        if self.trace:
            print("   ", action, "|", self.session.daemon.status_text())
        self.session.act(action)
        self.run(0.1)

    def settle(self) -> None:
        """Hands off: let the board settle (a move is accepted after the settle time)."""
        self.run(self.session.daemon.loop.settle_ms / 1000 + 0.1)

    def act(self) -> bool:
        """One thing the LEDs or the status ask for, or one of the moves they offer; False once the game is over."""
        sight = self.look()
        status = sight.status
        if self.trace:
            print(f"{status!r} lit={sight.lights} blinking={sorted(sight.blinking)} hand={self.session.hand}")
        if status.startswith("game over") and not sight.blinking:
            return False
        hand = self.session.hand
        red, pink = sight.where("fix_from"), sight.where("fix_to")
        if pink and hand:  # put it back, or where it belongs
            if "no legal move takes the piece" in status:
                self.stuck.add(pink[0])
            self.do({"type": "click", "loc": pink[0]})
        elif red:
            self.do({"type": "click", "loc": red[0]})
            if not pink:
                self.do({"type": "drop"})
        elif pink:
            piece = re.search(r"place (\w+) on", status)
            self.do({"type": "take", "piece": piece.group(1) if piece else self._any_piece()})
        elif flips := sight.where("todo_flip", blinking=True):
            colour = re.search(r"flip [\w, ]+ to (\w+)", status).group(1)
            for loc in flips:
                if self.session.mock.contents.get(loc) != colour:
                    self.do({"type": "flip", "loc": loc})
            if "confirm when done" in status or status.startswith("game over"):
                self.do({"type": "button", "name": "confirm"})
        elif puts := sight.where("destination", blinking=True):
            if not hand:
                self.do({"type": "take", "piece": re.search(r"put an? (\w+) on", status).group(1)})
            self.do({"type": "click", "loc": puts[0]})
        elif removals := sight.where("removal", blinking=True):
            self.do({"type": "click", "loc": removals[0]})
            self.do({"type": "drop"})
        elif sight.where("candidate", blinking=True) or sight.where("selected", blinking=True):
            choice = re.search(r"press confirm for (.+?)(?: \(hint: (\d+) choices\))?$", status)
            if choice and choice.group(2) and self.placed and self.placed not in choice.group(1) \
                    and self.hints < int(choice.group(2)):
                self.hints += 1
                self.do({"type": "button", "name": "hint"})  # not what the hand did: the next one
            else:
                self.hints = 0
                self.do({"type": "button", "name": "confirm"})
        elif hand and (greens := sight.where("destination")):
            self.do({"type": "click", "loc": self.rng.choice(greens)})
        elif hand:
            raise Lost(f"a piece in hand and nowhere lit to put it: {status!r}")
        else:
            self._choose(sight)
        self.settle()
        return True

    def _choose(self, sight: Sight) -> None:
        """The board waits: one of the things the status offers, chosen at random."""
        status = sight.status
        offers = []
        placing = re.search(r"place an? ([\w ]+?) piece on", status)
        if placing and sight.where("destination"):
            offers.append(lambda: self._place(placing.group(1).split(" or "), sight.where("destination")))
        if "lit orange" in status and sight.where("removal"):
            offers.append(lambda: self._take_off(sight.where("removal")))
        glowing = [loc for loc in sight.where("glow") if loc not in self.stuck]
        if "move a glowing piece" in status and glowing:
            offers.append(lambda: self.do({"type": "click", "loc": self.rng.choice(glowing)}))
        buttons = [lambda button=button: self.do({"type": "button", "name": button.replace(" ", "_")})
                   for button in re.findall(r"press ([a-z ]+?)(?: to \w+)?(?:,|$)", status)]
        if buttons and (not offers or self.rng.random() < 0.1):  # a person uses the roll before ending the turn
            offers = buttons
        named = status.partition(", or make ")[2] or status.partition(": make ")[2]
        for name in re.findall(r'"([^"]+)"', named):
            offers.append(lambda name=name: self.do({"type": "play", "text": name}))
        if not offers:
            if "roll the dice" in status:
                return  # the simulator rolls
            raise Lost(f"nothing lit and nothing said to do: {status!r}")
        self.rng.choice(offers)()

    def _place(self, pieces: list[str], places: list[str]) -> None:
        self.placed = self.rng.choice(pieces)
        self.do({"type": "take", "piece": self.placed})
        self.do({"type": "click", "loc": self.rng.choice(places)})

    def _take_off(self, pieces: list[str]) -> None:
        self.do({"type": "click", "loc": self.rng.choice(pieces)})
        self.do({"type": "drop"})

    def _any_piece(self) -> str:
        return next(iter(self.session.daemon.state.game.pieces))

    def play(self, limit: int) -> int:
        """Act until the game is over or ``limit`` moves are made; the number of moves made."""
        daemon = self.session.daemon
        while daemon.snapshot()["history"].__len__() < limit:
            before = len(daemon.state.history)
            if not self.act():
                break
            if len(daemon.state.history) != before:
                self.stuck.clear()
        return len(daemon.state.history)
