"""Which LED meanings a game can show at once: derived from the presenter's own rules, for the colour check.

The presenter lights each field of the tracker's view, the todo list, the guide (a move
to carry out, or a hint), the last move, the whose-turn glow and the dice by rules that
depend on the tracker's status, on whether a guide is a hint, and on the blink's phase.
``lit_together`` runs ``presenter.meanings`` itself on one scene per such case in which
every field the tracker can fill in that status is filled, each on places of its own (so
no priority hides one), and collects the meanings each frame shows.  While a move decided
elsewhere waits, the tracker expects that move only, so what it offers lies on the move's
own places.  The dice LEDs stand apart from the places: a die pairs only with the other
die.  A game's facts
(``LightFacts``) leave out what it cannot show: the glows of pieces it does not have,
the dice of a game without chance, the bridges of a game whose moves pass over none.
What cannot be told from the game's class (whether it takes pieces off, which changes
its moves leave to do by hand) is counted as possible: the pairs are a superset of
what play lights, which bench/colour_pairs.py checks over random games on the mock board.
``closest`` says how far apart the colours of each pair look (``colour_vision``), and
``lights_in`` which lights a game's legend needs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from engine.core import Game, State
from firmware_host.colour_vision import SIMULATIONS, distance, seen_dimmed
from firmware_host.decided import Guide
from firmware_host.expectation import Plan
from firmware_host.fixes import Fix
from firmware_host.presenter import LIGHTS, TURN, TURN_GLOW, Scene, indicator, meanings
from firmware_host.todo import KINDS, Todo
from firmware_host.tracker import Status, TrackerView
from hal.base import RGB

#: What the tracker's view holds in each status (``MoveTracker._classify`` and the views it builds).
VIEW_FIELDS: dict[Status, tuple[str, ...]] = {
    Status.READY: ("destinations", "removals"),
    Status.MOVING: ("lifted", "destinations", "removals", "todo"),
    Status.SETTLING: ("candidates",),
    Status.CONFIRM: ("candidates",),
    Status.UNMATCHED: ("lifted", "dead_ends", "fixes"),
    Status.OUT_OF_SYNC: ("fixes",),
    Status.RESTORING: ("fixes",),
}
#: Two dice showing six each: every dice LED lit.
_DICE_SLOTS = tuple(f"die{n}" for n in range(12))


@dataclass(frozen=True)
class LightFacts:
    """What a game can show on its LEDs beyond what every game can."""

    #: The players' piece codes: each has its whose-turn glow, ``turn_CODE``.
    pieces: tuple[str, ...]
    #: The game rolls dice (chance moves): the dice LEDs light.
    dice: bool
    #: Its moves pass over bridges: the guide lights the bridge.
    bridges: bool

    #: Each piece code's display colour (its glow's colour comes from it: ``presenter.indicator``).
    displays: tuple[str, ...] = ()

    @classmethod
    def of(cls, game: Game) -> LightFacts:
        state = type(game.new_initial_state())
        return cls(tuple(game.pieces), dice=state.chance_outcomes is not State.chance_outcomes,
                   bridges=state.passes_over is not State.passes_over, displays=tuple(game.pieces.values()))


def _places(prefix: str, count: int = 2) -> frozenset[str]:
    return frozenset(f"{prefix}{n}" for n in range(count))


def _view(status: Status, guide: Guide | None = None) -> TrackerView:
    """A view of ``status`` with every field it can hold filled, each on places of its own; while a move decided
    elsewhere is carried out the tracker expects that move only, so what it offers lies on the move's places."""
    fields = VIEW_FIELDS[status]
    plans = (Plan(None, None, frozenset({("chosen", None)}), _places("chosen")),  # type: ignore[arg-type]
             Plan(None, None, frozenset({("other", None)}), _places("other")))  # type: ignore[arg-type]
    return TrackerView(
        status,
        lifted=_places("lifted") if "lifted" in fields else frozenset(),
        destinations=(guide.put if guide else _places("destination")) if "destinations" in fields else frozenset(),
        removals=(guide.remove if guide else _places("removal")) if "removals" in fields else frozenset(),
        candidates=plans if "candidates" in fields else (),
        fixes=(Fix("from", "to", "x"),) if "fixes" in fields else (),
        todo=tuple(Todo(kind, f"todo_{kind}", ()) for kind in KINDS) if "todo" in fields else (),
        dead_ends=_places("dead") if "dead_ends" in fields else frozenset())


def _scenes(facts: LightFacts) -> Iterator[Scene]:
    """A scene for every case the presenter tells apart: status, guide (none, a move to carry out, a hint),
    blink phase; with the last move, the glow, what is left to do and the dice all there."""
    guide = Guide(None, lift=_places("lift"), put=_places("put"),  # type: ignore[arg-type]
                  path=tuple(_places("bridge")) if facts.bridges else (),
                  remove=_places("take"), flip=_places("flip"))
    left = tuple(Todo(kind, f"left_{kind}", ()) for kind in KINDS)
    for status in Status:
        for shown, hint in ((None, False), (guide, False), (guide, True)):
            view = _view(status, None if hint else shown)
            for blink_on in (True, False):
                yield Scene(view, last_move=_places("last"), turn_locations=_places("glow"), turn_colour=(1, 1, 1),
                            dice="6+6" if facts.dice else "", blink_on=blink_on, todo=left, guide=shown, hint=hint)


def frames(facts: LightFacts) -> set[frozenset[str]]:
    """Every set of meanings the game can show in one frame (at most: a frame shows a subset of one of them),
    the glow named per player (``turn_CODE``)."""
    found: set[frozenset[str]] = set()
    for scene in _scenes(facts):
        shown = set(meanings(scene, _DICE_SLOTS).values())
        if TURN in shown:
            shown.discard(TURN)
            found.update(frozenset(shown | {f"turn_{code}"}) for code in facts.pieces)
        else:
            found.add(frozenset(shown))
    return found


def lit_together(facts: LightFacts) -> set[frozenset[str]]:
    """Every pair of meanings the game can show in one frame that a person could take one for the other: the dice
    LEDs stand apart from the places and show nothing else, so a die pairs only with the other die."""
    return {frozenset(pair) for frame in frames(facts) for pair in combinations(sorted(frame), 2)
            if sum(name.startswith("dice_") for name in pair) != 1}


def lights_in(facts: LightFacts) -> set[str]:
    """Every meaning the game can show (the fault flashes aside), for its legend."""
    return set().union(*frames(facts))


def looks(facts: LightFacts) -> dict[str, tuple[RGB, bool]]:
    """Each meaning the game can show -> its colour as the eye sees it, and whether it blinks: the glow is its
    player's indicator colour driven at ``TURN_GLOW``."""
    shown = {name: (light.colour, light.blinks) for name, light in LIGHTS.items()}
    for code, display in zip(facts.pieces, facts.displays):
        shown[f"turn_{code}"] = (seen_dimmed(indicator(code, display), TURN_GLOW), False)
    return shown


def told_apart_by_status(first: tuple[RGB, bool], second: tuple[RGB, bool]) -> bool:
    """Two lights of one colour: the status line tells them apart (what it asks for in words: "put a red on h4",
    "flip h2 to black"), the blinking too where one blinks."""
    return first[0] == second[0]


def closest(facts: LightFacts) -> list[tuple[float, str, str, str]]:
    """(distance, simulation, meaning, meaning) for every pair lit together in another colour, closest first."""
    shown = looks(facts)
    found = []
    for pair in lit_together(facts):
        first, second = sorted(pair)
        if told_apart_by_status(shown[first], shown[second]):
            continue
        for simulation in SIMULATIONS:
            found.append((distance(shown[first][0], shown[second][0], simulation), simulation, first, second))
    return sorted(found)
