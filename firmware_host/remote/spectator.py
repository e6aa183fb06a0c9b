"""A spectator: a read-only page following a remote game, with no board and no seat.

It hears the moves as every participant does and applies each in order once it passes the
same checks as on a board (``firmware_host.remote.moves``).  Started after a holder rewrote a
move, it may hear only the rewrite: a participant's report of it (``Rewrite``) puts back the
copy that participant applied, and the page says who rewrote what.  It knows no hidden value but
those revealed, each checked against its holder's seal (``firmware_host.remote.seals``):
Pawns Crossing's tokens it has not seen declared are dealt at random in its copy, and never
shown.  At the game's end it checks every participant's openings, as the boards do.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from engine.core import Game, Move
from engine.errors import GameboardError
from engine.hidden import PUBLIC, deal_unseen, hides_values, seen_by
from firmware_host.remote.dice import FairDice, has_dice
from firmware_host.remote.moves import Chain, check_learning, mover, replay
from firmware_host.remote.participant import Participant
from firmware_host.remote.protocol import FAIR, MoveMessage, Rewrite, position_hash
from firmware_host.remote.seals import end_check, unsealed
from firmware_host.web.view import DICE_WORDS, READ_ONLY_VIEW, BoardPicture

#: How often the spectator takes what the broker sent (seconds).
FOLLOW_S = 0.05


class Spectator:
    """The game ``participant`` (holding no seat) follows, as the page shows it."""

    def __init__(self, participant: Participant, game: Game) -> None:
        self.participant = participant
        self.game = game
        self.picture = BoardPicture(game.board, game.pieces)
        start = game.new_initial_state()
        if position_hash(start) != participant.header.setup:
            raise GameboardError(f"the game {participant.link.game} starts from another position than "
                                 f"{game.title} with {game.options}: this version cannot follow it")
        self.setup = game.state_from_position(deal_unseen(start, seen_by(start, PUBLIC), random.Random())).to_json()
        self.state = replay(self.setup, [])
        self.chain = Chain(self.state)
        #: The fair dice, checked here as on every board (None: a game without dice, or dice by hand).
        self.fair_dice = FairDice(participant, None) if participant.header.dice == FAIR and has_dice(start) else None
        self.note = ""
        self._reports = 0
        self._event = asyncio.Event()

    def follow(self) -> bool:
        """Apply every move heard that is next in order and passes the checks; whether any was."""
        self.participant.hear(len(self.state.history) + 1)
        for rewrite in self.participant.reported[self._reports:]:
            self._follow_report(rewrite)
        self._reports = len(self.participant.reported)
        applied = False
        while not self.state.is_terminal():
            seq, player = len(self.state.history) + 1, mover(self.state)
            holder = self.participant.header.seats[player] if player >= 0 else None
            if holder is not None and unsealed(self.state, self.participant.header, self.participant.seals, holder):
                return applied  # nothing of that seat is checked before its holder's seals are heard
            dice = self.fair_dice if self.state.is_chance_node() else None
            if dice is not None and dice.roll(self.state, self.chain) is None:
                return applied  # not every secret is in: the roll cannot be checked yet
            move = None
            for message in self.participant.candidates(seq):
                checked = self._check(message, holder)
                if not isinstance(checked, str):
                    move = checked
                    break
                self.participant.refuse(message, checked)
                self.note = f"refused {message.by}'s move {seq} ({message.move}): {checked}"
            if move is None:
                return applied
            self.participant.apply(message)
            self.state.push(move)
            self.chain.record(self.state)
            applied = True
        return applied

    def _follow_report(self, rewrite: Rewrite) -> None:
        """Follow the copy ``rewrite.reporter`` applied, going back to it if the rewrite was followed here."""
        seq, first, later = rewrite.applied.seq, rewrite.applied, rewrite.refused
        self.participant.follow_report(rewrite)
        followed = self.participant.applied.get(seq)
        if followed is not None and followed.hash == later.hash:
            while len(self.state.history) >= seq:
                self.state.pop()
            self.chain.cut(seq - 1)
            self.participant.reconsider(seq)
        self.note = (f"{rewrite.reporter} reports that {first.by} rewrote move {seq} ({first.move}) as "
                     f"{later.move}: refused, {first.move} stands")

    def _check(self, message: MoveMessage, holder: str | None) -> Move | str:
        """The move ``message`` carries, or why it is refused.  A roll must be the one the fair dice gave.  A value
        it reveals must open its sender's seal, and is learnt into a copy of the game, kept only if the move passes
        its checks there."""
        checked, setup, state = check_learning(self.state, self.chain, message, holder, lambda: self.setup,
                                               self.participant.seals.get(message.by), (), self.fair_dice)
        if not isinstance(checked, str):
            self.setup, self.state = setup or self.setup, state
        return checked

    async def run(self) -> None:
        """Follow the game until cancelled, waking the page at each move."""
        shown = None
        while True:
            self.follow()
            if self.participant.notes:
                self.note = self.participant.notes.pop()
                self.participant.notes.clear()
            now = (len(self.state.history), self.note, self.sealing(), self.participant.connected,
                   dict(self.participant.online))
            if now != shown:
                shown = now
                self._event.set()
                self._event = asyncio.Event()
            await asyncio.sleep(FOLLOW_S)

    def sealing(self) -> str:
        """In a game hiding values: whose seals the next move waits for, or the check of every opening at the end."""
        state, participant = self.state, self.participant
        if not hides_values(state):
            return ""
        if state.is_terminal():
            return end_check(state, participant.header, participant.seals, participant.opened, None)
        return unsealed(state, participant.header, participant.seals, participant.header.seats[mover(state)])

    def changed(self) -> asyncio.Event:
        return self._event

    def act(self, action: dict[str, Any]) -> None:
        raise GameboardError("this page follows a remote game: it takes no moves")

    def status(self) -> str:
        state, header = self.state, self.participant.header
        outcome = state.outcome()
        sealing = self.sealing()
        if outcome is not None:
            who = ", ".join(self.game.player_name(p) for p in outcome.winners) or "nobody"
            return f"game over: {outcome.reason}; won by {who}" + (f"; {sealing}" if sealing else "")
        player = mover(state)
        holder = header.seats[player]
        waiting = sealing or f"waiting for the {'roll' if state.is_chance_node() else 'move'}"
        if state.is_chance_node() and self.fair_dice is not None and not sealing:
            pending = self.fair_dice.waiting(state) or f"{holder}'s roll"
            waiting = f"waiting for the roll: fair dice, waiting for {pending}"
        online = "" if self.participant.online.get(holder, True) else f" ({holder} is offline)"
        link = "" if self.participant.connected else f" ({self.participant.link.problem or 'connecting'})"
        return f"{self.game.player_name(player)} ({holder}): {waiting}{online}{link}"

    def view(self) -> dict[str, Any]:
        state, header = self.state, self.participant.header
        pieces = {location: piece for location, piece in state.contents().items() if piece}
        player = state.current_player
        turn = self.game.player_name(player) if 0 <= player < self.game.num_players else ""
        return {
            **READ_ONLY_VIEW,
            "title": f"{self.game.title}: {self.participant.link.game} (watching)",
            "game": self.game.name,
            **self.picture.view(pieces),
            "turn": turn,
            "turn_colour": self.game.pieces.get(state.turn_piece() or "", ""),
            "dice": "",
            "status": self.status() + (f" - {self.note}" if self.note else ""),
            "log": [str(move) for move in state.history],
            "legend": [],  # no LEDs here
            "faults": [],
            "remote": f"watching {self.participant.link.game} on {self.participant.link.broker}: "
                      + ", ".join(f"{self.game.player_name(p)} {holder}" for p, holder in enumerate(header.seats))
                      + DICE_WORDS[header.dice if has_dice(state) else ""],
            "piece_colours": self.game.pieces,
        }
