"""Players against each other: seats rotated, everything seeded, win rates with 95 % confidence intervals.

``play_match`` plays ``games`` games of one game between 2-4 players; game ``g`` seats
the players rotated by ``g`` places, so each sits each seat equally often over a multiple
of the player count.  Dice come from the match's seed, and each player is built with a
seed of its own by the caller: a match is reproduced exactly from its seed.  A game still
going after ``max_plies`` is stopped and counted a draw.  A draw counts half a win in the
score, whose interval is Wilson's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai.player import Player
from engine.registry import new_game

#: z for a two-sided 95 % interval.
Z95 = 1.959964


@dataclass
class Record:
    """One player's results over a match."""

    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    #: Games stopped at the ply cap (counted among the draws).
    stopped: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Wins, and half of each draw, per game."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins + self.draws / 2, self.games)


@dataclass
class Match:
    game: str
    options: dict[str, Any]
    players: int
    records: list[Record] = field(default_factory=list)
    plies: list[int] = field(default_factory=list)

    @property
    def fair_share(self) -> float:
        return 1 / self.players


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_match(game: str, options: dict[str, Any], players: Sequence[Player], games: int, seed: int = 0,
               max_plies: int = 5000, progress: Callable[[int, int], None] | None = None) -> Match:
    """``games`` games between ``players`` (one per seat), seats rotated each game."""
    first = new_game(game, **options)
    seats = first.game.num_players
    if seats < 2:
        raise ValueError(f"{game} is a puzzle for one player: the arena needs a game of 2-4 players")
    if len(players) != seats:
        raise ValueError(f"{game} with these options has {seats} seats: give {seats} players, not {len(players)}")
    match = Match(game, dict(options), seats, [Record(player.name) for player in players])
    for number in range(games):
        order = [(number + seat) % seats for seat in range(seats)]  # seat -> index of the player sitting there
        state = new_game(game, **options)
        dice = random.Random(f"{seed}:{number}")
        while not state.is_terminal() and len(state.history) < max_plies:
            if state.is_chance_node():
                state.push(state.random_move(dice))
            else:
                state.push(players[order[state.current_player]].choose(state))
        outcome = state.outcome()
        match.plies.append(len(state.history))
        for seat, index in enumerate(order):
            record = match.records[index]
            if outcome is None:
                record.draws += 1
                record.stopped += 1
            elif seat in outcome.winners and len(outcome.winners) == 1:
                record.wins += 1
            elif not outcome.winners or seat in outcome.winners:
                record.draws += 1
            else:
                record.losses += 1
        if progress is not None:
            progress(number + 1, games)
    return match
