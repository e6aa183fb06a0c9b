"""The game on this board and its journal, kept in step: a move is played only once the journal has it,
and a remote game's moves are published only then (``docs/daemon.md``: a move is never shown as
accepted before it is in the journal)."""

from __future__ import annotations

import random

from engine.core import Game, Move, State
from engine.deals import fresh_deal, same_game
from engine.hidden import PUBLIC, deal_unseen, seen_by
from firmware_host.deciders.remote import RemoteSeats
from firmware_host.journal import Journal, JournalWriteError
from firmware_host.remote.participant import Participant


def opening_state(journal: Journal, state_or_game: State | Game, remote: Participant | None, resume: bool,
                  deals: random.Random | None) -> State:
    """An explicit position starts a new game; a game resumes the journal's unfinished one of the same kind
    (any deal, if it asks for none), or starts one dealt afresh (from ``deals``).  A remote game's deal is its
    header's."""
    game_id = remote.link.game if remote is not None else None
    header = remote.header.payload().decode() if remote is not None else None
    if isinstance(state_or_game, State):
        journal.start(state_or_game, game_id, header)
        return state_or_game
    resumed = journal.resume() if resume else None
    if resumed is not None and same_game(state_or_game, resumed.game) and journal.remote == game_id \
            and (remote is None or remote.plays(journal.remote_header)):
        return resumed
    state = (state_or_game if remote is not None else fresh_deal(state_or_game, deals)).new_initial_state()
    if remote is not None:  # the values this board's seats hide, dealt here and known only here
        state = state.game.state_from_position(deal_unseen(state, seen_by(state, PUBLIC), random.SystemRandom()))
    journal.start(state, game_id, header)
    return state


class PlayedGame:
    """The engine's state of the game, its history in notation (kept as the game goes: snapshots are taken on
    every change) and the journal; in a remote game, the link that publishes this board's moves."""

    def __init__(self, journal: Journal, state: State) -> None:
        self.journal = journal
        self.state = state
        self.history = [str(move) for move in state.history]
        self.link: RemoteSeats | None = None

    def push(self, move: Move) -> None:
        """Play ``move`` once it is in the journal (with the result, if it ends the game); then publish it if one
        of this board's seats made it in a remote game.  A JournalWriteError leaves the game as it was."""
        link = self.link
        made = link.before(self.state, move) if link is not None else None
        self.state.push(move)
        outcome = self.state.outcome()
        try:
            self.journal.record(move, None if outcome is None else outcome.reason)
        except JournalWriteError:
            self.state.pop()
            raise
        self.history.append(str(move))
        if link is not None and made is not None:
            link.played(self.state, move, made, outcome is not None)

    def take_back(self, plies: int) -> None:
        """The last ``plies`` moves taken back, first in the journal."""
        self.journal.take_back(plies)
        for _ in range(plies):
            self.state.pop()
        del self.history[len(self.history) - plies:]
        if self.link is not None:
            self.link.chain.cut(len(self.history))

    def start(self, state: State) -> None:
        """A new game from ``state``, first in the journal."""
        self.journal.start(state)
        self.state, self.history = state, []

    def adopt(self, state: State) -> None:
        """Play on ``state``: the game with the values a checked remote move revealed learnt."""
        self.state = state
