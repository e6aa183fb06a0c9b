"""The seats of one board and what is decided now: the turn decided elsewhere being carried out (the
computer's, a remote seat's), the hint shown on a person's turn, and the step of either the LEDs show
(its ``Guide``).  At each new position the seat to move is asked through the one ``Decider`` question."""

from __future__ import annotations

from collections.abc import Callable

from engine.core import CHANCE, TERMINAL, Move
from firmware_host.decided import Decided, Guide
from firmware_host.deciders import Decider
from firmware_host.deciders.computer import Computer
from firmware_host.deciders.hint import Hints
from firmware_host.deciders.person import Person
from firmware_host.deciders.remote import RemoteSeats
from firmware_host.played import PlayedGame
from firmware_host.seats import Seat


class Seating:
    """Each player's decider, and the turn decided, the hint and the step shown."""

    def __init__(self, seats: tuple[Seat, ...], game: PlayedGame, computer: Computer, hints: Hints,
                 remote: RemoteSeats | None, say: Callable[[str], None]) -> None:
        self.game = game
        self.say = say
        self.computer = computer
        self.hints = hints
        self._person = Person(computer)  # the dice's and the game's end's too: decided on the board
        self._deciders: tuple[Decider, ...] = tuple(
            computer if seat.computer else remote if seat.remote and remote else self._person for seat in seats)
        self.decided: Decided | None = None
        self.hint: Decided | None = None
        self.guide: Guide | None = None

    @property
    def carry(self) -> Guide | None:
        """The step decided elsewhere that a person is to carry out now, if any (not a hint)."""
        return self.guide if self.decided is not None else None

    def ask(self, turn_start: int) -> list[Move] | None:
        """At a new position: the moves the tracker may accept, the next step of a turn decided elsewhere (none
        before it is decided), or None: every legal move, on a person's turn."""
        game = self.game
        player = game.state.current_player
        self.hint = self.guide = None
        decider = self._person if player in (CHANCE, TERMINAL) else self._deciders[player]
        self.decided = decided = decider.decide(game.state, game.history, turn_start, self.decided)
        if decided is None:
            return [] if decider.enforced else None
        state = game.state  # a remote move that revealed values is played on the game that learnt them
        move = state.parse_move(decided.moves[decided.step(game.history) or 0])
        self.guide = Guide.of(state, move)
        return [move]

    def hear(self) -> bool:
        """Take the computer's answer, if one has come: a turn to carry out, or a hint to show.  True when the seat
        to move must be asked again (a new turn, a retry after the worker failed)."""
        game = self.game
        heard = self.computer.heard(game.state, game.history)
        if heard is None:
            return False
        decided = heard.decided
        if heard.retry or decided is None:
            return heard.retry
        if decided.by == "hint":
            if self.hints.heard(decided, game.history):
                self.show_hint()
            return False
        shown, self.decided = self.decided, decided
        return shown is None or shown.ply != decided.ply or shown.step(game.history) is None  # else the plan grows

    def toggle_hint(self, at_rest: bool) -> None:
        """Show the computer's best move for a person's turn (or say why not), or hide the hint shown."""
        if self.hint is not None or self.computer.asking("hint"):
            self.drop_hint()
            self.computer.thinker.cancel()
            return
        game = self.game
        if refusal := self.hints.refusal(game.state, at_rest):
            self.say(refusal)
        elif not self.show_hint():  # a person following the last hint's turn sees its next step at once
            self.computer.ask_hint(game.state, game.history)

    def show_hint(self) -> bool:
        """Show the next step of the last hint's turn, if the game still follows it."""
        following = self.hints.following(self.game.history)
        if following is None:
            return False
        self.hint, step = following
        state = self.game.state
        self.guide = Guide.of(state, state.parse_move(self.hint.moves[step]))
        return True

    def drop_hint(self) -> None:
        self.hint = self.guide = None

    def new_game(self) -> None:
        self.decided = None
        self.hints.forget()
