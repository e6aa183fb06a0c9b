"""A person who has never read the rules: plays the simulator from the LEDs and the status line alone.

``LedPerson`` knows the LED legend (docs/daemon.md), reads the status line's words,
sees which lights blink and which pieces stand where, and has hands, the box of pieces
and the board's buttons.  It never asks the engine for a legal move: when the LEDs and
the status offer it nothing to do, the guidance has a gap and ``act`` raises ``Lost``.
Its choices are random among what is offered, under a seed.  Before confirming a move
the sensors cannot check, it looks whether the places hold what the status names, and
makes them so if not; lost in a move made piece by piece (a Pawns Crossing slide), it
puts the board back as it last saw it at rest and begins again.

It lives beside the simulator it plays, below the tests (tests/sim/test_led_guided.py) and the
benchmark (bench/guided.py) that both send it to play: neither may import the other.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field

from engine.core import stack_pieces
from firmware_host.presenter import PALETTE, css_colour
from firmware_host.sim import SimSession
from hal.clock import ManualClock

#: The legend as the person learnt it; a blinking green or orange is told apart by its blinking, and the
#: dice and fault flashes (which share colours with others) do not come up here.
NAMES = {css_colour(colour): name for name, colour in PALETTE.items()
         if not name.startswith(("todo_put", "todo_remove", "dice", "fault"))}
STEP = 0.05  # seconds between two steps of the loop
MAX_ACTIONS = 60  # actions in answer to one look at the board: more is a person going round in circles
MAX_IDLE = 40  # looks at the board without a move made: likewise
#: The lights that ask for something a move leaves to do, once they blink.
TO_DO = ("destination", "removal", "todo_flip", "todo_restack")


def _locations(text: str) -> list[str]:
    """"h2, h5 and h8" -> ["h2", "h5", "h8"]."""
    return re.split(r", | and ", text)


def _pieces(text: str) -> list[str]:
    """"a green and 2 red" -> ["green", "red", "red"]."""
    pieces = []
    for part in re.split(r", | and ", text):
        count, _, code = part.partition(" ")
        pieces += [code] * int(count) if count.isdigit() else [code if count in ("a", "an", "the") else part]
    return pieces


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
    actions: int = 0
    in_act: int = 0
    #: The moves made when the person last looked, and how many looks since one was made.
    made: int = 0
    idle: int = 0
    rng: random.Random = field(init=False)
    #: Pieces lifted this turn that turned out to have no move (pink): not lifted again until the board moves on.
    stuck: set[str] = field(default_factory=set)
    #: What the move under way should name (the piece put down, the place it came from),
    #: and how many times hint was pressed to find it among moves the sensors cannot tell apart.
    intent: list[str] = field(default_factory=list)
    hints: int = 0
    #: Pieces put aside while doing what the board asks, and where each was lifted from.
    aside: list[tuple[str, str | None]] = field(default_factory=list)
    #: Pieces taken off the board into the box during the move under way (a slide made by hand puts them
    #: down elsewhere).
    boxed: list[str] = field(default_factory=list)
    #: The board as the person last saw it at rest (nothing lifted, nothing in hand): where to start over.
    at_rest: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.settle()  # sitting down at the board: it has seen the pieces set up
        self.at_rest = dict(self.session.mock.contents)

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
        self.in_act += 1
        if self.in_act > MAX_ACTIONS:
            raise Lost(f"{MAX_ACTIONS} actions for one thing the board asks and it still asks: "
                       f"{self.session.daemon.status_text()!r}")
        self.session.act(action)
        self.run(0.1)

    def settle(self) -> None:
        """Hands off: let the board settle (a move is accepted after the settle time)."""
        self.run(self.session.daemon.loop.settle_ms / 1000 + 0.1)

    def act(self) -> bool:
        """One thing the LEDs or the status ask for, or one of the moves they offer; False once the game is over."""
        self.in_act = 0
        made = len(self.session.daemon.state.history)
        if made != self.made:  # a move was made: what this one needed is forgotten
            self.made, self.intent, self.hints, self.aside, self.boxed, self.idle = made, [], 0, [], [], 0
            self.stuck.clear()
        self.idle += 1
        if self.idle > MAX_IDLE:
            raise Lost(f"{MAX_IDLE} looks at the board and no move made: {self.session.daemon.status_text()!r}")
        sight = self.look()
        status = sight.status
        if status.startswith("game over") and not sight.blinking:
            return False
        hand = self.session.hand
        if not hand and not sight.where("lifted"):
            self.at_rest = dict(self.session.mock.contents)
        red, pink = sight.where("fix_from"), sight.where("fix_to")
        if pink and hand:  # put it back, or where it belongs
            if "no legal move takes the piece" in status:
                self.stuck.add(pink[0])
            self.do({"type": "click", "loc": pink[0]})
        elif red and not pink:
            self._clear(red[0])
        elif red:
            self.do({"type": "click", "loc": red[0]})
        elif pink:
            piece = re.search(r"place (\w+) on", status)
            self.do({"type": "take", "piece": piece.group(1) if piece else self._any_piece()})
        elif any(sight.lights[loc] in TO_DO for loc in sight.blinking):
            self._carry_out(status)
        elif sight.where("candidate", blinking=True) or sight.where("selected", blinking=True):
            self._confirm(status)
        elif hand and (greens := sight.where("destination")):
            self.intent = [word for word in (hand[-1].origin, hand[-1].piece) if word]
            self.do({"type": "click", "loc": self.rng.choice(greens)})
        elif hand and hand[-1].origin:  # lifted off a stack, and nothing lit up: put it back
            self.stuck.add(hand[-1].origin)
            self.do({"type": "click", "loc": hand[-1].origin})
        elif hand:
            raise Lost(f"a piece from the box in hand and nowhere lit to put it: {status!r}")
        else:
            self._choose(sight)
        self.settle()
        return True

    def _confirm(self, status: str) -> None:
        """Moves the sensors cannot tell apart blink: confirm the one the hand made, else look at the next (hint).

        Where the status says what places must hold for the move (a stack's pieces look
        alike to the sensors), the person looks at them: confirmed if they hold it; if
        no move offered is what is there, the board is made to hold what the one shown
        asks, and that one is confirmed.
        """
        choice = re.fullmatch(r"(?:(.+) \(the sensors cannot tell these pieces apart\), then )?"
                              r"press confirm for (.+?)(?: \(hint: (\d+) choices\))?", status)
        if choice is None:
            raise Lost(f"moves blink for confirm, and the status does not say which: {status!r}")
        holds, move, choices = choice.group(1), choice.group(2), int(choice.group(3) or 1)
        if holds:
            made = all(self._holds(location, _pieces(pieces))
                       for where, pieces in re.findall(r"make (.+?) hold (.+?)(?:; |$)", holds)
                       for location in _locations(where))
        else:
            made = all(word in move for word in self.intent)
        if not made and choices > 1 and self.hints < choices:
            self.hints += 1
            self.do({"type": "button", "name": "hint"})  # not what the hand did: the next one
        elif not made and holds:
            self.hints = 0
            self._carry_out(holds)  # the status names what the move needs there
        else:
            self.hints = 0
            self.do({"type": "button", "name": "confirm"})

    def _holds(self, location: str, pieces: list[str]) -> bool:
        return sorted(stack_pieces(self.session.mock.contents.get(location))) == sorted(pieces)

    def _choose(self, sight: Sight) -> None:
        """The board waits: one of the things the status offers, chosen at random."""
        status = sight.status
        offers = []
        placing = re.search(r"place an? ([\w ]+?) piece on", status)
        if placing and sight.where("destination"):
            offers.append(lambda: self._place(placing.group(1).split(" or "), sight.where("destination")))
        if "lit orange" in status and sight.where("removal"):
            offers.append(lambda: self._clear(self.rng.choice(sight.where("removal"))))
        if "put the piece on" in status and sight.where("destination") and self.boxed:  # taken off, to go there
            offers.append(lambda: self._place([self.boxed.pop()], sight.where("destination")))
        glowing = [loc for loc in sight.where("glow") if loc not in self.stuck]
        stacks = [loc for loc in glowing if len(stack_pieces(self.session.mock.contents.get(loc))) > 1]
        if "lift a glowing stack whole" in status and stacks:
            offers.append(lambda: self._lift_stack(self.rng.choice(stacks)))
        if "move a glowing piece" in status and glowing:
            offers.append(lambda: self.do({"type": "click", "loc": self.rng.choice(glowing)}))
        buttons = [lambda button=button: self.do({"type": "button", "name": button.replace(" ", "_")})
                   for button in re.findall(r"press ([a-z ]+?)(?: to \w+)?(?:,|$)", status)]
        if buttons and (not offers or self.rng.random() < 0.1):  # a person uses the roll before ending the turn
            offers = buttons
        named = status.partition(", or make ")[2] or status.partition(": make ")[2]
        kinds: dict[str, list[str]] = {}  # a person picks what to do (roll, slide a line), then which
        for name in re.findall(r'"([^"]+)"', named):
            kinds.setdefault(name.split()[0], []).append(name)
        for names in kinds.values():
            offers.append(lambda names=names: self.do({"type": "play", "text": self.rng.choice(names)}))
        if not offers and sight.where("lifted"):  # the lights want pieces the hands have not got
            offers.append(self._start_over)
        if not offers:
            if "roll the dice" in status:
                return  # the simulator rolls
            raise Lost(f"nothing lit and nothing said to do: {status!r}")
        self.rng.choice(offers)()

    def _start_over(self) -> None:
        """Lost in a move made piece by piece: the board put back as it was at rest, to begin again."""
        board = self.session.mock.contents
        for location in sorted(set(board) | set(self.at_rest)):
            if board.get(location) != self.at_rest.get(location):
                self._make_hold(location, stack_pieces(self.at_rest.get(location)))
        self.boxed = []

    def _place(self, pieces: list[str], places: list[str]) -> None:
        piece = self.rng.choice(pieces)
        self.intent = [piece]
        self.do({"type": "take", "piece": piece})
        self.do({"type": "click", "loc": self.rng.choice(places)})

    def _clear(self, location: str) -> None:
        """Take everything here off the board: a piece, or a whole stack (with empty hands: a click with a
        piece in hand would put it down)."""
        self._free_hands()
        if self.session.mock.contents.get(location) is None:
            return
        self.do({"type": "click", "loc": location})
        if self.session.view()["rest_of_stack"]:
            self.do({"type": "lift_rest"})
        while self.session.hand:
            self.boxed.append(self.session.hand[-1].piece)
            self.do({"type": "drop"})

    def _free_hands(self) -> None:
        """Put what is in hand aside (in the box, remembering where each came from)."""
        while self.session.hand:
            held = self.session.hand[-1]
            self.aside.append((held.piece, held.origin))
            self.do({"type": "drop"})

    def _carry_out(self, status: str) -> None:
        """Do what the status says a move leaves to do ("flip h2 to black; take the red off t3"), then confirm
        it where the sensors cannot see it done."""
        words = status.partition(" (confirm when done)")[0]
        if status.startswith("game over"):
            words = words.split("; ", 2)[2]
        for order in words.split("; "):
            if flip := re.fullmatch(r"flip (.+) to (\w+)", order):
                for location in _locations(flip.group(1)):
                    self._make_hold(location, [flip.group(2)])
            elif rest := re.fullmatch(r"put the rest back on (.+)", order):
                self._free_hands()
                for location in _locations(rest.group(1)):
                    back = [piece for piece, origin in self.aside if origin == location]
                    self.aside = [(piece, origin) for piece, origin in self.aside if origin != location]
                    self._make_hold(location, stack_pieces(self.session.mock.contents.get(location)) + back)
            elif change := re.fullmatch(r"(put|take|make) (.+?) (on|off|hold) (.+)", order):
                verb, first, _, last = change.groups()
                where, what = (first, last) if verb == "make" else (last, first)
                for location in _locations(where):
                    here = Counter(stack_pieces(self.session.mock.contents.get(location)))
                    pieces = Counter(_pieces(what))
                    target = pieces if verb == "make" else here + pieces if verb == "put" else here - pieces
                    if verb == "take" and pieces - here:  # not the pieces said: what is there comes off
                        target = Counter()
                    self._make_hold(location, sorted(target.elements()))
            else:
                raise Lost(f"cannot read what to do: {order!r}")
        if ("confirm when done" in status or status.startswith("game over")) \
                and "press confirm for" not in self.session.daemon.status_text():  # a move offered meanwhile: look
            self.do({"type": "button", "name": "confirm"})

    def _make_hold(self, location: str, pieces: list[str]) -> None:
        """Make ``location`` hold ``pieces``: a piece in hand goes there if one is asked for, else the box's."""
        here = stack_pieces(self.session.mock.contents.get(location))
        if sorted(here) == sorted(pieces):
            return
        hand = self.session.hand
        if not here and len(pieces) == 1 and hand and hand[-1].piece == pieces[0]:
            self.do({"type": "click", "loc": location})
            return
        self._clear(location)
        for piece in pieces:
            self.do({"type": "take", "piece": piece})
            self.do({"type": "click", "loc": location})

    def _lift_stack(self, location: str) -> None:
        self.do({"type": "click", "loc": location})
        self.do({"type": "lift_rest"})

    def _any_piece(self) -> str:
        return next(iter(self.session.daemon.state.game.pieces))

    def play(self, limit: int) -> int:
        """Act until the game is over or ``limit`` moves are made; the number of moves made."""
        history = self.session.daemon.state.history
        while len(history) < limit and self.act():
            pass
        return len(history)
