"""The LED presenter: what the tracker and the game say, as one colour per LED within a current budget.

Each location gets at most one colour, chosen by priority (a fix or a dead end beats a
candidate beats what is left to do beats a move decided elsewhere (the computer's, a hint)
beats a lifted piece beats a destination beats the whose-turn glow beats the last move: the
piece just moved glows if it can move again).  A
fault flashes every LED in its colour, alternating with that picture: a board that
cannot see (amber), a journal that cannot be written (red).  The frame is then dimmed by
the brightness setting and, if the strips would still draw more than the budget (a
full-white WS2812 draws about 60 mA, 20 mA per colour channel), scaled down so that it
never does; a lit LED is never dimmed below ``MIN_VISIBLE`` on its brightest channel,
unless the budget cannot hold even that.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from firmware_host.decided import Guide
from firmware_host.todo import Todo
from firmware_host.tracker import Status, TrackerView
from hal.base import RGB
from wiring.model import Wiring


@dataclass(frozen=True)
class Light:
    """One LED state: its colour, whether it blinks, and what it tells a person."""

    colour: RGB
    meaning: str
    blinks: bool = False


#: Every LED state but the whose-turn glow (per player: ``indicator``); docs/daemon.md and the page show the same.
#: No two lit together are closer than 15 CIEDE2000 to normal eyes or to a dichromat (Machado 2009); those of one
#: colour are told apart by the status line (tests/daemon/test_colour_vision.py, firmware_host/lit_together.py).
LIGHTS: dict[str, Light] = {
    "destination": Light((106, 255, 184), "a piece may go here: where the lifted piece can end or, with nothing "
                                          "lifted, where a piece from the box may be placed"),
    "removal": Light((226, 167, 51), "a piece that may be taken off, or that the move under way (or the one "
                                     "shown to make) takes off"),
    "lifted": Light((8, 16, 231), "the lifted piece came from here"),
    "last_move": Light((202, 160, 255), "the last accepted move"),
    "todo_put": Light((106, 255, 184), "put a piece here: the move needs it (the status says which)", True),
    "todo_remove": Light((226, 167, 51), "take this piece off: the move needs it", True),
    "todo_flip": Light((22, 180, 167), "turn this piece over (or change it as the status says)", True),
    "todo_restack": Light((22, 180, 167), "change the stack here as the status says", True),
    "carry_from": Light((204, 5, 252), "the computer's (or a remote player's) move: lift this piece (the status "
                                       "says the move)", True),
    "carry_to": Light((229, 255, 255), "the computer's (or a remote player's) move: put the piece here", True),
    "carry_path": Light((23, 123, 141), "the computer's (or a remote player's) move: the bridge the piece passes over"),
    "hint": Light((229, 255, 255), "hint: the best move found: lift the piece lit white and put it on the other"),
    "hint_path": Light((177, 103, 101), "hint: the bridge the piece passes over"),
    "candidate": Light((255, 255, 0), "moves the sensors cannot tell apart: hint steps through them", True),
    "selected": Light((216, 226, 255), "the move confirm will make, with the places whose pieces the status "
                                       "names", True),
    "fix_from": Light((154, 38, 46), "wrong: take the piece off here"),
    "fix_to": Light((252, 61, 130), "put one here (a red and the nearest pink: move that piece there); "
                                    "a lifted piece that cannot move: put it back"),
    "dice_first": Light((255, 242, 205), "the first die: one LED per pip"),
    "dice_second": Light((119, 144, 255), "the second die: one LED per pip"),
    "fault_sensors": Light((255, 90, 0), "the board cannot see: the whole board flashes, the usual picture between",
                           True),
    "fault_journal": Light((255, 0, 0), "the journal cannot be written: the whole board flashes, the usual "
                                        "picture between", True),
    "fault_remote": Light((170, 0, 255), "the remote game cannot go on (the broker holds another game under its "
                                         "id): the whole board flashes, the usual picture between", True),
}
PALETTE: dict[str, RGB] = {name: light.colour for name, light in LIGHTS.items()}
#: The whose-turn glow's name among the meanings (its colour is the mover's, per game: ``indicator``).
TURN = "turn"
TURN_GLOW = 0.25  # the whose-turn glow: the mover's indicator colour at this fraction
#: The least a lit LED shows on its brightest channel: a WS2812's lower PWM steps are
#: hard to see in a lit room through a wooden board (1-4 of 255 read as off).
MIN_VISIBLE = 16
#: Indicator colours for pieces whose own colour a strip cannot show (black is off, white reads as any light).
INDICATORS: dict[str, RGB] = {"black": (141, 108, 251), "white": (196, 177, 66)}


@dataclass(frozen=True)
class Scene:
    """Everything the LEDs show at one moment."""

    view: TrackerView
    last_move: frozenset[str] = frozenset()
    turn_locations: frozenset[str] = frozenset()
    turn_colour: RGB = (0, 0, 0)
    dice: str = ""
    blink_on: bool = True
    #: A fault to flash over the whole board now ("sensors", "journal", "remote"), or "".
    fault: str = ""
    #: What the last move left to do that the sensors cannot see (a flip under reed switches).
    todo: tuple[Todo, ...] = ()
    #: A move decided elsewhere to carry out (the computer's), or a hint.
    guide: Guide | None = None
    hint: bool = False


def hex_colour(text: str) -> RGB:
    """'#c62828' -> (198, 40, 40)."""
    value = text.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def css_colour(colour: RGB) -> str:
    """(198, 40, 40) -> '#c62828'."""
    return "#{:02x}{:02x}{:02x}".format(*colour)


def indicator(piece: str, display: str) -> RGB:
    """The LED colour that stands for a player's pieces: ``INDICATORS``, else the display colour at full strength."""
    if piece in INDICATORS:
        return INDICATORS[piece]
    colour = hex_colour(display)
    top = max(colour)
    return tuple(round(c * 255 / top) for c in colour) if top else INDICATORS["black"]  # type: ignore[return-value]


def legend(pieces: Mapping[str, str], occurring: Collection[str]) -> list[dict[str, object]]:
    """The LED states a game whose pieces are ``pieces`` (code -> display colour) can show, JSON-ready: those
    ``occurring`` names (``game_facts.lights_that_occur``), the whose-turn glows as ``turn_CODE``."""
    glows = [{"name": f"turn_{code}", "colour": css_colour(indicator(code, display)), "blinks": False,
              "meaning": f"whose turn: the {code} pieces that can move glow dim while the board waits "
                         "(all of them on a turn where none moves)"}
             for code, display in pieces.items() if f"turn_{code}" in occurring]
    return glows + [{"name": name, "colour": css_colour(light.colour), "blinks": light.blinks,
                     "meaning": light.meaning} for name, light in LIGHTS.items() if name in occurring]


class Presenter:
    """Builds LED frames from scenes for one wiring."""

    def __init__(self, wiring: Wiring, brightness: float, budget_ma: float, ma_per_led: float,
                 dice_locations: Iterable[str] = ()) -> None:
        self.strip_lengths = tuple(wiring.strip_lengths)
        self.leds = {location: leds for location, leds in wiring.leds.items() if leds}
        self.brightness = brightness
        self.budget_ma = budget_ma
        self.ma_per_unit = ma_per_led / (3 * 255)  # one colour channel at 255 draws a third of a full LED
        self.dice_locations = tuple(dice_locations)

    def colours(self, scene: Scene) -> dict[str, RGB]:
        """Location -> colour, before brightness and budget."""
        glow = tuple(int(c * TURN_GLOW) for c in scene.turn_colour)
        return {location: glow if meaning == TURN else PALETTE[meaning]  # type: ignore[misc]
                for location, meaning in self.meanings(scene).items()}

    def meanings(self, scene: Scene) -> dict[str, str]:
        """Location -> the ``LIGHTS`` name it shows (``TURN`` for the whose-turn glow): a fault on every LED."""
        if scene.fault:
            return dict.fromkeys(self.leds, f"fault_{scene.fault}")
        return meanings(scene, self.dice_locations)

    def frame(self, colours: Mapping[str, RGB]) -> tuple[list[list[RGB]], float]:
        """The frame for the strips and the current it draws (mA), never above the budget.

        The scale starts at the brightness and shrinks until the frame fits the budget,
        the LEDs held at ``MIN_VISIBLE`` counted at what they draw there; if those alone
        exceed the budget, the whole frame is scaled without the floor.
        """
        lit = {location: colour for location, colour in colours.items() if any(colour) and location in self.leds}
        counts = {location: len(self.leds[location]) for location in lit}
        scale, floor = self.brightness, MIN_VISIBLE
        for _ in range(8):
            dimmed = {location: _dim(colour, scale, floor) for location, colour in lit.items()}
            current = sum(sum(colour) * counts[location] for location, colour in dimmed.items()) * self.ma_per_unit
            if current <= self.budget_ma:
                break
            held = sum(sum(colour) * counts[location] for location, colour in dimmed.items()
                       if max(lit[location]) * scale < floor) * self.ma_per_unit
            if held >= self.budget_ma:
                floor = 0  # the budget cannot light them all visibly: it wins
                continue
            scale *= (self.budget_ma - held) / (current - held) * (1 - 1e-9)  # the margin absorbs rounding
        else:
            total = sum(sum(colour) * counts[location] for location, colour in lit.items()) * self.ma_per_unit
            scale, floor = min(self.brightness, self.budget_ma / total * (1 - 1e-9)), 0
            dimmed = {location: _dim(colour, scale, floor) for location, colour in lit.items()}
        strips: list[list[RGB]] = [[(0, 0, 0)] * length for length in self.strip_lengths]
        drawn = 0
        for location, colour in dimmed.items():
            for strip, index in self.leds[location]:
                strips[strip][index] = colour
                drawn += sum(colour)
        return strips, drawn * self.ma_per_unit


def meanings(scene: Scene, dice_locations: Sequence[str] = ()) -> dict[str, str]:
    """Location -> the ``LIGHTS`` name it shows (``TURN`` for the whose-turn glow), by priority; faults aside."""
    view = scene.view
    lit: dict[str, str] = {}
    if view.status is Status.READY:
        lit.update(dict.fromkeys(scene.last_move, "last_move"))
        lit.update(dict.fromkeys(scene.turn_locations, TURN))
    lit.update(dict.fromkeys(view.removals, "removal"))
    lit.update(dict.fromkeys(view.destinations, "destination"))
    lit.update(dict.fromkeys(view.lifted, "lifted"))
    if scene.guide is not None and view.status in (Status.READY, Status.MOVING):
        lit.update(_guide(scene.guide, scene.hint, scene.blink_on, view.status is Status.READY))
    if view.status is Status.SETTLING:
        lit.update(dict.fromkeys((loc for loc, _ in view.candidates[0].reading), "destination"))
    if view.status is Status.CONFIRM and scene.blink_on:
        for index, plan in enumerate(view.candidates):
            if index != view.selected:
                lit.update(dict.fromkeys(plan.locations, "candidate"))
        selected = view.candidates[view.selected]  # with the places the status names (a stack touched)
        lit.update(dict.fromkeys(selected.locations | {todo.location for todo in selected.unsure}, "selected"))
    for todo in (*view.todo, *scene.todo):
        if scene.blink_on:
            lit[todo.location] = f"todo_{todo.kind}"
        else:
            lit.pop(todo.location, None)
    lit.update(dict.fromkeys(view.dead_ends, "fix_to"))
    for fix in view.fixes:
        if fix.source:
            lit[fix.source] = "fix_from"
        if fix.target:
            lit[fix.target] = "fix_to"
    lit.update(_dice(scene.dice, dice_locations))
    return lit


def _guide(guide: Guide, hint: bool, blink_on: bool, waiting: bool) -> dict[str, str]:
    """A move to carry out: its bridge, and while the board waits the piece to lift and where it goes
    (blinking; a hint steady, in its own colour), the pieces it takes off and those it turns over."""
    lit = dict.fromkeys(guide.path, "hint_path" if hint else "carry_path")
    if waiting and (hint or blink_on):
        lit.update(dict.fromkeys(guide.lift, "hint" if hint else "carry_from"))
        lit.update(dict.fromkeys(guide.put, "hint" if hint else "carry_to"))
        lit.update(dict.fromkeys(guide.remove, "removal"))
        lit.update(dict.fromkeys(guide.flip, "todo_flip"))
    return lit


def _dice(roll: str, dice_locations: Sequence[str]) -> dict[str, str]:
    """Each die's pips as that many dice LEDs in a row, in the first die's colour and the second's by turns."""
    lit: dict[str, str] = {}
    slots = iter(dice_locations)
    for index, pips in enumerate(int(n) for n in re.findall(r"\d+", roll)):
        meaning = "dice_first" if index % 2 == 0 else "dice_second"
        for _, location in zip(range(pips), slots):
            lit[location] = meaning
    return lit


def _dim(colour: RGB, scale: float, floor: int) -> RGB:
    """``colour`` scaled, its brightest channel raised to ``floor`` if it fell below (the hue kept)."""
    top = max(colour)
    if top * scale < floor:
        scale = floor / top
    r, g, b = colour
    return int(r * scale + 1e-9), int(g * scale + 1e-9), int(b * scale + 1e-9)
