"""The computer's strength: the arena's table for docs/computer.md, one row a match, printed as each ends.

Each row is what ``gameboard arena`` prints for the same arguments (the command is in the row).
Long games are costly at the default level, so the games per row are few: read the intervals.
Run from the repository: ``.venv/bin/python bench/strength.py [games multiplier]``.
"""

from __future__ import annotations

import sys
import time

from engine.ai.arena import play_match
from firmware_host.commands.arena import make_player

#: (game, options, players, games, max plies)
ROWS = [
    ("hexover", {}, ["computer:normal", "random"], 10, 5000),
    ("hexover", {}, ["computer:normal", "greedy"], 10, 5000),
    ("mono-line", {}, ["computer:normal", "random"], 10, 5000),
    ("mono-line", {}, ["computer:normal", "greedy"], 10, 5000),
    ("squareoff", {}, ["computer:normal", "random"], 6, 5000),
    ("squareoff", {}, ["computer:normal", "greedy"], 6, 5000),
    ("pawns-crossing", {}, ["computer:normal", "random"], 4, 3000),
    ("overpass", {"players": 2}, ["computer:normal", "random"], 4, 3000),
    ("groups-of-three", {}, ["computer:normal", "random"], 2, 4000),
    ("overpass", {"players": 3}, ["computer:normal", "greedy", "greedy"], 3, 4000),
]


def main() -> None:
    scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    print("| game | players | games | computer's score | 95 % interval | plies | seconds | command |")
    print("|---|---|---|---|---|---|---|---|")
    for game, options, names, games, max_plies in ROWS:
        games = max(2, round(games * scale))
        players = [make_player(name, seat) for seat, name in enumerate(names)]
        start = time.perf_counter()
        match = play_match(game, options, players, games, seed=0, max_plies=max_plies)
        seconds = time.perf_counter() - start
        record = match.records[0]
        low, high = record.interval()
        option = "".join(f" --option {k}={v}" for k, v in options.items())
        command = f"gameboard arena {game}{option} --players {' '.join(names)} --games {games} --max-plies {max_plies}"
        stopped = f" ({record.stopped} stopped)" if record.stopped else ""
        print(f"| {game} | {' vs '.join(names)} | {games} | {record.score:.0%} ({record.wins}-{record.draws}-"
              f"{record.losses}){stopped} | {low:.0%}-{high:.0%} | {sum(match.plies) / games:.0f} | {seconds:.0f} | "
              f"`{command}` |", flush=True)


if __name__ == "__main__":
    main()
