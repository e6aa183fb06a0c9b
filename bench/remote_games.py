"""Whole games of every 2-player game between two noisy mock boards, each in its own process, through a
real Mosquitto: the long proof the test suite plays only the last 150 plies of (tests/remote/test_faults.py).

Each board plays its seat's moves at random (from the seed and the ply) and carries out the other's
as its LEDs show them; the two roll fair dice together (docs/remote.md), or enter rolls drawn from the
seed with ``--dice "by hand"``.  Prints each game's plies, time and moves a second, and whether both journals
hold the same finished game.

    .venv/bin/python bench/remote_games.py [--games overpass groups-of-three ...] [--seed 1] [--limit 1800]
                                           [--dice fair|"by hand"]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

TESTS = Path(__file__).parents[1] / "tests" / "remote"
GAMES = {"hexover": {}, "mono-line": {}, "squareoff": {}, "overpass": {"players": 2}, "groups-of-three": {},
         "pawns-crossing": {}}


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_remote_{name}", TESTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def play(game: str, seed: int, limit: float, dice: str) -> str:
    """One whole game; its line of the table."""
    broker, boards_module = load("broker"), load("boards")
    with tempfile.TemporaryDirectory() as folder:
        mosquitto = broker.Mosquitto(Path(folder)).start()
        boards = [boards_module.Board(Path(folder), mosquitto.port, "bench", seat, game, GAMES[game], seed + seat,
                                      dice=dice) for seat in (0, 1)]
        started = time.monotonic()
        for board in boards:
            board.start()
        try:
            boards_module.wait_all(boards, timeout=limit)
            verdict = "same finished game" if boards[0].moves() == boards[1].moves() else "JOURNALS DIFFER"
        except AssertionError as exc:
            verdict = f"not finished: {exc}"
        finally:
            for board in boards:
                board.stop()
            mosquitto.kill()
        seconds = time.monotonic() - started
        plies = max(len(board.moves()) for board in boards)
    return f"{game:16} {plies:6} {seconds:8.1f} {plies / seconds:8.1f}  {verdict}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", choices=list(GAMES), default=list(GAMES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=1800.0, help="seconds one game may take (default 1800)")
    parser.add_argument("--dice", choices=["fair", "by hand"], default="fair", help="how the rolls are made")
    args = parser.parse_args()
    if load("broker").find_mosquitto() is None:
        sys.exit("bench/remote_games.py: mosquitto is not installed: apt-get install mosquitto")
    print(f"{'game':16} {'plies':>6} {'seconds':>8} {'plies/s':>8}  both journals")
    for game in args.games:
        print(play(game, args.seed, args.limit, args.dice), flush=True)


if __name__ == "__main__":
    main()
