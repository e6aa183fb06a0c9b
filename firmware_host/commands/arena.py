"""``gameboard arena GAME --players A B ...``: players against each other, with win rates and 95% intervals."""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from typing import Any, TextIO

from engine.ai.arena import Match, new_match, play_games
from engine.ai.baselines import GreedyPlayer, RandomPlayer
from engine.ai.levels import LEVELS
from engine.ai.player import Computer, Player
from engine.errors import GameboardError
from engine.registry import GAMES
from firmware_host.commands.arguments import add_option_argument, game_options

PLAYER_KINDS = ["random", "greedy"] + [f"computer:{name}" for name in LEVELS]
#: More processes than this only wait for the cores.
MAX_JOBS = 64


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "arena", help="play computer players and baselines against each other; win rates with 95%% intervals",
        description="Seats rotate every game; dice and players are seeded, so a run is repeated exactly by its seed.")
    parser.add_argument("game", choices=list(GAMES), help="the game (2-4 players)")
    parser.add_argument("--players", nargs="+", required=True, metavar="PLAYER",
                        help=f"one per seat: {', '.join(PLAYER_KINDS)} (computer means computer:normal)")
    parser.add_argument("--games", type=_count, default=20, help="games to play (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the dice and the players (default 0)")
    add_option_argument(parser, "players=2")
    parser.add_argument("--max-plies", type=_count, default=5000,
                        help="a game still going after this many plies is stopped and counted a draw (default 5000)")
    parser.add_argument("--jobs", type=_jobs, default=1,
                        help=f"games played at once, each in its own process, 1 to {MAX_JOBS} (default 1; the "
                             f"results are the same; this machine has {os.cpu_count() or 1} cores)")
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


def make_player(text: str, seed: int) -> Player:
    if text == "random":
        return RandomPlayer(seed)
    if text == "greedy":
        return GreedyPlayer(seed)
    kind, _, level = text.partition(":")
    if text == "computer" or (kind == "computer" and level in LEVELS):
        return Computer(level or "normal", seed)
    raise GameboardError(f"no player {text!r}; players: {', '.join(PLAYER_KINDS)}")


def run_arena(args: argparse.Namespace) -> int:
    players = [functools.partial(make_player, text) for text in args.players]
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
    if match.played:
        print(json.dumps(as_json(match), indent=2) if args.json else table(match))
    return 130 if stopped else 0


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
