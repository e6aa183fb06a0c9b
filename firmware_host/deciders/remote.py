"""The remote seats: moves decided by participants elsewhere, heard from the broker, checked, then carried
out on this board as the LEDs show (``docs/remote.md``).

This is the adapter between the journal and the broker: it publishes what the journal accepted and hands
the heard moves to the loop to carry out; it never writes the game itself.  A move is refused (the reason
told to all) when it fails a check, comes from someone not holding the seat to move, or reveals a value
that does not open its sender's seal.  A move that reveals hidden values is checked on a copy of the game
that learnt them: once it passes, the loop plays on that copy (``adopt``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.core import CHANCE, TERMINAL, Move, State
from engine.hidden import hides_values, revealed
from firmware_host import words
from firmware_host.board_state import RemoteFacts
from firmware_host.decided import Decided
from firmware_host.journal import Journal, JournalWriteError
from firmware_host.remote.dice import FairDice, has_dice
from firmware_host.remote.moves import Chain, check_learning, mover, published
from firmware_host.remote.participant import Participant
from firmware_host.remote.protocol import FAIR, MoveMessage
from firmware_host.remote.seals import Opened, Seals, end_check, openings, sealing, tokens_of, unsealed
from firmware_host.seats import Seat


class RemoteSeats:
    """This board's part in a game played through a broker: its remote seats' moves arrive there."""

    enforced = True

    def __init__(self, remote: Participant, state: State, seats: tuple[Seat, ...], journal: Journal,
                 say: Callable[[str], None], adopt: Callable[[State], None]) -> None:
        self.remote = remote
        self.seats = seats
        self.journal = journal
        self.say = say
        self.adopt = adopt
        #: The players whose seats this board holds.
        self.held = [player for player in range(len(seats)) if not seats[player].remote]
        if hides_values(state):  # sealed before any move is published, and again at each reconnect
            remote.seal(Seals(remote.name, sealing(state, self.held, journal.remote_key)))
        #: The chained hash after each ply (what each move message carries).
        self.chain = Chain(state)
        remote.resume(published(state, self.chain, remote.header.seats, remote.name, journal.remote_key))
        #: The fair dice every seat rolls together (None: by hand, as every seat agreed): the board's own
        #: dice are not read.
        self.fair_dice: FairDice | None = None
        if remote.header.dice == FAIR and has_dice(state):
            self.fair_dice = FairDice(remote, journal.remote_key)
            self.fair_dice.reopen(state)
        #: What the seals of hidden values hold up, or what the others' openings showed at the end; and what it
        #: was worked out from (the plies, the seals and the openings heard), so that it is not every scan.
        self.sealing = ""
        self._sealing_of: tuple[int, int, int] | None = None

    def holds_elsewhere(self, player: int) -> bool:
        """Whether ``player``'s moves come from the broker."""
        return player not in (CHANCE, TERMINAL) and self.seats[player].remote

    def facts(self, state: State, chance: bool, faults: bool) -> RemoteFacts:
        """The game as this board sees it now, at ``state`` (``chance``: a chance node), for the views."""
        remote, fair_dice = self.remote, self.fair_dice
        # the fair dice's words refuse what breaks the rules as they look: asked only when the status line says
        # them (no fault), as the roll just asked
        waiting = fair_dice.waiting(state) if fair_dice and chance and not faults else ""
        return RemoteFacts(remote.link.game, remote.name, str(remote.link.broker), remote.connected,
                           dict(remote.online), remote.problem, remote.link.problem,
                           remote.header.dice if has_dice(state) else "", self.sealing, fair_dice is not None, waiting)

    # -- hearing --------------------------------------------------------------------------

    def hear(self, ply: int) -> frozenset[int]:
        """Take what the broker sent; the plies moves were heard for."""
        return self.remote.hear(ply + 1)

    def take_notes(self, state: State) -> str | None:
        """Refuse the moves heard out of turn; the last thing to tell (a refusal, a note of the link), or None."""
        note = self._refuse_out_of_turn(state)
        remote = self.remote
        if remote.notes:
            note = remote.notes.pop()
            remote.notes.clear()
        return note

    def news(self, state: State, heard: frozenset[int]) -> bool:
        """Whether the next ply's move was heard or what it waits for changed: the seat to move may have decided."""
        remote, before = self.remote, self.sealing
        if (basis := (len(state.history), len(remote.seals), len(remote.opened))) != self._sealing_of:
            self.sealing, self._sealing_of = self._sealing_words(state), basis  # the first heard are kept: lengths
        return len(state.history) + 1 in heard or before != self.sealing

    def _sealing_words(self, state: State) -> str:
        """In a game hiding values: whose seals the next remote move waits for, or the check of the others'
        openings once the game is over; "" else."""
        remote = self.remote
        if not hides_values(state):
            return ""
        if state.is_terminal():
            return end_check(state, remote.header, remote.seals, remote.opened, remote.name)
        player = mover(state)
        return unsealed(state, remote.header, remote.seals, remote.header.seats[player]) \
            if self.holds_elsewhere(player) else ""

    def _refuse_out_of_turn(self, state: State) -> str | None:
        """A move heard for the ply this board's own seat is to make (or after the game's end) is refused
        like one that fails a check: it can come only from someone not holding that seat."""
        player, seq, name = mover(state), len(state.history) + 1, self.remote.name
        if self.holds_elsewhere(player):
            return None
        note = None
        for message in self.remote.candidates(seq):  # only other holders' moves are followed
            reason = words.GAME_OVER_REFUSAL if player == TERMINAL else words.not_holder(message.by, name)
            self.remote.refuse(message, reason)
            note = words.refused(message.by, seq, message.move, reason)
        return note

    # -- deciding -------------------------------------------------------------------------

    def decide(self, state: State, history: Sequence[str], turn_start: int, shown: Decided | None) -> Decided | None:
        """The remote seat's move for this ply, once it has come and is checked; None before."""
        move = self.move(state)
        if move is None:
            return None
        player = state.current_player
        return Decided(self.seats[player].holder or "remote", player, len(history), (str(move),))

    def roll(self, state: State) -> Move | None:
        """The roll at the chance node ``state``: the fair dice's (once every holder's secret is in), or the
        remote seat's whose roll it is, checked."""
        if self.fair_dice is not None:
            rolled = self.fair_dice.roll(state, self.chain)
            if rolled is None:
                return None
            return self.move(state) if self.holds_elsewhere(mover(state)) else state.parse_move(rolled)
        return self.move(state)

    def move(self, state: State) -> Move | None:
        """The next ply's move as its seat's holder sent it, checked; a move that fails a check is refused
        (the reason told to all) and never applied."""
        seq, remote = len(state.history) + 1, self.remote
        holder = self.seats[mover(state)].holder
        if unsealed(state, remote.header, remote.seals, holder or ""):
            return None  # nothing of that seat is checked before its holder's seals are heard
        for message in remote.candidates(seq):
            checked = self._check(state, message, holder)
            if isinstance(checked, Move):
                remote.apply(message)  # the first copy that passes is the move: another is a rewrite
                return checked
            remote.refuse(message, checked)
            self.say(words.refused(message.by, seq, message.move, checked))
        return None

    def _check(self, state: State, message: MoveMessage, holder: str | None) -> Move | str:
        """The move ``message`` carries, or why it is refused.  A roll must be the one the fair dice gave.  A value
        it reveals must open its sender's seal; it is learnt into a copy of the game and the move checked there:
        only a move that passes changes the journal (setup first) and the game (replayed on it)."""
        checked, setup_learnt, learnt = check_learning(state, self.chain, message, holder, self.journal.setup,
                                                       self.remote.seals.get(message.by), self.held, self.fair_dice)
        if isinstance(checked, str) or setup_learnt is None:
            return checked
        try:
            self.journal.learn(setup_learnt)
        except JournalWriteError as exc:
            return words.cannot_keep(exc)
        self.adopt(learnt)
        return checked

    # -- publishing -----------------------------------------------------------------------

    def before(self, state: State, move: Move) -> tuple[int, dict[str, Any]]:
        """Who makes ``move`` at ``state`` and what it reveals: said when it is published."""
        return mover(state), revealed(state, move)

    def played(self, state: State, move: Move, made: tuple[int, dict[str, Any]], ended: bool) -> None:
        """``move`` is in the journal and played: published if one of this board's seats made it (``made``: from
        ``before``); at the game's end every seal is opened for checking."""
        remote, (player, reveal) = self.remote, made
        self.chain.record(state)
        if remote.holds(player):
            remote.publish(MoveMessage(len(state.history), str(move), remote.name, self.chain.head,
                                       openings(self.journal.remote_key, reveal)))
        if ended and hides_values(state):
            values = {token: state.values[token] for token in tokens_of(state, self.held)}
            remote.open(Opened(remote.name, openings(self.journal.remote_key, values)))
