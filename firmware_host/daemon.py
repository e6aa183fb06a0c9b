"""The board daemon's loop: scan, track, accept, journal, then publish what the board is.

``Daemon.step`` is one iteration, driven by tests and the simulator with their own clock;
``Daemon.run`` repeats it at the scan rate under systemd.  A move is committed to the journal
before the frame that shows it accepted is built.  Each seat's moves are decided by its decider
(``deciders/``); after each step the loop publishes one immutable ``BoardState`` and the views
(LEDs, status words, the page's snapshot) are functions of it.  ``Daemon`` stays one class of
about 350 lines: what is left are the steps of one iteration on the same state, each a few lines
calling the modules split from it.

Two faults stop the daemon accepting moves without stopping it: sensors that cannot see the board
and a journal that cannot be written (a full disk).  Each is shown on the status, the snapshot and
the LEDs, and play goes on by itself once it clears; a settled move waiting for the journal is
tried again every ``JOURNAL_RETRY_S``.
"""

from __future__ import annotations

import random
import signal
import time
from collections.abc import Callable
from typing import Any

from engine.core import Game, IllegalMoveError, Move, State
from engine.deals import fresh_deal
from firmware_host import words
from firmware_host.board_state import BoardState, position_of
from firmware_host.config import Config, Hal, LoopConfig
from firmware_host.decided import Guide
from firmware_host.deciders.computer import Computer
from firmware_host.deciders.hint import Hints
from firmware_host.deciders.remote import RemoteSeats
from firmware_host.deciders.seating import Seating
from firmware_host.expectation import Expectation, Plan, Takeback
from firmware_host.game_facts import game_facts, lights_that_occur
from firmware_host.journal import Journal, JournalWriteError
from firmware_host.led_view import LedSettings, LedView
from firmware_host.notify import Notifier
from firmware_host.observer import WiringMismatchError
from firmware_host.pacing import paced
from firmware_host.played import PlayedGame, opening_state
from firmware_host.presenter import indicator
from firmware_host.remote.dice import FairDice
from firmware_host.remote.moves import Chain, mover
from firmware_host.remote.participant import Participant
from firmware_host.remote.protocol import BY_HAND, FAIR
from firmware_host.seats import HUMAN, Seat
from firmware_host.sensing import Sensing
from firmware_host.snapshot import snapshot
from firmware_host.thinker import Thinker, Thinking
from firmware_host.todo import Todo
from firmware_host.tracker import Status
from firmware_host.turns import back_to_a_person, left_to_do, previous_position, turn_began
from firmware_host.validation import check_opened_hal, wiring_places
from firmware_host.views import Subscriber, Views, Watcher
from hal.dice import DiceEntryError
from wiring.model import Wiring

#: How often a settled move waiting for a journal that cannot be written is tried again (seconds).
JOURNAL_RETRY_S = 1.0
DEFAULT_LOOP = LoopConfig()
DEFAULT_LEDS = LedSettings()


class Daemon:
    """One board: its hardware, its game, its journal."""

    def __init__(self, state_or_game: State | Game, hal: Hal, wiring: Wiring, journal: Journal,
                 clock: Callable[[], float] = time.monotonic, *, loop: LoopConfig = DEFAULT_LOOP,
                 leds: LedSettings = DEFAULT_LEDS, notifier: Notifier | None = None,
                 seats: tuple[Seat, ...] = (), hints: bool = True, seed: int = 0,
                 remote: Participant | None = None, resume: bool = True, deals: random.Random | None = None,
                 thinking: Thinking = Thinking()) -> None:
        """``state_or_game``: a position to start from, or a game: the journal's unfinished game of it is taken
        up again (unless ``resume`` is False), else a new one is dealt (``engine.deals``) from a seed drawn from
        ``deals`` (default: the operating system's random source)."""
        self.hal, self.wiring, self.journal, self.clock, self.loop = hal, wiring, journal, clock, loop
        self.notifier = notifier or Notifier("")
        game = state_or_game.game if isinstance(state_or_game, State) else state_or_game
        #: The game as asked for: each new game is dealt from it (afresh, unless it asks for a seed).
        self._asked, self._deals = game, deals
        places = wiring_places(wiring, game)
        if seats and len(seats) != game.num_players:
            raise ValueError(f"{len(seats)} seats for a game of {game.num_players} players: give one per player")
        #: Who decides each player's moves; the computer's come from another process.
        self.seats = tuple(seats) or (HUMAN,) * game.num_players
        #: This board's part in a game played through a broker (its remote seats' moves arrive there).
        self.remote = remote
        self.thinker = Thinker(thinking)
        self.game = PlayedGame(journal, opening_state(journal, state_or_game, remote, resume, deals))
        self.remote_seats = self.game.link = None if remote is None else \
            RemoteSeats(remote, self.state, self.seats, journal, self._say, self.game.adopt)
        #: In a remote game, the chained hash after each ply (what each move message carries), and the fair dice
        #: (None: rolled here, or by hand as every seat agreed).
        self.chain: Chain | None = self.remote_seats.chain if self.remote_seats else None
        self.fair_dice: FairDice | None = self.remote_seats.fair_dice if self.remote_seats else None
        #: Each seat's decider; the turn decided elsewhere, or the hint, and the step of it the LEDs show.
        self.seating = Seating(self.seats, self.game, Computer(self.thinker, self.seats, journal, seed, self._say),
                               Hints(hints, self.seats), self.remote_seats, self._say)
        self.sensing = Sensing(hal.sensors, wiring, places, loop, clock)
        self.scanner, self.watched, self.tracker = self.sensing.scanner, self.sensing.watched, self.sensing.tracker
        game = self.state.game
        #: The LEDs and the subscribers, driven from the published state; the whose-turn glow of each piece.
        guided = any(seat.computer or seat.remote for seat in self.seats)  # moves shown to carry out
        self.lights = LedView(wiring, hal.leds, leds, game.pieces, loop.blink_ms, lambda: lights_that_occur(
            game_facts(game, wiring), guided=guided, hints=hints and not all(seat.computer for seat in self.seats),
            dice_leds=bool(leds.dice_locations), remote=remote is not None))
        self._views = Views(self.lights)
        self._piece_colours = {code: indicator(code, colour) for code, colour in game.pieces.items()}
        self._last_move: frozenset[str] = frozenset()
        #: What the last move's arrow passes through (``Guide.through``).
        self._last_through: tuple[str, ...] = ()
        #: What the last move left to do that the sensors cannot see: lit until the next move begins or confirm.
        self._todo: tuple[Todo, ...] = ()
        self._dice = self._note = ""
        #: The state last published, and how many scans had changed what the sensors see then.
        self._board: BoardState | None = None
        self._board_seen = 0
        #: Fault kind ("sensors", "journal", "remote") -> what is wrong, while it lasts.
        self.faults: dict[str, str] = {}
        self._journal_retry_at, self._stop = 0.0, False
        self._position_changed(clock(), restoring=True)
        self._present(clock())

    @classmethod
    def from_config(cls, config: Config, clock: Callable[[], float] = time.monotonic) -> Daemon:
        """The daemon a configuration file describes, on its real (or mock) hardware."""
        game = config.game()
        wiring = config.load_wiring()
        hal = config.open_hal()
        try:
            check_opened_hal(config, wiring, hal)
        except WiringMismatchError:
            hal.close()
            raise
        leds = LedSettings(config.brightness, config.current_budget_ma, config.ma_per_led,
                           tuple(config.leds.settings["dice_locations"]))
        journal = Journal(config.journal_path)
        remote = None
        if config.remote is not None:
            from firmware_host.remote.join import host, hosted_game, kept_header
            game = hosted_game(game, kept_header(config.journal_path, config.remote.game))
            remote = host(config.remote.broker, config.remote.game, config.remote.name, game, config.seats, clock,
                          BY_HAND if config.dice_mode == "entered" else FAIR)
        return cls(game, hal, wiring, journal, clock, loop=config.loop, leds=leds, notifier=Notifier(),
                   seats=config.seats, hints=config.hints, remote=remote, thinking=config.thinking)

    # -- the loop ----------------------------------------------------------------------

    def step(self, now: float | None = None) -> None:
        """One iteration: read the sensors and buttons, roll dice, accept a settled move, show the result.

        While the sensors cannot see the board nothing is accepted: what they last read
        may not be the board any more.
        """
        now = self.clock() if now is None else now
        sees = self.sensing.scan(now, self.faults)
        if self.hal.buttons is not None:
            for event in self.hal.buttons.events():
                self.press(event.button, now)
        if self.remote_seats is not None:
            self._hear_remote(now)
        if sees and self.state.is_chance_node() and "remote" not in self.faults:
            self._roll(now)
        if self.seating.hear():
            self._position_changed(now, restoring=False)
        carry = self.carry
        if (sees and carry is not None and not carry.by_hand and self.tracker.view.status is Status.READY
                and now >= self._journal_retry_at):
            self._accept(Plan.unseen(self.state, carry.move), now)  # a button move: nothing to carry out
        if self.tracker.view.status is not Status.READY:
            self._todo = ()  # the next move has begun
            if self.seating.hint is not None:
                self.seating.drop_hint()
        plan = self.tracker.poll(now) if sees and "remote" not in self.faults else None
        if plan is not None and now >= self._journal_retry_at:
            self._accept(plan, now)
        self._present(now)

    def run(self) -> None:
        """Loop at the scan rate until SIGTERM or SIGINT, telling systemd how it goes."""
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._request_stop)
        self.notifier.ready(self.status_text())
        try:
            paced(self.step, self.status_text, self.notifier, self.loop.scan_hz, lambda: self._stop)
        finally:
            self.notifier.stopping()
            self.close()

    def stop(self) -> None:
        self._stop = True

    def _request_stop(self, signum: int, frame: object) -> None:
        self._stop = True

    def close(self) -> None:
        """Dark LEDs, hardware released, the computer's process stopped, the broker left, journal closed."""
        self.thinker.close()
        if self.remote is not None:
            self.remote.close()
        self.hal.close()
        self.journal.close()
        self.notifier.close()

    # -- inputs other than the board -----------------------------------------------------

    def press(self, button: str, now: float | None = None) -> None:
        """A button: confirm and hint first serve moves awaiting confirmation, then the game's own button moves.

        A confirm pressed while a bump disturbs the moves awaiting it is kept until the
        board is back; no button makes a move while the sensors cannot see the board.
        """
        now = self.clock() if now is None else now
        tracker = self.tracker
        awaiting = tracker.view.status is Status.CONFIRM
        move_button = (button == "confirm" and awaiting) or button in tracker.expectation.buttons
        if move_button and "sensors" in self.faults:
            self._note = words.press_again(button)
        elif button == "confirm" and awaiting:
            self._accept(tracker.confirm(), now)
        elif move_button:
            self._accept(Plan.unseen(self.state, tracker.expectation.buttons[button]), now)
        elif button == "confirm":
            tracker.confirm()  # nothing awaits it now: kept if a bump interrupted an offer
            if tracker.armed:
                self._note = words.CONFIRM_KEPT
            elif self._todo:
                self._todo = ()  # the person says the flips are done
        elif button == "hint" and awaiting:
            tracker.next_candidate()
        elif button == "hint":
            self.seating.toggle_hint(tracker.view.status is Status.READY)
        elif button == "undo":
            self._undo(now)
        elif button == "new_game":
            self._new_game(now)
        self._present(now)

    def play(self, text: str, now: float | None = None) -> Move:
        """A move no sensor or button makes (an empty footprint), given by its notation."""
        now = self.clock() if now is None else now
        if self.fair_dice is not None and self.state.is_chance_node():
            raise IllegalMoveError(words.no_entered_roll(text))
        move = self.state.parse_move(text)
        if self.state.footprint(move).changes:
            raise IllegalMoveError(words.made_on_the_board(text))
        accepted = self._accept(Plan.unseen(self.state, move), now)
        self._present(now)
        if not accepted:
            raise JournalWriteError(self.faults["journal"])
        return move

    def subscribe(self, callback: Subscriber) -> None:
        """Call ``callback(snapshot)`` whenever what the board shows changes."""
        self._views.subscribers.append(callback)

    def watch(self, watcher: Watcher) -> None:
        """Call ``watcher(board_state)`` now and whenever what the board shows changes (the voice)."""
        self._views.watchers.append(watcher)
        watcher(self.board_state())

    def _say(self, note: str) -> None:
        self._note = note

    # -- the game ------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The game's position (the engine's state: it changes under the loop, so views get its facts)."""
        return self.game.state

    def _roll(self, now: float) -> None:
        """Ask the dice for a roll (a remote seat's comes from the broker, fair dice are rolled with every
        seat's holder); an entered roll that is not on offer is reported, not fatal."""
        if self.remote_seats is not None and (self.fair_dice is not None or self.remote_turn):
            move = self.remote_seats.roll(self.state)
        else:
            try:
                rolled = self.hal.dice.roll([(str(move), chance) for move, chance in self.state.chance_outcomes()])
            except DiceEntryError as exc:
                self._note = str(exc)
                return
            move = None if rolled is None else self.state.parse_move(rolled)
        if move is not None:
            self._accept(Plan.unseen(self.state, move), now)

    def _accept(self, plan: Plan, now: float) -> bool:
        """The journal, then the new expectation; False (and the journal fault) if the journal cannot be written."""
        move = plan.move
        if isinstance(move, Takeback):
            if not self._journalled(lambda: self._take_back(move.plies), now, words.MOVE_WAITS):
                return False
            self._note = words.TOOK_BACK
        else:
            through = Guide.of(self.state, move).through
            if not self._journalled(lambda: self.game.push(move), now, words.MOVE_WAITS):
                return False
            if plan.locations:
                self._last_move, self._last_through = plan.locations, through
                self._todo = left_to_do(plan, self.tracker.touched)
            self._note = self.tracker.view.note if plan.locations else ""
        self._position_changed(now, restoring=False)
        return True

    def _journalled(self, write: Callable[[], None], now: float, meanwhile: str) -> bool:
        """Run ``write`` (journal, then game); if the journal fails, raise its fault, retry later, return False."""
        try:
            write()
        except JournalWriteError as exc:
            self.faults["journal"] = words.journal_fault(exc, meanwhile)
            self._journal_retry_at = now + JOURNAL_RETRY_S
            return False
        self.faults.pop("journal", None)
        return True

    def _undo(self, now: float) -> None:
        if self.remote is not None:
            self._note = words.UNDO_OFF_REMOTE
            return
        takeback = previous_position(self.state)
        if takeback is None:
            self._note = words.NOTHING_TO_UNDO
            return
        plies = back_to_a_person(self.state, self.seats, takeback[0])
        if self._journalled(lambda: self._take_back(plies), now, words.UNDO_WAITS):
            self._note = words.UNDONE
            self._position_changed(now, restoring=True)

    def _take_back(self, plies: int) -> None:
        self.game.take_back(plies)
        self._last_move, self._last_through = frozenset(), ()
        self._todo = ()

    def _new_game(self, now: float) -> None:
        if self.remote is not None:
            self._note = words.no_restart(self.remote.link.game)
            return
        state = fresh_deal(self._asked, self._deals).new_initial_state()
        if not self._journalled(lambda: self.game.start(state), now, words.NEW_GAME_WAITS):
            return
        self.seating.new_game()
        self._last_move, self._last_through = frozenset(), ()
        self._todo = ()
        self._note = words.NEW_GAME
        self._position_changed(now, restoring=True)

    def _position_changed(self, now: float, restoring: bool) -> None:
        """A new position: its seat asked to decide, the tracker told what to expect, its facts worked out."""
        start, self._dice = turn_began(self.state)
        only = self.seating.ask(start)
        takeback = previous_position(self.state) if self.remote is None else None  # a move sent is not taken back
        expectation = Expectation(self.state, self.wiring, takeback, self.watched, only=only)
        self.tracker.expect(expectation, self.scanner.board(), now, restoring=restoring)
        self._position = position_of(self.state, tuple(self.game.history), expectation, self.watched,
                                     self._piece_colours, self.remote_turn, self.seating.hints.offered(self.state))

    # -- moves decided elsewhere ----------------------------------------------------------

    @property
    def left_to_do(self) -> tuple[Todo, ...]:
        """What the last move left for a hand to do that the sensors cannot see (until confirm or the next move)."""
        return self._todo

    @property
    def remote_turn(self) -> bool:
        """Whether the next move (or roll) is a remote seat's: it comes from the broker."""
        return self.remote_seats is not None and self.remote_seats.holds_elsewhere(mover(self.state))

    @property
    def carry(self) -> Guide | None:
        """The step decided elsewhere that a person is to carry out now, if any (not a hint)."""
        return self.seating.carry

    def _hear_remote(self, now: float) -> None:
        """Take what the broker sent: the remote seat's move awaited is shown to carry out (or applied, a roll)."""
        link, remote = self.remote_seats, self.remote
        assert link is not None and remote is not None
        heard = link.hear(len(self.game.history))
        if remote.problem:
            self.faults["remote"] = remote.problem
        elif self.faults.pop("remote", None) is not None:
            self._position_changed(now, restoring=False)
        note = link.take_notes(self.state)
        if note is not None:
            self._note = note
        if link.news(self.state, heard) and self.seating.decided is None \
                and link.holds_elsewhere(self.state.current_player):  # a board being put back stays so
            self._position_changed(now, restoring=self.tracker.view.status is Status.RESTORING)

    # -- output ---------------------------------------------------------------------------

    def board_state(self) -> BoardState:
        """The board as it is now, one immutable value; built again only when something it holds changed."""
        board, seating, link = self._board, self.seating, self.remote_seats
        remote = link.facts(self.state, self._position.chance, bool(self.faults)) if link is not None else None
        view, thinking = self.tracker.view, self.thinker.busy
        if (board is not None and board.view is view and board.position is self._position
                and self._board_seen == self.sensing.changed and board.left_to_do is self._todo
                and board.decided is seating.decided and board.hint is seating.hint and board.guide is seating.guide
                and board.thinking == thinking and board.faults == self.faults and board.sensors == self.sensing.health
                and board.dice is self._dice and board.note is self._note and board.last_move is self._last_move
                and board.last_through is self._last_through
                and board.remote == remote):
            return board
        self._board_seen = self.sensing.changed
        self._board = BoardState(
            self._position, view, dict(self.tracker.observed), self._todo, seating.decided, seating.hint, seating.guide,
            thinking, dict(self.faults), self.sensing.health, self.seats, self._dice, self._note, self._last_move,
            self._last_through, remote)
        return self._board

    def _present(self, now: float) -> None:
        self._views.show(self.board_state(), now)

    def status_text(self) -> str:
        """One line for people: systemd's STATUS, the simulator's banner."""
        return words.status_text(self.board_state())

    def snapshot(self) -> dict[str, Any]:
        """What the board shows and expects, JSON-ready (for the simulator and diagnostics)."""
        return snapshot(self.board_state(), self.lights)
