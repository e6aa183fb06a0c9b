"""The simulator: the real daemon on the mock board, played by clicks instead of hands.

A ``SimSession`` owns a ``MockBoard`` (the physical board), the ``Daemon`` that
watches it, and the person's hands: clicking a piece lifts it, clicking a place puts
the most recently lifted piece (that did not come from there) down, as on the
wooden board; a tile (Pawns Crossing's) holds pieces side by side, so a click there
with a piece in hand puts it beside them.  What each click would do is in the view,
for the page to show before it happens.  Nothing here tells the daemon what was
meant: it sees only the sensors, exactly as on a Pi.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.ai.levels import LEVELS
from engine.catalogue import describe_games
from engine.core import STACK, Game, stack_pieces
from engine.registry import game_class
from firmware_host.config import Hal, LoopConfig
from firmware_host import words
from firmware_host.daemon import Daemon
from firmware_host.game_facts import game_facts
from firmware_host.journal import Journal
from firmware_host.remote.participant import Participant
from firmware_host.seats import parse_seats
from firmware_host.sim_actions import ACTION_FIELDS, SimError, check_fields
from firmware_host.sim_records import SimRecords
from firmware_host.thinker import Thinking
from firmware_host.todo import Todo
from firmware_host.tracker import Status
from firmware_host.web.view import BoardPicture, snapshot_view
from hal.base import BUTTONS
from hal.dice import EnteredDice, RandomDice
from hal.mock import MockBoard, Noise
from wiring.model import straight_wiring

BUTTON_LABELS = {"end_turn": "End turn", "confirm": "Confirm", "undo": "Undo", "new_game": "New game",
                 "hint": "Hint"}
#: The kind of location that holds several pieces side by side (Pawns Crossing's tiles).
STACKING_KIND = "tile"

#: How often the simulator steps the daemon (the Pi's default scan rate).
STEP_HZ = 200
#: The auto hands' pause between two actions when they carry out the computer's move (seconds).
AUTO_PAUSE_S = 0.25
#: What the new-game form offers for each seat.
SEAT_CHOICES = ["human"] + [f"computer:{name}" for name in LEVELS]


@dataclass(frozen=True)
class Held:
    """A piece in hand, and where it was lifted from (None: taken from the box)."""

    piece: str
    origin: str | None


def join_stack(pieces: list[str]) -> str:
    """A location's content holding ``pieces`` (the engine's notation: sorted, joined by "+")."""
    return STACK.join(sorted(pieces))


@dataclass(frozen=True)
class Click:
    """What a click on a location does: lift the top piece there (the last code of its
    content), or put a piece in hand down, beside the ``there`` pieces of a stack."""

    location: str
    there: int
    lifts: str | None = None
    puts: Held | None = None

    def describe(self) -> str:
        if self.puts is None:
            return f"lifts the {self.lifts} piece" + (f" off this stack of {self.there}" if self.there > 1 else "")
        back = " back" if self.puts.origin == self.location else ""
        return f"puts the {self.puts.piece} piece{back} " + (f"on this stack of {self.there}" if self.there else "here")


class SimSession:
    """One simulated board: a game, its daemon, and a person's hands."""

    def __init__(self, game: str, options: dict[str, Any] | None = None, *, journal: Path,
                 noise: bool = False, entered_dice: bool = False, seed: int | None = None,
                 clock: Callable[[], float] = time.monotonic, seats: list[str] | None = None,
                 auto: bool = False, remote: Participant | None = None, thinking: Thinking = Thinking()) -> None:
        """``remote``: this page's part in a game played through a broker (its seats written remote:NAME);
        ``thinking``: how fast the computer thinks (its speed measured by default)."""
        self.journal_path = journal
        self.entered_dice = entered_dice
        self.seed = seed
        #: The seeds of the games dealt here: repeatable with a seed, else from the operating system.
        self.deals = random.Random(f"deals:{seed}") if seed is not None else None
        self.clock = clock
        self.noise = noise
        #: Whether the simulated hands carry out the computer's moves themselves.
        self.auto = auto
        #: The auto hands' actions still to do: (when, what).
        self._auto_queue: list[tuple[float, Callable[[], None]]] = []
        self._auto_move = ""
        self._event = asyncio.Event()
        self.remote = remote
        self.thinking = thinking
        self.daemon: Daemon | None = None
        self.records = SimRecords(journal)
        self.start(game, options or {}, seats)

    # -- set-up -------------------------------------------------------------------------

    def start(self, name: str, options: dict[str, Any], seats: list[str] | None = None, resume: bool = True) -> None:
        """Start a game on a fresh mock board (or, with ``resume``, take the journal's unfinished one of it up
        again); ``seats`` as the configuration writes them (none: every seat human)."""
        game: Game = game_class(name)(**options)
        try:
            chosen = parse_seats([str(seat) for seat in seats or ()], game.num_players)
        except ValueError as exc:
            raise SimError(f"seats: {exc}") from None
        if self.daemon is not None:
            self.thinking = self.daemon.thinker.thinking  # with the speed its worker measured, if it did
            self.daemon.close()
        self.wiring = straight_wiring(game.board)
        self.mock = MockBoard(self.wiring, clock=self.clock, seed=self.seed or 0,
                              noise=Noise.realistic() if self.noise else None)
        self.dice = EnteredDice() if self.entered_dice else RandomDice(self.seed)
        hal = Hal(self.mock.sensors, self.mock.leds, self.mock.buttons, self.dice)
        # The board starts as the game expects: the person has set it up.
        daemon = Daemon(game, hal, self.wiring, Journal(self.journal_path), self.clock, loop=LoopConfig(),
                        seats=chosen, remote=self.remote, resume=resume, deals=self.deals, thinking=self.thinking)
        self.mock.set_contents(daemon.state.contents())
        self.picture = BoardPicture(game.board, game.pieces)
        self.hand: list[Held] = []
        self._auto_queue, self._auto_move = [], ""
        self.records.step(None)
        self.daemon = daemon
        daemon.subscribe(lambda snapshot: self._changed())
        self._changed()

    # -- the loop -----------------------------------------------------------------------

    def step(self) -> None:
        self.daemon.step()
        self._carry_out()

    @property
    def auto_busy(self) -> bool:
        """Whether the auto hands are part way through the computer's step."""
        return bool(self._auto_queue)

    def close(self) -> None:
        """The daemon closed: its computer's process stopped, its journal closed."""
        self.daemon.close()

    def _carry_out(self) -> None:
        """The auto hands: the computer's step done as a hand would, a piece at a time (lifts first),
        then confirm if the sensors cannot tell it from another move.  A step begun is finished even if
        the switch goes off meanwhile."""
        daemon = self.daemon
        now = self.clock()
        while self._auto_queue and self._auto_queue[0][0] <= now:
            self._auto_queue.pop(0)[1]()
        if self.auto and daemon.left_to_do and self._auto_move.startswith(f"{len(daemon.state.history) - 1}:"):
            self.mock.buttons.press("confirm")  # the auto hands made the whole move, its flips and stacks too
            return
        guide = daemon.carry
        if not self.auto or guide is None or self.hand or not self._done_by_hand(daemon.left_to_do):
            return  # the person's own move first: its flips are theirs to make
        key = f"{len(daemon.state.history)}:{guide.move}"
        view = daemon.tracker.view
        if view.status is Status.CONFIRM and not self._auto_queue:
            chosen = str(view.candidates[view.selected].move)
            self.mock.buttons.press("confirm" if chosen == str(guide.move) else "hint")
            return
        if key == self._auto_move or not guide.by_hand:
            return
        self._auto_move = key
        changes = daemon.state.footprint(guide.move).changes
        actions: list[Callable[[], None]] = [  # every piece that goes lifted, then what belongs put down
            *(lambda at=change.location: self.mock.lift(at) for change in changes if change.before is not None),
            *(lambda at=change.location, content=change.after: self.mock.place(at, content)
              for change in changes if change.after is not None)]
        for n, action in enumerate(actions, 1):
            self._auto_queue.append((now + n * AUTO_PAUSE_S, action))

    def _done_by_hand(self, todos: tuple[Todo, ...]) -> bool:
        """Whether the board holds what the person's move left them to do (flips the sensors cannot see): the
        auto hands carry out the next move once it does, confirmed or not, so a remote or computer move never
        waits on a confirm the person has no reason to press."""
        expected = self.daemon.state.contents()
        return all(self.mock.contents.get(todo.location) == expected.get(todo.location) for todo in todos)

    async def run(self) -> None:
        """Step the daemon at the scan rate until cancelled."""
        period = 1.0 / STEP_HZ
        while True:
            self.step()
            await asyncio.sleep(period)

    def changed(self) -> asyncio.Event:
        return self._event

    def _changed(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    # -- actions --------------------------------------------------------------------------

    def act(self, action: dict[str, Any]) -> None:
        """Carry out one action from the page (by the method named after it), once its fields are checked."""
        kind = action["type"]
        if kind not in ACTION_FIELDS:
            raise SimError(f"unknown action {kind!r}; actions: {', '.join(ACTION_FIELDS)}")
        check_fields(kind, action)
        getattr(self, f"_{kind}")(action)
        self.step()
        self._changed()

    def _location(self, action: dict[str, Any]) -> str:
        location = action["loc"]
        if location not in self.wiring.channel_of:
            raise SimError(f"{location!r} is not a location of this board")
        return location

    def next_click(self, location: str) -> Click | None:
        """What a click here would do; None: nothing (an empty place, an empty hand).

        A piece in hand is put down on an empty place or a stack (the last one lifted
        that did not come from there, else the one that did: put back); a click on any
        other piece lifts it, a second piece in hand (a Trade's).
        """
        content = self.mock.contents.get(location)
        pieces = stack_pieces(content)
        if pieces and not (self.hand and self.stacks(location)):
            return Click(location, len(pieces), lifts=pieces[-1])
        if not self.hand:
            return None
        placeable = [held for held in self.hand if held.origin != location] or self.hand
        return Click(location, len(pieces), puts=placeable[-1])

    def _click(self, action: dict[str, Any]) -> None:
        location = self._location(action)
        click = self.next_click(location)
        if click is None:
            raise SimError("nothing in hand: click a piece to lift it, or take one from the box")
        if click.puts is None:
            pieces = stack_pieces(self.mock.lift(location))
            pieces.pop()
            if pieces:
                self.mock.place(location, join_stack(pieces))
            self.hand.append(Held(click.lifts, location))
        else:
            self.hand.remove(click.puts)
            below = stack_pieces(self.mock.lift(location)) if click.there else []
            self.mock.place(location, join_stack(below + [click.puts.piece]))

    def _rest_of_stack(self) -> str | None:
        """The stack the last piece in hand came off, if pieces remain on it."""
        origin = self.hand[-1].origin if self.hand else None
        return origin if origin and self.stacks(origin) and self.mock.contents.get(origin) else None

    def _lift_rest(self, action: dict[str, Any]) -> None:
        """Lift what remains of the stack the last piece came off: the whole stack in hand, as the sensors see it."""
        origin = self._rest_of_stack()
        if origin is None:
            raise SimError("the last piece in hand did not come off a stack that still holds pieces")
        self.hand += [Held(piece, origin) for piece in stack_pieces(self.mock.lift(origin))]

    def stacks(self, location: str) -> bool:
        """Whether a location holds several pieces side by side."""
        return self.daemon.state.game.board.locations[location].kind == STACKING_KIND

    def _hand_hint(self) -> str:
        """What the next click does, in general (the view's ``clicks`` say it for each location)."""
        if not self.hand:
            return "a click on a piece lifts it; take a piece from the box to put one on the board"
        piece = self.hand[-1].piece
        stacking = any(location.kind == STACKING_KIND for location in self.daemon.state.game.board.locations.values())
        on_stack = f", on a {STACKING_KIND} adds it to the pieces there" if stacking else ""
        return f"a click on an empty place puts the {piece} piece there{on_stack}, on another piece lifts that one too"

    @property
    def flips(self) -> bool:
        """Whether the game's pieces are ever turned over (Hexover's): elsewhere a flip would make a piece the
        game never makes."""
        return game_facts(self.daemon.state.game, self.wiring).flips

    def _flip(self, action: dict[str, Any]) -> None:
        """Turn a piece over: the next piece code of the game (Hexover's black and white)."""
        location = self._location(action)
        if not self.flips:
            raise SimError(words.no_flips(self.daemon.state.game.title))
        content = self.mock.contents.get(location)
        if content is None or "+" in content:
            raise SimError(f"there is no single piece on {location} to turn over")
        codes = list(self.daemon.state.game.pieces)
        self.mock.flip(location, codes[(codes.index(content) + 1) % len(codes)])

    def _take(self, action: dict[str, Any]) -> None:
        piece = action["piece"]
        if piece not in self.daemon.state.game.pieces:
            raise SimError(f"the box holds no {piece!r} pieces")
        self.hand.append(Held(piece, None))

    def _drop(self, action: dict[str, Any]) -> None:
        """Put the last piece in hand away, off the board (exits, captures, bear-offs)."""
        if not self.hand:
            raise SimError("nothing in hand to put away")
        self.hand.pop()

    def _button(self, action: dict[str, Any]) -> None:
        name = action["name"]
        if name not in BUTTONS:
            raise SimError(f"no button {name!r}; buttons: {', '.join(BUTTONS)}")
        self.mock.buttons.press(name)

    def _dice(self, action: dict[str, Any]) -> None:
        if self.daemon.fair_dice is not None:
            raise SimError(f"the remote game {self.remote.link.game} rolls fair dice with every seat through the "
                           "broker: there is nothing to enter")
        if not isinstance(self.dice, EnteredDice):
            raise SimError("the daemon rolls the dice here; start with --entered-dice to enter them")
        self.dice.enter(action["text"])

    def _play(self, action: dict[str, Any]) -> None:
        """A move no sensor or button makes (a claim, a declaration), by its notation."""
        self.daemon.play(action["text"])

    def _noise(self, action: dict[str, Any]) -> None:
        self.noise = action["on"]
        self.mock.noise = Noise.realistic() if self.noise else Noise()

    def _new_game(self, action: dict[str, Any]) -> None:
        if self.remote is not None:
            raise SimError(f"this page plays the remote game {self.remote.link.game}: start another with "
                           "`gameboard sim --join` under a new game id")
        self.start(action["game"], action.get("options") or {}, action.get("seats"), resume=False)

    def _auto(self, action: dict[str, Any]) -> None:
        self.auto = action["on"]

    def _replay(self, action: dict[str, Any]) -> None:
        """Show the position after move ``ply`` beside the game (None: the game as it is); the game goes on."""
        ply = action.get("ply")
        if isinstance(ply, bool):
            raise SimError('a replay action needs "ply" as a whole number or null')
        self.records.step(ply)

    def _import_record(self, action: dict[str, Any]) -> None:
        """Play on from a record (docs/records.md): it becomes the game under way, its seats if this page can seat
        them, else every seat human."""
        if self.remote is not None:
            raise SimError(f"this page plays the remote game {self.remote.link.game}: import a record in a "
                           "simulator of your own")
        record = self.records.imported(action["text"])
        seats = None if any(seat.startswith("remote:") for seat in record.seats) else list(record.seats)
        try:
            self.start(record.game, dict(record.options), seats)
        except SimError:
            self.start(record.game, dict(record.options))

    # -- what the page shows ------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        """Everything the page shows, JSON-ready: the board drawn with its LEDs (``BoardPicture``), the panels,
        the new-game form's fields (each game's options) and what a click on each location does."""
        daemon = self.daemon
        state = daemon.state
        game = state.game
        snapshot = daemon.snapshot()
        offered = set(snapshot["buttons"])
        turn = ""
        if not state.is_terminal() and not state.is_chance_node():
            turn = game.player_name(state.current_player)
            piece = state.turn_piece()
            if piece and piece not in turn:
                turn += f" ({piece})"
        return {
            "title": f"{game.title}",
            "game": game.name,
            "games": [{"name": name, "title": about["title"], "options": about["options"],
                       "players": game_class(name)().num_players, "deal": game_class(name).deal_option}
                      for name, about in describe_games().items()],
            "options": game.options,
            **self.picture.view({k: v for k, v in self.mock.contents.items() if v}, snapshot),
            "turn": turn,
            "turn_colour": game.pieces.get(state.turn_piece() or "", ""),
            **snapshot_view(snapshot),
            "buttons": [{"name": name, "label": BUTTON_LABELS[name], "enabled": name in offered,
                         "action": {"type": "button", "name": name}} for name in BUTTONS]
                       + [{"name": text, "label": text, "enabled": True, "action": {"type": "play", "text": text}}
                          for text in snapshot["moves"]],
            "dice_entry": self.entered_dice and state.is_chance_node(),
            "hand": [held.piece for held in self.hand],
            "hand_hint": self._hand_hint(),
            "rest_of_stack": self._rest_of_stack(),
            "clicks": {location: click.describe() for location in self.wiring.channel_of
                       if (click := self.next_click(location))},
            "tray": list(game.pieces),
            "flips": self.flips,
            "piece_colours": game.pieces,
            "noise": self.noise,
            "auto": self.auto,
            "seats": [str(seat) for seat in daemon.seats],
            "seat_choices": SEAT_CHOICES,
            "thinking": snapshot["thinking"],
            "decided": snapshot["decided"],
            "record_header": self.records.header(daemon),
            "replay": self.records.view(daemon),
            "daemon": {key: snapshot[key] for key in ("status", "expected", "observed", "leds", "lifted",
                                                       "destinations", "candidates", "current_ma", "outcome")},
        }
