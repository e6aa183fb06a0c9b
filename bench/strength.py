"""The computer's strength: the arena's table for docs/computer.md, one row a match, printed as each ends.

Each row is what ``gameboard arena`` prints for the same arguments (the command is in the row).
Long games are costly at the default level, so the games per row are few: read the intervals.
Run from the repository: ``.venv/bin/python bench/strength.py [--scale X] [--jobs N] [--only GAME ...]``.
"""

from __future__ import annotations

import argparse
import functools
import os
import time

from engine.ai.arena import play_match
from firmware_host.commands.arena import make_player

#: (game, options, players, games, max plies)
ROWS = [
    ("hexover", {}, ["computer:normal", "random"], 30, 5000),
    ("hexover", {}, ["computer:normal", "greedy"], 30, 5000),
    ("mono-line", {}, ["computer:normal", "random"], 30, 5000),
    ("mono-line", {}, ["computer:normal", "greedy"], 30, 5000),
    ("squareoff", {}, ["computer:normal", "random"], 12, 5000),
    ("squareoff", {}, ["computer:normal", "greedy"], 12, 5000),
    ("pawns-crossing", {}, ["computer:normal", "random"], 4, 3000),
    ("pawns-crossing", {}, ["computer:normal", "greedy"], 4, 3000),
    ("overpass", {"players": 2}, ["computer:normal", "greedy"], 4, 4000),
    ("groups-of-three", {}, ["computer:normal", "greedy"], 4, 6000),
    ("overpass", {"players": 3}, ["computer:normal", "greedy", "greedy"], 3, 6000),
    ("groups-of-three", {"players": 3}, ["computer:normal", "greedy", "greedy"], 3, 6000),
    ("overpass", {"players": 4}, ["computer:normal", "greedy", "greedy", "greedy"], 4, 8000),
    ("groups-of-three", {"players": 4}, ["computer:normal", "greedy", "greedy", "greedy"], 4, 8000),
    ("overpass", {"players": 2}, ["computer:normal", "random"], 4, 4000),
    ("groups-of-three", {}, ["computer:normal", "random"], 4, 6000),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="games per row, times this")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games at once (default: every core)")
    parser.add_argument("--only", nargs="+", metavar="GAME", help="only the rows of these games")
    args = parser.parse_args()
    print("| game | players | games | computer's score | 95 % interval | plies | seconds | command |")
    print("|---|---|---|---|---|---|---|---|")
    for game, options, names, games, max_plies in ROWS:
        if args.only and game not in args.only:
            continue
        games = max(2, round(games * args.scale))
        players = [functools.partial(make_player, name) for name in names]
        start = time.perf_counter()
        match = play_match(game, options, players, games, seed=0, max_plies=max_plies, jobs=args.jobs)
        seconds = time.perf_counter() - start
        record = match.records[0]
        low, high = record.interval()
        option = "".join(f" --option {k}={v}" for k, v in options.items())
        command = (f"gameboard arena {game}{option} --players {' '.join(names)} --games {games} "
                   f"--max-plies {max_plies} --jobs {args.jobs}")
        stopped = f" ({record.stopped} stopped)" if record.stopped else ""
        print(f"| {game} | {' vs '.join(names)} | {games} | {record.score:.0%} ({record.wins}-{record.draws}-"
              f"{record.losses}){stopped} | {low:.0%}-{high:.0%} | {sum(match.plies) / games:.0f} | {seconds:.0f} | "
              f"`{command}` |", flush=True)


if __name__ == "__main__":
    main()
