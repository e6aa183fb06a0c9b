"""The computer's strength at ``normal`` against honest baselines: the arena's table for docs/computer.md.

Each row is what ``gameboard arena`` prints for the same arguments (the command is in the row):
the computer against plain UCT of equal CPU time (``engine/ai/uct.py``: random playouts to the
end, no evaluation of ours), against random, and against greedy where greedy tells moves apart
(``--told-apart`` measures how often it does, against random).  Both searchers get the level's
Raspberry Pi 4 seconds divided by this machine's speed (measured once, or ``--speed``) of CPU
time a turn.  Long games cost minutes each here, so their rows have few games: read the intervals.
Ctrl-C prints the row of the games played so far (their numbers: the command with ``--games`` up to
the last replays them, timing aside) and stops.
Run from the repository: ``.venv/bin/python bench/strength.py [--jobs N] [--only GAME ...] [--against KIND ...]``.
"""

from __future__ import annotations

import argparse
import functools
import random
import signal
import time
from typing import Any

from engine.ai.arena import new_match, play_games
from engine.ai.baselines import GreedyPlayer, RandomPlayer
from engine.ai.levels import LEVELS
from engine.ai.speed import measure
from engine.registry import new_game
from firmware_host.commands.arena import make_player

#: Every 2-player game, its options and the ply cap of its rows.
GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("hexover", {}, 5000), ("mono-line", {}, 5000), ("squareoff", {}, 5000),
    ("overpass", {"players": 2}, 4000), ("groups-of-three", {}, 6000), ("pawns-crossing", {}, 3000),
]
#: Games a row plays, by game and opponent.  Greedy rows only where greedy tells moves apart in at least
#: a fifth of its decisions (``--told-apart``): not Groups-of-Three (15 %).
GAMES_PER_ROW: dict[str, dict[str, int]] = {
    "hexover": {"uct": 40, "random": 40, "greedy": 40},
    "mono-line": {"uct": 40, "random": 40, "greedy": 40},
    "squareoff": {"uct": 40, "random": 20, "greedy": 20},
    "overpass": {"uct": 40, "random": 10, "greedy": 10},
    "groups-of-three": {"uct": 40, "random": 10},
    "pawns-crossing": {"uct": 40, "random": 10, "greedy": 10},
}
OPPONENTS = {"uct": "uct:normal", "random": "random", "greedy": "greedy"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="games per row, times this")
    parser.add_argument("--jobs", type=int, default=2, help="games at once, each in its own process (default 2)")
    parser.add_argument("--only", nargs="+", metavar="GAME", help="only the rows of these games")
    parser.add_argument("--against", nargs="+", choices=list(OPPONENTS), help="only the rows against these")
    parser.add_argument("--first", type=int, default=0, metavar="N",
                        help="play each row's games from number N on (to add to a row stopped after N games)")
    parser.add_argument("--speed", type=float, help="this machine's speed against a Pi 4 (default: measured once)")
    parser.add_argument("--told-apart", action="store_true",
                        help="instead: how often greedy tells moves apart, 3 games against random in each game")
    args = parser.parse_args()
    signal.signal(signal.SIGINT, signal.default_int_handler)  # started in the background, Ctrl-C (kill -INT) still stops it
    games = [entry for entry in GAMES if not args.only or entry[0] in args.only]
    if args.told_apart:
        told_apart_table(games)
        return
    speed = args.speed or measure()
    print(f"speed {speed:.2f} (this machine against a modelled Pi 4): normal is "
          f"{LEVELS['normal'].seconds / speed:.2f} CPU seconds a turn")
    print("| game | players | games | computer's score (W-D-L) | 95 % interval | plies | seconds | command |")
    print("|---|---|---|---|---|---|---|---|")
    for game, options, max_plies in games:
        for against, count in GAMES_PER_ROW[game].items():
            if args.against and against not in args.against:
                continue
            row(game, options, ["computer:normal", OPPONENTS[against]], max(2, round(count * args.scale)), max_plies,
                speed, args.jobs, args.first)


def row(game: str, options: dict[str, Any], names: list[str], games: int, max_plies: int, speed: float,
        jobs: int, first: int = 0) -> None:
    """One row, printed when its games end, or at Ctrl-C with the games played so far (then the bench stops)."""
    players = [functools.partial(make_player, name, speed=speed) for name in names]
    match = new_match(game, options, players)
    start = time.perf_counter()
    try:
        for result in play_games(game, options, players, games, 0, max_plies, jobs, first):
            match.add(result)
    except KeyboardInterrupt:
        stopped_early = True
    else:
        stopped_early = False
    seconds = time.perf_counter() - start
    if not match.played:
        raise SystemExit(f"{game}: stopped before a game ended")
    played = sorted(result.number for result in match.played)
    record = match.records[0]
    low, high = record.interval()
    option = "".join(f" --option {k}={v}" for k, v in options.items())
    command = (f"gameboard arena {game}{option} --players {' '.join(names)} --games {games} "
               f"--max-plies {max_plies} --speed {speed:.2f} --jobs {jobs}")
    stopped = f" ({record.stopped} stopped)" if record.stopped else ""
    named = f"{game} ({options['players']} players)" if options else game
    count = f"{games}"
    if stopped_early or first:
        count = f"{len(played)} (games {_ranges(played)} of {games}{', stopped by Ctrl-C' if stopped_early else ''})"
    print(f"| {named} | {' vs '.join(names)} | {count} | {record.score:.0%} ({record.wins}-{record.draws}-"
          f"{record.losses}){stopped} | {low:.0%}-{high:.0%} | {sum(match.plies) / len(played):.0f} | {seconds:.0f} | "
          f"`{command}` |", flush=True)
    if stopped_early:
        raise SystemExit(130)


def _ranges(numbers: list[int]) -> str:
    """Game numbers as ranges: 0-11, 13."""
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][1] + 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in spans)


def told_apart_table(games: list[tuple[str, dict[str, Any], int]], plays: int = 3, max_plies: int = 1500) -> None:
    """Greedy against random, seats alternating: the share of greedy's decisions (of more than one move)
    where its values do not tie every move, one ply ahead (as it was) and to the end of its own turn."""
    print("| game | one ply ahead | to the end of its turn | plies of the 3 games (to its turn's end) |")
    print("|---|---|---|---|")
    for game, options, _ in games:
        cells = []
        for budget in (0, GreedyPlayer().budget):
            greedy, plies = GreedyPlayer(1, budget=budget), 0
            for number in range(plays):
                state, other, dice = new_game(game, **options), RandomPlayer(number), random.Random(number)
                while not state.is_terminal() and len(state.history) < max_plies:
                    if state.is_chance_node():
                        state.push(state.random_move(dice))
                    else:
                        mover = greedy if state.current_player == number % 2 else other
                        state.push(mover.choose(state))
                plies += len(state.history)
            cells.append(f"{greedy.told_apart / max(1, greedy.decisions):.1%} ({greedy.told_apart}/{greedy.decisions})")
        print(f"| {game} | {cells[0]} | {cells[1]} | {plies} |", flush=True)


if __name__ == "__main__":
    main()
