"""The board daemon's loop: scan, debounce, observe, track, accept, journal, present.

``Daemon.step`` is one iteration, driven by tests and the simulator with their own
clock; ``Daemon.run`` repeats it at the scan rate under systemd (READY, WATCHDOG,
STATUS).  Every accepted move is committed to the journal before the frame that
shows it accepted is built.

Two faults stop the daemon accepting moves without stopping it: sensors that cannot
see the board (an unplugged or silent co-processor, a bus that does not answer) and
a journal that cannot be written (a full disk).  Each is shown on the status, the
snapshot and the LEDs, and play goes on by itself once it clears; a settled move
waiting for the journal is tried again every ``JOURNAL_RETRY_S``.
"""

from __future__ import annotations

import json
import random
import signal
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engine.ai.levels import DEFAULT_LEVEL
from engine.core import CHANCE, TERMINAL, Game, IllegalMoveError, Move, State, stack_pieces
from engine.deals import fresh_deal, same_game
from engine.hidden import PUBLIC, deal_unseen, hides_values, revealed, seen_by
from engine.solvers import SOLVERS
from firmware_host.config import Config, Hal, LoopConfig
from firmware_host import words
from firmware_host.board_state import BoardState, Position, RemoteFacts
from firmware_host.decided import Decided, Guide
from firmware_host.journal import Journal, JournalWriteError
from firmware_host.led_view import LedSettings, LedView
from firmware_host.notify import Notifier
from firmware_host.observer import Observer, WiringMismatchError
from firmware_host.presenter import indicator
from firmware_host.remote.dice import FairDice, has_dice
from firmware_host.remote.moves import Chain, check_learning, mover, published
from firmware_host.remote.participant import Participant
from firmware_host.remote.protocol import BY_HAND, FAIR, MoveMessage
from firmware_host.remote.seals import Opened, Seals, end_check, openings, sealing, tokens_of, unsealed
from firmware_host.scanner import Scanner
from firmware_host.snapshot import snapshot
from firmware_host.seats import HUMAN, Seat
from firmware_host.thinker import Answer, Question, Thinker, Thinking
from firmware_host.todo import Todo, describe
from firmware_host.tracker import Expectation, MoveTracker, Plan, Status, Takeback, TrackerView
from firmware_host.validation import check_opened_hal, wiring_places
from hal.base import SensorHealth
from hal.dice import DiceEntryError
from wiring.model import Wiring

Subscriber = Callable[[dict[str, Any]], None]

#: How often a settled move waiting for a journal that cannot be written is tried again (seconds).
JOURNAL_RETRY_S = 1.0
#: Times the computer is asked again about one position after its process failed, before giving up.
THINK_RETRIES = 2


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
        self.hal = hal
        self.wiring = wiring
        self.journal = journal
        self.clock = clock
        self.loop = loop
        self.notifier = notifier or Notifier("")
        game = state_or_game.game if isinstance(state_or_game, State) else state_or_game
        #: The game as asked for: each new game is dealt from it (afresh, unless it asks for a seed).
        self._asked = game
        self._deals = deals
        places = wiring_places(wiring, game)
        if seats and len(seats) != game.num_players:
            raise ValueError(f"{len(seats)} seats for a game of {game.num_players} players: give one per player")
        #: Who decides each player's moves; the computer's come from another process.
        self.seats = tuple(seats) or (HUMAN,) * game.num_players
        #: This board's part in a game played through a broker (its remote seats' moves arrive there).
        self.remote = remote
        self.hints = hints
        self.seed = seed
        self.thinker = Thinker(thinking)
        #: The turn the computer decided, carried out one step at a time; a hint shown on a person's turn.
        self._decided: Decided | None = None
        self._hint: Decided | None = None
        #: The last hint's whole turn, and the moves before it: a person following it is shown its next step at once.
        self._hint_plan: tuple[tuple[str, ...], Decided] | None = None
        self._guide: Guide | None = None
        #: How often the computer's process failed on this position.
        self._think_failures = 0
        self.state = self._opening_state(state_or_game, resume)
        #: Whether the computer's turn kept in the journal may be taken up (once, on resuming).
        self._resuming_turn = True
        #: The history's notation, kept as the game goes: snapshots are taken on every change.
        self._history_text = [str(move) for move in self.state.history]
        #: In a remote game, the chained hash after each ply (what each move message carries).
        self.chain: Chain | None = None
        #: What the seals of hidden values hold up, or what the others' openings showed at the end; and what it
        #: was worked out from (the plies, the seals and the openings heard), so that it is not every scan.
        self._sealing = ""
        self._sealing_of: tuple[int, int, int] | None = None
        #: A remote game's fair dice (None: rolled here, or by hand as every seat agreed): the board's own
        #: dice are not read.
        self.fair_dice: FairDice | None = None
        if remote is not None:
            if hides_values(self.state):  # sealed before any move is published, and again at each reconnect
                remote.seal(Seals(remote.name, sealing(self.state, self._held(), self.journal.remote_key)))
            self.chain = Chain(self.state)
            remote.resume(published(self.state, self.chain, remote.header.seats, remote.name,
                                    self.journal.remote_key))
            if remote.header.dice == FAIR and has_dice(self.state):
                self.fair_dice = FairDice(remote, journal.remote_key)
                self.fair_dice.reopen(self.state)
        self.scanner = Scanner(hal.sensors, Observer(wiring, hal.sensors.kind, hal.sensors.channels),
                               loop.debounce_ms / 1000, clock)
        self.watched = frozenset(location for location in wiring.channels.values())
        self.tracker = MoveTracker({loc: places[loc].xy for loc in self.watched},
                                   loop.settle_ms / 1000, loop.out_of_sync_ms / 1000)
        game = self.state.game
        #: The LEDs, a view of the board's state; the whose-turn glow's colour for each piece.
        self.lights = LedView(wiring, hal.leds, leds, game.pieces, loop.blink_ms)
        self._piece_colours = {code: indicator(code, colour) for code, colour in game.pieces.items()}
        self._player_names = tuple(game.player_name(player) for player in range(game.num_players))
        self._subscribers: list[Subscriber] = []
        self._last_move: frozenset[str] = frozenset()
        #: What the last move left to do that the sensors cannot see: lit until the next move begins or confirm.
        self._todo: tuple[Todo, ...] = ()
        self._dice = ""
        self._note = ""
        self._shown_lights: tuple[Any, ...] = ()
        self._shown_position: tuple[Any, ...] = (-1, "")
        #: The board's state as last published, and how many scans changed what the sensors see.
        self._board: BoardState | None = None
        self._scans_changed = self._board_seen = 0
        #: Fault kind ("sensors", "journal") -> what is wrong, while it lasts.
        self.faults: dict[str, str] = {}
        self.sensor_health = SensorHealth()
        self._journal_retry_at = 0.0
        self._stop = False
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
        changes = self.scanner.scan(now)
        if changes:
            self.tracker.observe(changes, now)
            self._scans_changed += 1
        sees = self._watch_sensors(now)
        if self.hal.buttons is not None:
            for event in self.hal.buttons.events():
                self.press(event.button, now)
        if self.remote is not None:
            self._hear_remote(now)
        if sees and self.state.is_chance_node() and "remote" not in self.faults:
            self._roll(now)
        self._hear_thinker(now)
        carry = self.carry
        if (sees and carry is not None and not carry.by_hand and self.tracker.view.status is Status.READY
                and now >= self._journal_retry_at):
            self._accept(Plan.unseen(self.state, carry.move), now)  # a button move: nothing to carry out
        if self.tracker.view.status is not Status.READY:
            self._todo = ()  # the next move has begun
            if self._hint is not None:
                self._hint = self._guide = None
        plan = self.tracker.poll(now) if sees and "remote" not in self.faults else None
        if plan is not None and now >= self._journal_retry_at:
            self._accept(plan, now)
        self._present(now)

    def _watch_sensors(self, now: float) -> bool:
        """Whether the sensors see the board now; the fault is raised or cleared to match.

        The fault says the problem and the error counts when it began (the counts as they
        go on are in the snapshot: a status line changing at every scan would flood the log).
        Once the sensors see again, a move must hold still for the settle time as seen from then.
        """
        health = self.sensor_health = self.scanner.health()
        if not health.sees:
            problem = health.problem or words.STALE_READINGS
            if not self.faults.get("sensors", "").startswith(problem):
                self.faults["sensors"] = words.sensor_fault(problem, health.error_words())
        elif self.faults.pop("sensors", None) is not None:
            self.tracker.hold(now)
        return health.sees

    def run(self) -> None:
        """Loop at the scan rate until SIGTERM or SIGINT, telling systemd how it goes."""
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._request_stop)
        notifier = self.notifier
        notifier.ready(self.status_text())
        period = 1.0 / self.loop.scan_hz
        feed_every = notifier.watchdog_interval
        fed = status_sent = time.monotonic()
        status = ""
        deadline = time.monotonic()
        try:
            while not self._stop:
                self.step()
                now = time.monotonic()
                if feed_every is not None and now - fed >= feed_every:
                    notifier.watchdog()
                    fed = now
                if now - status_sent >= 1.0 and (text := self.status_text()) != status:
                    notifier.status(text)
                    status, status_sent = text, now
                deadline = max(deadline + period, now)
                time.sleep(max(0.0, deadline - time.monotonic()))
        finally:
            notifier.stopping()
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
            self._toggle_hint()
        elif button == "undo":
            self._undo(now)
        elif button == "new_game":
            self._new_game(now)
        self._present(now)

    def play(self, text: str, now: float | None = None) -> Move:
        """A move no sensor or button makes (an empty footprint), given by its notation."""
        now = self.clock() if now is None else now
        if self.fair_dice is not None and self.state.is_chance_node():
            raise IllegalMoveError(f"{text!r}: in this remote game every seat rolls fair dice together through the "
                                   "broker; nobody enters a roll")
        move = self.state.parse_move(text)
        if self.state.footprint(move).changes:
            raise IllegalMoveError(f"{text!r} moves pieces: make it on the board")
        accepted = self._accept(Plan.unseen(self.state, move), now)
        self._present(now)
        if not accepted:
            raise JournalWriteError(self.faults["journal"])
        return move

    def subscribe(self, callback: Subscriber) -> None:
        """Call ``callback(snapshot)`` whenever what the board shows changes."""
        self._subscribers.append(callback)

    # -- the game ------------------------------------------------------------------------

    def _opening_state(self, state_or_game: State | Game, resume: bool) -> State:
        """An explicit position starts a new game; a game resumes the journal's unfinished one of the same kind
        (any deal, if it asks for none), or starts one dealt afresh.  A remote game's deal is its header's."""
        remote = self.remote.link.game if self.remote is not None else None
        header = self.remote.header.payload().decode() if self.remote is not None else None
        if isinstance(state_or_game, State):
            self.journal.start(state_or_game, remote, header)
            return state_or_game
        resumed = self.journal.resume() if resume else None
        if resumed is not None and same_game(state_or_game, resumed.game) and self.journal.remote == remote \
                and (self.remote is None or self.remote.plays(self.journal.remote_header)):
            return resumed
        state = (state_or_game if remote is not None else fresh_deal(state_or_game, self._deals)).new_initial_state()
        if remote is not None:  # the values this board's seats hide, dealt here and known only here
            state = state.game.state_from_position(deal_unseen(state, seen_by(state, PUBLIC), random.SystemRandom()))
        self.journal.start(state, remote, header)
        return state

    def _roll(self, now: float) -> None:
        """Ask the dice for a roll (a remote seat's comes from the broker, fair dice are rolled with every
        seat's holder); an entered roll that is not on offer is reported, not fatal."""
        if self.fair_dice is not None:
            rolled = self.fair_dice.roll(self.state, self.chain)
            if rolled is None:
                return
            move = self._remote_move() if self._held_elsewhere(self._mover()) else self.state.parse_move(rolled)
            if move is not None:
                self._accept(Plan.unseen(self.state, move), now)
            return
        if self._held_elsewhere(self._mover()):
            move = self._remote_move()
            if move is not None:
                self._accept(Plan.unseen(self.state, move), now)
            return
        outcomes = self.state.chance_outcomes()
        try:
            rolled = self.hal.dice.roll([(str(move), probability) for move, probability in outcomes])
        except DiceEntryError as exc:
            self._note = str(exc)
            return
        if rolled is not None:
            move = self.state.parse_move(rolled)
            self._accept(Plan.unseen(self.state, move), now)

    def _accept(self, plan: Plan, now: float) -> bool:
        """The journal, then the new expectation; False (and the journal fault) if the journal cannot be written."""
        move = plan.move
        if isinstance(move, Takeback):
            if not self._journalled(lambda: self._take_back(move.plies), now, words.MOVE_WAITS):
                return False
            self._note = words.TOOK_BACK
        else:
            if not self._journalled(lambda: self._push(move), now, words.MOVE_WAITS):
                return False
            if plan.locations:
                self._last_move = plan.locations
                self._todo = self._left_to_do(plan, self.tracker.touched)
            self._note = self.tracker.view.note if plan.locations else ""
        self._position_changed(now, restoring=False)
        return True

    @staticmethod
    def _left_to_do(plan: Plan, touched: frozenset[str]) -> tuple[Todo, ...]:
        """What an accepted move may leave undone that the sensors cannot tell: the changes they cannot see
        where the hand was not seen (a flip under reed switches, the stacks of a slid Pawns Crossing line:
        a push did them, a hand must), and every stack it leaves, said as what the stack must hold (a
        sensor reads a stack as one piece: its count is the person's to check), but those the person
        confirmed holding what the move leaves (``Plan.unsure``).

        A move the sensors could not see at all was offered after the hand touched every
        piece of it: that hand has done it.
        """
        if not plan.reading:
            return ()
        seen = {location for location, _ in plan.reading} | touched
        confirmed = {todo.location for todo in plan.unsure}
        todo: list[Todo] = []
        for change in plan.footprint.changes:
            after = stack_pieces(change.after)
            if change.location in confirmed:
                continue
            if len(after) > 1:
                todo.append(Todo("restack", change.location, tuple(after)))
            elif change.location not in seen:
                todo.append(Todo.of(change))
        return tuple(todo)

    def _push(self, move: Move) -> None:
        """Play ``move`` once it is in the journal (with the result, if it ends the game); then publish it
        if one of this board's seats made it in a remote game."""
        remote = self.remote
        mover, reveal = (self._mover(), revealed(self.state, move)) if remote is not None else (-1, {})
        self.state.push(move)
        outcome = self.state.outcome()
        try:
            self.journal.record(move, None if outcome is None else outcome.reason)
        except JournalWriteError:
            self.state.pop()
            raise
        self._history_text.append(str(move))
        if remote is not None:
            self.chain.record(self.state)
            if remote.holds(mover):
                remote.publish(MoveMessage(len(self._history_text), str(move), remote.name, self.chain.head,
                                           openings(self.journal.remote_key, reveal)))
            if outcome is not None and hides_values(self.state):  # open every seal for checking
                values = {token: self.state.values[token] for token in tokens_of(self.state, self._held())}
                remote.open(Opened(remote.name, openings(self.journal.remote_key, values)))

    def _journalled(self, write: Callable[[], None], now: float, meanwhile: str) -> bool:
        """Run ``write`` (journal, then game); if the journal fails, raise its fault, retry later, return False."""
        try:
            write()
        except JournalWriteError as exc:
            self.faults["journal"] = f"{exc}; {meanwhile}"
            self._journal_retry_at = now + JOURNAL_RETRY_S
            return False
        self.faults.pop("journal", None)
        return True

    def _undo(self, now: float) -> None:
        if self.remote is not None:
            self._note = words.UNDO_OFF_REMOTE
            return
        takeback = self._takeback()
        if takeback is None:
            self._note = words.NOTHING_TO_UNDO
            return
        plies = self._through_the_computers_turns(takeback[0])
        if self._journalled(lambda: self._take_back(plies), now, words.UNDO_WAITS):
            self._note = words.UNDONE
            self._position_changed(now, restoring=True)

    def _through_the_computers_turns(self, plies: int) -> int:
        """``plies`` back, and further back to a person's turn if the computer (or the dice) moves there:
        undo at a person's turn takes back the computer's answer and the person's own move with it."""
        state = self.state
        if not any(not seat.computer for seat in self.seats):
            return plies
        popped = [state.pop() for _ in range(plies)]
        while state.history and (state.is_chance_node() or self.seats[state.current_player].computer):
            popped.append(state.pop())
        for move in reversed(popped):
            state.push(move)
        return len(popped)

    def _take_back(self, plies: int) -> None:
        self.journal.take_back(plies)
        for _ in range(plies):
            self.state.pop()
        del self._history_text[len(self._history_text) - plies:]
        if self.chain is not None:
            self.chain.cut(len(self._history_text))
        self._last_move = frozenset()
        self._todo = ()

    def _new_game(self, now: float) -> None:
        if self.remote is not None:
            self._note = words.no_restart(self.remote.link.game)
            return
        state = fresh_deal(self._asked, self._deals).new_initial_state()
        if not self._journalled(lambda: self.journal.start(state), now, words.NEW_GAME_WAITS):
            return
        self.state = state
        self._decided = self._hint_plan = None
        self._history_text = []
        self._last_move = frozenset()
        self._todo = ()
        self._note = words.NEW_GAME
        self._position_changed(now, restoring=True)

    def _takeback(self) -> tuple[int, dict[str, Any]] | None:
        """How many history entries back the previous board position lies, and its contents."""
        state = self.state
        current = state.contents()
        popped: list[Move] = []
        previous = current
        while state.history and previous == current:
            popped.append(state.pop())
            previous = state.contents()
        for move in reversed(popped):
            state.push(move)
        return (len(popped), previous) if previous != current else None

    def _position_changed(self, now: float, restoring: bool) -> None:
        self._hint = None
        start, self._dice = self._turn_began()
        only = self._decided_step(start)
        takeback = self._takeback() if self.remote is None else None  # a move sent is not taken back
        expectation = Expectation(self.state, self.wiring, takeback, self.watched, only=only)
        self.tracker.expect(expectation, self.scanner.board(), now, restoring=restoring)
        self._position = self._position_facts(expectation)

    def _position_facts(self, expectation: Expectation) -> Position:
        """The position's facts as values, and what the board offers in it."""
        state, choices = self.state, expectation.choices
        turn = state.turn_piece()
        mine = frozenset(loc for loc, content in expectation.contents.items()
                         if turn is not None and turn in stack_pieces(content) and loc in self.watched)
        # In the mover's colour glow the pieces a legal move lifts (any colour, where the rules allow),
        # or all of the mover's own if none can move (a placing turn).
        movable = choices.movable & self.watched
        return Position(
            game=state.game.name, player_names=self._player_names, history=tuple(self._history_text),
            current_player=state.current_player, mover=self._mover(), turn_piece=turn, outcome=state.outcome(),
            chance=state.is_chance_node(), remote_turn=self.remote_turn, hint_offered=self._hint_offered(),
            expected=expectation.contents, turn_locations=movable or mine,
            turn_colour=self._piece_colours.get(turn, (0, 0, 0)) if turn else (0, 0, 0),
            movable=movable, stacks=choices.stacks & self.watched, from_box=choices.from_box,
            buttons=tuple((button, str(move)) for button, move in sorted(expectation.buttons.items())),
            unseen=tuple(str(move) for move in expectation.unseen))

    # -- moves decided elsewhere ----------------------------------------------------------

    @property
    def left_to_do(self) -> tuple[Todo, ...]:
        """What the last move left for a hand to do that the sensors cannot see (until confirm or the next move)."""
        return self._todo

    @property
    def remote_turn(self) -> bool:
        """Whether the next move (or roll) is a remote seat's: it comes from the broker."""
        return self._held_elsewhere(self._mover())

    @property
    def carry(self) -> Guide | None:
        """The computer's step a person is to carry out now, if any (not a hint)."""
        return self._guide if self._decided is not None else None

    def _decided_step(self, turn_start: int) -> list[Move] | None:
        """The moves the tracker may accept now: the computer's next step (none while it thinks),
        or every legal move on a person's turn.  Asks the computer, about the position at
        ``turn_start``, when its seat must decide."""
        state, player = self.state, self.state.current_player
        self._guide = None
        if self._held_elsewhere(player):
            return self._remote_step(player)
        computer = player not in (CHANCE, TERMINAL) and self.seats[player].computer
        decided = self._decided
        step = decided.step(self._history_text) if computer and decided and decided.player == player else None
        question = self._question("computer", turn_start) if computer and step is None else None
        if question is not None and self._resuming_turn:  # a turn planned to a deadline differs from run to run
            decided = self._kept_turn(question, player)
            step = decided.step(self._history_text) if decided else None
            if decided is not None and step is not None and not decided.complete:
                self.thinker.ask(replace(question, planned=decided.moves))  # the rest of the turn
        self._resuming_turn = False
        if step is None:
            self._decided = None
            asked = self.thinker.asked
            if asked is not None and (question is None or asked.key != question.key):
                self.thinker.cancel()
            if question is not None and self.thinker.asked is None:
                self.thinker.ask(question)
            return [] if computer else None
        assert decided is not None
        self._decided = decided
        move = state.parse_move(decided.moves[step])
        self._guide = Guide.of(state, move)
        return [move]

    def _kept_turn(self, question: Question, player: int) -> Decided | None:
        """The computer's turn the journal kept for ``question`` before a restart, as far as it was planned."""
        kept = self.journal.kept_turn(json.dumps(question.key))
        return None if kept is None else Decided("computer", player, question.key[2], *kept)

    # -- remote seats ---------------------------------------------------------------------

    def _mover(self) -> int:
        return mover(self.state)

    def _held(self) -> list[int]:
        """The players whose seats this board holds in a remote game."""
        return [player for player in range(len(self.seats)) if not self.seats[player].remote]

    def _held_elsewhere(self, player: int) -> bool:
        """Whether ``player``'s moves come from the broker."""
        return self.remote is not None and player not in (CHANCE, TERMINAL) and self.seats[player].remote

    def _hear_remote(self, now: float) -> None:
        """Take what the broker sent: the remote seat's move awaited is shown to carry out (or applied, a roll)."""
        remote = self.remote
        heard = remote.hear(len(self._history_text) + 1)
        if remote.problem:
            self.faults["remote"] = remote.problem
        elif self.faults.pop("remote", None) is not None:
            self._position_changed(now, restoring=False)
        self._refuse_out_of_turn()
        if remote.notes:
            self._note = remote.notes.pop()
            remote.notes.clear()
        sealing = self._sealing
        if (basis := (len(self._history_text), len(remote.seals), len(remote.opened))) != self._sealing_of:
            self._sealing, self._sealing_of = self._sealing_words(), basis  # the first heard are kept: lengths tell
        if (len(self._history_text) + 1 in heard or sealing != self._sealing) and self._decided is None \
                and self._held_elsewhere(self.state.current_player):  # a board being put back stays so
            self._position_changed(now, restoring=self.tracker.view.status is Status.RESTORING)

    def _sealing_words(self) -> str:
        """In a game hiding values: whose seals the next remote move waits for, or the check of the others'
        openings once the game is over; "" else."""
        remote, state = self.remote, self.state
        if remote is None or not hides_values(state):
            return ""
        if state.is_terminal():
            return end_check(state, remote.header, remote.seals, remote.opened, remote.name)
        player = self._mover()
        return unsealed(state, remote.header, remote.seals, remote.header.seats[player]) \
            if self._held_elsewhere(player) else ""

    def _refuse_out_of_turn(self) -> None:
        """A move heard for the ply this board's own seat is to make (or after the game's end) is refused
        like one that fails a check: it can come only from someone not holding that seat."""
        player, seq, name = self._mover(), len(self._history_text) + 1, self.remote.name
        if self._held_elsewhere(player):
            return
        for message in self.remote.candidates(seq):  # only other holders' moves are followed
            reason = words.GAME_OVER_REFUSAL if player == TERMINAL else words.not_holder(message.by, name)
            self.remote.refuse(message, reason)
            self._note = words.refused(message.by, seq, message.move, reason)

    def _remote_step(self, player: int) -> list[Move]:
        """The remote seat's move for this ply, to carry out, once it has come and is checked; none before."""
        move = self._remote_move()
        if move is None:
            self._decided = None
            return []
        self._decided = Decided(self.seats[player].holder or "remote", player, len(self._history_text), (str(move),))
        self._guide = Guide.of(self.state, move)
        return [move]

    def _remote_move(self) -> Move | None:
        """The next ply's move as its seat's holder sent it, checked; a move that fails a check is refused
        (the reason told to all) and never applied."""
        seq = len(self._history_text) + 1
        holder = self.seats[self._mover()].holder
        if unsealed(self.state, self.remote.header, self.remote.seals, holder or ""):
            return None  # nothing of that seat is checked before its holder's seals are heard
        for message in self.remote.candidates(seq):
            checked = self._check_remote(message, holder)
            if isinstance(checked, Move):
                self.remote.apply(message)  # the first copy that passes is the move: another is a rewrite
                return checked
            self.remote.refuse(message, checked)
            self._note = words.refused(message.by, seq, message.move, checked)
        return None

    def _check_remote(self, message: MoveMessage, holder: str | None) -> Move | str:
        """The move ``message`` carries, or why it is refused.  A roll must be the one the fair dice gave.  A value
        it reveals must open its sender's seal; it is learnt into a copy of the game and the move checked there:
        only a move that passes changes the journal (setup first) and the game (replayed on it)."""
        checked, setup_learnt, state = check_learning(self.state, self.chain, message, holder, self.journal.setup,
                                                      self.remote.seals.get(message.by), self._held(), self.fair_dice)
        if isinstance(checked, str) or setup_learnt is None:
            return checked
        try:
            self.journal.learn(setup_learnt)
        except JournalWriteError as exc:
            return f"cannot keep what it reveals: {exc}"
        self.state = state
        return checked

    def _question(self, by: str, ply: int) -> Question:
        """What to ask about the position at ``ply`` (the start of the turn to decide).  A puzzle's hint
        is asked with the moves from the start, so that it can tell which move lost the puzzle."""
        state = self.state
        asked_from = 0 if by == "hint" and self._is_puzzle else ply
        later = [state.pop() for _ in range(len(state.history) - asked_from)]
        try:
            position = state.to_json()
        finally:
            for move in reversed(later):
                state.push(move)
        player = state.current_player
        level = self.seats[player].level if by == "computer" else DEFAULT_LEVEL
        moves = tuple(self._history_text[asked_from:ply])
        key = (by, player, ply, zlib.crc32(json.dumps([position, moves], sort_keys=True).encode()))
        return Question(key, position, level or DEFAULT_LEVEL, self.seed, moves)

    @property
    def _is_puzzle(self) -> bool:
        """Whether the game is a puzzle with a solver: its hint comes from the solver."""
        return self.state.game.name in SOLVERS

    def _turn_began(self) -> tuple[int, str]:
        """Where the current player's turn began: the ply after the last move another player (or the
        dice) made, and that move if it was the player's roll ("roll 3+4"), else "".  In a puzzle, whose
        one player never hands over, every move is a turn."""
        state, player = self.state, self.state.current_player
        if state.game.num_players == 1:
            return len(state.history), ""
        popped: list[Move] = []
        start, roll = 0, ""
        try:
            while state.history:
                popped.append(state.pop())
                if state.current_player != player:
                    start = len(state.history) + 1
                    if state.is_chance_node() and player not in (CHANCE, TERMINAL):
                        roll = str(popped[-1])
                    break
        finally:
            for move in reversed(popped):
                state.push(move)
        return start, roll

    def _hear_thinker(self, now: float) -> None:
        """Take the computer's answer, if one has come: a turn to carry out, or a hint to show."""
        answer = self.thinker.answer()
        if answer is None:
            return
        by, player, ply, _ = answer.key
        if answer.error:
            self._think_failed(answer, now)
            return
        self._think_failures = 0
        decided = Decided(by, player, ply, answer.moves, answer.done)
        if by == "hint":
            if answer.note:
                self._note = words.hint_note(answer.note)
            if answer.moves and len(self._history_text) >= ply:
                self._hint_plan = (tuple(self._history_text[:ply]), decided)
                self._show_hint()
            return
        if decided.step(self._history_text) is None:  # the turn's start was left for a plan that does not lead here
            self.thinker.ask(self._question("computer", len(self._history_text)))
            return
        try:
            self.journal.keep_turn(json.dumps(answer.key), answer.moves, answer.done)
        except JournalWriteError as exc:  # the turn is shown all the same: only a restart would plan it again
            self._note = words.turn_not_kept(exc)
        shown = self._decided
        self._decided = decided
        if shown is None or shown.ply != ply or shown.step(self._history_text) is None:
            self._position_changed(now, restoring=False)  # else the step shown stays; the plan grows behind it

    def _think_failed(self, answer: Answer, now: float) -> None:
        self._think_failures += 1
        computer = answer.key[0] == "computer"
        retried = computer and self._think_failures <= THINK_RETRIES
        self._note = words.computer_failed(answer.error, retried if computer else None)
        if retried:
            self._position_changed(now, restoring=False)

    def _toggle_hint(self) -> None:
        """Show the computer's best move for a person's turn, or hide the hint shown."""
        if self._hint is not None or (self.thinker.asked and self.thinker.asked.key[0] == "hint"):
            self._hint = self._guide = None
            self.thinker.cancel()
            return
        if not self.hints:
            self._note = words.HINTS_OFF
        elif not self._hint_offered():
            self._note = words.HINT_FOR_A_PERSON
        elif self.tracker.view.status is not Status.READY:
            self._note = words.HINT_AT_REST
        elif not self._show_hint():  # a person following the last hint's turn sees its next step at once
            self.thinker.ask(self._question("hint", len(self.state.history)))

    def _show_hint(self) -> bool:
        """Show the next step of the last hint's turn, if the game still follows it."""
        if self._hint_plan is None:
            return False
        before, plan = self._hint_plan
        step = plan.step(self._history_text) if tuple(self._history_text[:plan.ply]) == before else None
        if step is None:
            return False
        self._hint = plan
        self._guide = Guide.of(self.state, self.state.parse_move(plan.moves[step]))
        return True

    def _hint_offered(self) -> bool:
        """Whether the hint button shows the computer's best move now: a person's turn, hints on; in a
        puzzle also once it is over unsolved, to say which move lost it."""
        state = self.state
        player = state.current_player
        if self._is_puzzle and player == TERMINAL:
            outcome = state.outcome()
            return self.hints and outcome is not None and not outcome.winners
        return self.hints and player not in (CHANCE, TERMINAL) and self.seats[player].kind == "human"

# -- output ---------------------------------------------------------------------------

    def board_state(self) -> BoardState:
        """The board as it is now, one immutable value; built again only when something it holds changed."""
        board, remote = self._board, self._remote_facts()
        view, thinking = self.tracker.view, self.thinker.busy
        if (board is not None and board.view is view and board.position is self._position
                and self._board_seen == self._scans_changed and board.left_to_do is self._todo
                and board.decided is self._decided and board.hint is self._hint and board.guide is self._guide
                and board.thinking == thinking and board.faults == self.faults and board.sensors == self.sensor_health
                and board.dice is self._dice and board.note is self._note and board.last_move is self._last_move
                and board.remote == remote):
            return board
        self._board_seen = self._scans_changed
        self._board = BoardState(
            self._position, view, dict(self.tracker.observed), self._todo, self._decided, self._hint, self._guide,
            thinking, dict(self.faults), self.sensor_health, self.seats, self._dice, self._note, self._last_move,
            remote)
        return self._board

    def _remote_facts(self) -> RemoteFacts | None:
        remote = self.remote
        if remote is None:
            return None
        fair_dice = self.fair_dice
        return RemoteFacts(
            remote.link.game, remote.name, str(remote.link.broker), remote.connected, dict(remote.online),
            remote.problem, remote.link.problem, remote.header.dice if has_dice(self.state) else "", self._sealing,
            fair_dice is not None,
            # the words ask the fair dice, which refuse what breaks the rules when asked: asked when the status
            # line says them (no fault), as the roll just asked
            fair_dice.waiting(self.state) if fair_dice is not None and self._position.chance and not self.faults
            else "")

    def _present(self, now: float) -> None:
        """A new frame when what the LEDs mean changes (or a blink flips); subscribers hear of any change."""
        board = self.board_state()
        lights = self.lights.key(board, now)
        remote = board.remote
        position = (board.position.ply, board.note, remote.sealing if remote else "", board.faults, board.sensors,
                    board.thinking, None if remote is None else (remote.connected, tuple(sorted(remote.online.items()))))
        if lights == self._shown_lights and position == self._shown_position:
            return
        if lights != self._shown_lights:
            self.lights.show(board, lights)
            self._shown_lights = lights
        self._shown_position = position
        if self._subscribers:
            shown = snapshot(board, self.lights)
            for callback in self._subscribers:
                callback(shown)

    def status_text(self) -> str:
        """One line for people: systemd's STATUS, the simulator's banner."""
        return words.status_text(self.board_state())

    def snapshot(self) -> dict[str, Any]:
        """What the board shows and expects, JSON-ready (for the simulator and diagnostics)."""
        return snapshot(self.board_state(), self.lights)
