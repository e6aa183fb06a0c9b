"""The arena: Wilson's interval, seats rotated, a match reproduced from its seed, the ply cap, the command, Ctrl-C,
plain UCT and the computer at equal CPU time."""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.ai.arena import play_game, play_games, play_match, wilson
from engine.ai.baselines import GreedyPlayer, RandomPlayer
from engine.core import State
from engine.registry import new_game
from firmware_host.cli import main
from firmware_host.commands.arena import make_player


def test_wilsons_interval_matches_known_values():
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


class Seated:
    """A random player that notes, in a set shared by its games, the seat it was asked to move for."""

    def __init__(self, name: str, seed: int, seats: set[int]) -> None:
        self.name = name
        self.inner = RandomPlayer(seed)
        self.seats = seats

    def choose(self, state: State):
        self.seats.add(state.current_player)
        return self.inner.choose(state)


def test_every_player_sits_every_seat_and_every_game_is_counted_once_per_player():
    seats: list[set[int]] = [set(), set(), set()]
    players = [functools.partial(Seated, f"p{i}", seats=seats[i]) for i in range(3)]
    match = play_match("overpass", {"players": 3}, players, 3, seed=1, max_plies=200)
    assert seats == [{0, 1, 2}] * 3
    assert [record.games for record in match.records] == [3, 3, 3]
    assert match.fair_share == pytest.approx(1 / 3)


def test_a_match_is_reproduced_from_its_seed_in_one_process_or_several_and_the_ply_cap_counts_a_draw():
    def run(seed, jobs=1):
        match = play_match("hexover", {}, [RandomPlayer, GreedyPlayer], 6, seed=seed, max_plies=20, jobs=jobs)
        return [(r.wins, r.draws, r.losses, r.stopped) for r in match.records], match.plies
    assert run(5) == run(5) == run(5, jobs=2)
    assert run(5) != run(6)
    results, plies = run(5)
    assert max(plies) <= 20 and results[0][3] == sum(1 for n in plies if n == 20) > 0
    assert min(plies) < 20, "some games end before the cap"


def test_the_games_from_a_number_on_are_those_games_of_the_whole_match():
    def played(first: int, jobs: int = 1) -> dict:
        return {r.number: r for r in play_games("mono-line", {}, [RandomPlayer, GreedyPlayer], 6, 3, 60, jobs, first)}
    whole = played(0)
    assert sorted(whole) == list(range(6))
    assert played(4) == played(4, jobs=2) == {4: whole[4], 5: whole[5]}


class Dealt:
    """A random player that notes the layout of each position it is asked about (a game with a random set-up)."""

    def __init__(self, seed: int, layouts: list[dict]) -> None:
        self.inner = RandomPlayer(seed)
        self.layouts = layouts

    def choose(self, state: State):
        self.layouts.append(state.layout())
        return self.inner.choose(state)


def test_each_game_of_a_match_is_dealt_from_the_match_seed_and_its_number_unless_a_seed_is_asked():
    def layouts(seed: int, options: dict) -> list[dict]:
        seen: list[dict] = []
        player = functools.partial(Dealt, layouts=seen)
        for number in range(4):
            play_game("pawns-crossing", options, (player, player), seed, 1, number)  # one ply: the first to place
        return seen
    dealt = layouts(7, {})
    assert len(dealt) == 4 and all(a != b for a, b in itertools.combinations(dealt, 2)), "each game its own deal"
    assert layouts(7, {}) == dealt and layouts(8, {})[0] != dealt[0], "a match repeats from its seed"
    assert layouts(7, {"seed": 3}) == [new_game("pawns-crossing", seed=3).layout()] * 4


def test_the_command_prints_the_table_and_json_and_says_what_is_wrong(capsys):
    assert main(["arena", "hexover", "--players", "greedy", "random", "--games", "4", "--jobs", "2"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("hexover: 4 games") and "95% interval" in out.out and "greedy" in out.out
    assert "4/4 games" in out.err, "the progress"
    assert main(["arena", "mono-line", "--players", "random", "random", "--games", "2", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert results["games"] == 2 and sum(p["wins"] + p["draws"] + p["losses"] for p in results["players"]) == 4
    for argv, message in ((["full-house", "--players", "random"], "a puzzle for one player"),
                          (["squareoff", "--players", "random", "robot"], "no player 'robot'"),
                          (["squareoff", "--players", "random"], "give 2 players, not 1"),
                          (["squareoff", "--players", "random", "random", "--option", "variant=chess"], "variant"),
                          (["squareoff", "--players", "random", "random", "--option", "oops"], "KEY=VALUE")):
        assert main(["arena", *argv]) != 0
        assert message in capsys.readouterr().err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_prints_the_table_of_the_games_played(jobs: str) -> None:
    """Ctrl-C as a terminal sends it: SIGINT to the whole process group, the worker processes too."""
    command = [str(Path(sys.executable).with_name("gameboard")), "arena", "hexover", "--players", "greedy", "random",
               "--games", "100000", "--jobs", jobs]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)) as arena:
        first = arena.stderr.readline()
        assert first.startswith("1/100000 games"), first
        os.killpg(arena.pid, signal.SIGINT)
        try:
            out, err = arena.communicate(timeout=60)
        finally:  # whatever is left of the group, should the command hang
            with contextlib.suppress(ProcessLookupError):
                os.killpg(arena.pid, signal.SIGKILL)
    played = int(out.split(" games,")[0].removeprefix("hexover: "))
    assert arena.returncode == 130 and "Traceback" not in err, err
    assert f"stopped by Ctrl-C after {played} of 100000 games" in err and "greedy" in out and played >= 1, (out, err)


def test_plain_uct_and_the_computer_get_the_same_cpu_time_a_turn_at_a_level():
    for level, seconds in (("easy", 0.25), ("hard", 2.5)):
        computer, uct = make_player(f"computer:{level}", 1, speed=4.0), make_player(f"uct:{level}", 1, speed=4.0)
        assert computer.seconds == uct.seconds == seconds
        assert computer.clock is uct.clock is time.process_time
    assert make_player("uct", 1).name == "uct:normal"


def test_with_fixed_simulations_a_run_with_uct_repeats_from_its_seed_and_says_its_budget(capsys):
    argv = ["arena", "hexover", "--players", "uct", "computer:easy", "--games", "2", "--simulations", "20", "--json"]
    runs = []
    for _ in range(2):
        assert main(argv) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0] == runs[1] and [p["name"] for p in runs[0]["players"]] == ["uct:normal", "computer:easy"]
    assert runs[0]["budget"] == "computer and uct: 20 simulations a step, no deadline"
    for speed in ("0", "fast", "1000"):
        with pytest.raises(SystemExit):
            main(["arena", "hexover", "--players", "uct", "random", "--speed", speed])
        assert "give auto or a multiple of a Raspberry Pi 4's speed from 0.05 to 100" in capsys.readouterr().err
