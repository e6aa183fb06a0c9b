"""``gameboard arena GAME --players A B ...``: players against each other, with win rates and 95% intervals.

The searching players (the computer and plain UCT) get the same budget at the same level: a whole
turn within the level's Raspberry Pi 4 seconds divided by ``--speed``, on the CPU clock of the
process playing the game (``time.process_time``), so a loaded machine does not favour either.
Deadlines make a game depend on timing: only ``--simulations`` (a fixed budget per step) repeats
a match exactly from its seed.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import time
from typing import Any, TextIO

from engine.ai.arena import Match, new_match, play_games
from engine.ai.baselines import GreedyPlayer, RandomPlayer
from engine.ai.levels import DEFAULT_LEVEL, LEVELS
from engine.ai.player import Computer, Player
from engine.ai.speed import PI4, measure
from engine.ai.uct import UCTPlayer
from engine.errors import GameboardError
from engine.registry import GAMES
from firmware_host.commands.arguments import add_option_argument, game_options, speed_argument

#: The players that search, at a level's budget.
SEARCHERS = {"computer": Computer, "uct": UCTPlayer}
PLAYER_KINDS = ["random", "greedy"] + [f"{kind}:{name}" for kind in SEARCHERS for name in LEVELS]
#: More processes than this only wait for the cores.
MAX_JOBS = 64


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "arena", help="play computer players and baselines against each other; win rates with 95%% intervals",
        description="Seats rotate every game; dice and players are seeded.  The computer and plain UCT (uct) get "
                    "the same CPU time a turn at the same level: the level's Raspberry Pi 4 seconds divided by "
                    "--speed.  Their deadlines make games depend on timing, so only --simulations repeats a run "
                    "exactly from its seed.")
    parser.add_argument("game", choices=list(GAMES), help="the game (2-4 players)")
    parser.add_argument("--players", nargs="+", required=True, metavar="PLAYER",
                        help=f"one per seat: {', '.join(PLAYER_KINDS)} (computer means computer:normal, uct "
                             f"uct:normal: plain UCT, random playouts to the game's end, an independent opponent)")
    parser.add_argument("--games", type=_count, default=20, help="games to play (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the dice and the players (default 0)")
    add_option_argument(parser, "players=2")
    parser.add_argument("--max-plies", type=_count, default=5000,
                        help="a game still going after this many plies is stopped and counted a draw (default 5000)")
    parser.add_argument("--jobs", type=_jobs, default=1,
                        help=f"games played at once, each in its own process, 1 to {MAX_JOBS} (default 1; the "
                             f"results are the same; this machine has {os.cpu_count() or 1} cores)")
    parser.add_argument("--speed", type=speed_argument, default=None,
                        help="this machine's speed as a multiple of a Raspberry Pi 4's: a level's turn takes its Pi 4 "
                             "seconds divided by this, in CPU seconds (default auto: measured once at the start)")
    parser.add_argument("--simulations", type=_count, metavar="N",
                        help="give the computer and uct players N simulations a step and no deadline: slower "
                             "or faster than their level, but a run is repeated exactly by its seed")
    parser.add_argument("--json", action="store_true", help="the results as JSON")
    parser.set_defaults(handler=run_arena)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give at least 1")
    return value


def _jobs(text: str) -> int:
    jobs = _count(text)
    if jobs > MAX_JOBS:
        raise argparse.ArgumentTypeError(f"{text!r}: give at most {MAX_JOBS} (about one per core: this machine has "
                                         f"{os.cpu_count() or 1})")
    return jobs


def make_player(text: str, seed: int, *, speed: float = PI4, simulations: int | None = None) -> Player:
    """The player ``text`` names; a searching one with a turn of its level's seconds / ``speed`` in CPU
    time, or ``simulations`` a step."""
    if text == "random":
        return RandomPlayer(seed)
    if text == "greedy":
        return GreedyPlayer(seed)
    kind, colon, level = text.partition(":")
    if kind in SEARCHERS and (level in LEVELS if colon else True):
        return SEARCHERS[kind](level or DEFAULT_LEVEL, seed, speed=speed, simulations=simulations,
                               clock=time.process_time)
    raise GameboardError(f"no player {text!r}; players: {', '.join(PLAYER_KINDS)} (computer and uct alone: "
                         f"at {DEFAULT_LEVEL})")


def searches(texts: list[str]) -> bool:
    """Whether any of these players searches to a deadline (and so needs the machine's speed)."""
    return any(text.partition(":")[0] in SEARCHERS for text in texts)


def run_arena(args: argparse.Namespace) -> int:
    speed = PI4
    if searches(args.players) and args.simulations is None:
        speed = measure() if args.speed is None else args.speed
    players = [functools.partial(make_player, text, speed=speed, simulations=args.simulations)
               for text in args.players]
    options = game_options(args.option)
    try:
        match = new_match(args.game, options, players, args.seed)
    except ValueError as exc:
        raise GameboardError(str(exc)) from None
    bar = ProgressBar(sys.stderr)
    stopped = False
    try:
        for result in play_games(args.game, options, players, args.games, args.seed, args.max_plies, args.jobs):
            match.add(result)
            bar(len(match.played), args.games)
    except KeyboardInterrupt:  # the games played so far are worth their table
        stopped = True
    bar.done()
    if stopped:
        print(f"gameboard arena: stopped by Ctrl-C after {len(match.played)} of {args.games} games", file=sys.stderr)
    budget = budget_note(args.players, speed, args.simulations)
    if match.played:
        print(json.dumps(as_json(match) | {"budget": budget}, indent=2) if args.json
              else table(match) + (f"\n{budget}" if budget else ""))
    return 130 if stopped else 0


def budget_note(texts: list[str], speed: float, simulations: int | None) -> str:
    """What the searching players were given, or "" without any."""
    if not searches(texts):
        return ""
    if simulations is not None:
        return f"computer and uct: {simulations} simulations a step, no deadline"
    levels = sorted({text.partition(":")[2] or DEFAULT_LEVEL for text in texts if text.partition(":")[0] in SEARCHERS},
                    key=list(LEVELS).index)
    turns = ", ".join(f"{name} {LEVELS[name].seconds / speed:.2f} s" for name in levels)
    return f"computer and uct: a turn within the level's Pi 4 seconds / speed {speed:.2f}, in CPU time ({turns})"


def as_json(match: Match) -> dict[str, Any]:
    return {"game": match.game, "options": match.options, "games": len(match.plies), "fair_share": match.fair_share,
            "mean_plies": sum(match.plies) / len(match.plies),
            "players": [{"name": r.name, "wins": r.wins, "draws": r.draws, "losses": r.losses, "stopped": r.stopped,
                         "score": r.score, "interval95": list(r.interval())} for r in match.records]}


def table(match: Match) -> str:
    """The results as a table, one row per player."""
    named = f"{match.game} {json.dumps(match.options)}" if match.options else match.game
    lines = [f"{named}: {len(match.plies)} games, "
             f"{sum(match.plies) / len(match.plies):.0f} plies on average; a draw counts half"
             + (f"; fair share {match.fair_share:.0%}" if match.players > 2 else ""),
             f"{'player':<18} {'wins':>5} {'draws':>6} {'losses':>7}  {'score':>6}  95% interval"]
    for record in match.records:
        low, high = record.interval()
        stopped = f"  ({record.stopped} stopped at the ply cap)" if record.stopped else ""
        lines.append(f"{record.name:<18} {record.wins:>5} {record.draws:>6} {record.losses:>7}  "
                     f"{record.score:>6.1%}  {low:.1%} - {high:.1%}{stopped}")
    return "\n".join(lines)


class ProgressBar:
    """Games played, on one redrawn line of a terminal, else a line every tenth of the way."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self.redraw = stream.isatty()
        self.shown = -1

    def __call__(self, played: int, games: int) -> None:
        if self.redraw:
            filled = round(self.width * played / games)
            self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {played}/{games} games")
        elif (tenth := played * 10 // games) > self.shown:
            self.shown = tenth
            self.stream.write(f"{played}/{games} games\n")
        self.stream.flush()

    def done(self) -> None:
        if self.redraw:
            self.stream.write("\n")
