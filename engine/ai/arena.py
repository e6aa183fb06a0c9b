"""Players against each other: seats rotated, everything seeded, win rates with 95 % confidence intervals.

``play_match`` plays ``games`` games of one game between 2-4 players; game ``g`` seats
the players rotated by ``g`` places, so each sits each seat equally often over a multiple
of the player count.  Every game builds its players afresh, each with a seed drawn from
the match's seed, the game's number and the player's place, and draws its dice likewise,
so its games may run in several processes.  A match is reproduced exactly from its seed
where the players' budgets are fixed (random, greedy, searches of a fixed number of
simulations); players searching to a deadline depend on timing as well.  Each game is
played in one process, so a player's deadline on that process's CPU clock
(``time.process_time``) gives each the same work however loaded the machine is.
A game still going after ``max_plies`` is stopped and counted a draw.  A draw counts half
a win in the score, whose interval is Wilson's.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
import random
import signal
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai.player import Player
from engine.deals import match_deal
from engine.registry import game_class, new_game

#: Builds a player from its seed (module-level functions and their partials, so a process pool can send them).
PlayerFactory = Callable[[int], Player]

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
    #: The games played so far, in the order they ended.
    played: list[Played] = field(default_factory=list)

    @property
    def fair_share(self) -> float:
        return 1 / self.players

    @property
    def plies(self) -> list[int]:
        """Each game's length, by game number."""
        return [result.plies for result in sorted(self.played, key=lambda result: result.number)]

    def add(self, result: Played) -> None:
        """Count one game's result in each player's record."""
        self.played.append(result)
        for index, verdict in enumerate(result.verdicts):
            record = self.records[index]
            setattr(record, verdict, getattr(record, verdict) + 1)
            if verdict == "draws" and result.stopped:
                record.stopped += 1


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_match(game: str, options: dict[str, Any], players: Sequence[PlayerFactory], games: int, seed: int = 0,
               max_plies: int = 5000, progress: Callable[[int, int], None] | None = None, jobs: int = 1) -> Match:
    """``games`` games between the players ``players`` build (one per seat), seats rotated each game,
    spread over ``jobs`` processes (the results do not depend on how many)."""
    match = new_match(game, options, players, seed)
    for result in play_games(game, options, players, games, seed, max_plies, jobs):
        match.add(result)
        if progress is not None:
            progress(len(match.played), games)
    return match


def new_match(game: str, options: dict[str, Any], players: Sequence[PlayerFactory], seed: int = 0) -> Match:
    """A match with no game played yet; a ValueError says why these players cannot play this game."""
    seats = new_game(game, **options).game.num_players
    if seats < 2:
        raise ValueError(f"{game} is a puzzle for one player: the arena needs a game of 2-4 players")
    if len(players) != seats:
        raise ValueError(f"{game} with these options has {seats} seats: give {seats} players, not {len(players)}")
    return Match(game, dict(options), seats, [Record(make(seed).name) for make in players])


def play_games(game: str, options: dict[str, Any], players: Sequence[PlayerFactory], games: int, seed: int = 0,
               max_plies: int = 5000, jobs: int = 1, first: int = 0) -> Iterator[Played]:
    """Each result of games ``first`` to ``games - 1`` as it ends, the games spread over ``jobs`` processes.  Ctrl-C interrupts this process
    alone (the others ignore it), which then ends the others: the results already yielded are all there is."""
    play = functools.partial(play_game, game, options, tuple(players), seed, max_plies)
    if jobs == 1:
        yield from map(play, range(first, games))
        return
    with multiprocessing.Pool(min(jobs, games - first), initializer=signal.signal,
                              initargs=(signal.SIGINT, signal.SIG_IGN)) as pool:
        yield from pool.imap_unordered(play, range(first, games))


@dataclass(frozen=True)
class Played:
    """Game ``number``'s length, whether the ply cap stopped it, and each player's "wins", "draws" or "losses"."""

    number: int
    plies: int
    stopped: bool
    verdicts: tuple[str, ...]


def play_game(game: str, options: dict[str, Any], players: Sequence[PlayerFactory], seed: int, max_plies: int,
              number: int) -> Played:
    """Game ``number`` of a match: the players rotated by ``number`` seats, each built, the dice drawn and a
    random set-up dealt (unless the options give its seed) from the match's seed and the game's number, so any
    game replays alone."""
    seats = len(players)
    order = [(number + seat) % seats for seat in range(seats)]  # seat -> index of the player sitting there
    seated = [players[index](player_seed(seed, number, index)) for index in order]
    state = match_deal(game_class(game)(**options), seed, number).new_initial_state()
    dice = random.Random(f"{seed}:{number}")
    while not state.is_terminal() and len(state.history) < max_plies:
        if state.is_chance_node():
            state.push(state.random_move(dice))
        else:
            state.push(seated[state.current_player].choose(state))
    outcome = state.outcome()
    verdicts = [""] * seats
    for seat, index in enumerate(order):
        if outcome is None:
            verdicts[index] = "draws"
        elif seat in outcome.winners and len(outcome.winners) == 1:
            verdicts[index] = "wins"
        elif not outcome.winners or seat in outcome.winners:
            verdicts[index] = "draws"
        else:
            verdicts[index] = "losses"
    return Played(number, len(state.history), outcome is None, tuple(verdicts))


def player_seed(seed: int, number: int, index: int) -> int:
    """The seed of player ``index`` in game ``number`` of the match seeded ``seed``."""
    return zlib.crc32(f"{seed}:{number}:{index}".encode())

