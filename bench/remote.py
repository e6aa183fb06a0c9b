"""A club night on one broker: N participants in N/2 games of Square Off through a real Mosquitto on loopback.

Each participant is the real stack minus the hardware: a ``Link`` and ``Participant`` to the
broker, a ``Journal`` on disk (SQLite, synchronous=FULL, as on a Pi) and the engine.  It makes
its own moves at random after a think time, journals them and publishes them; it checks
each move it hears as a board does (the holder of the seat to move, legal, the hash) and
journals it.  A finished game starts again under a new game id.  The participants run in a
few worker processes, the two of a game in different ones.

Reported for each N: the moves journalled by their receivers, the latency from the sender's
journal commit to the receiver's (CLOCK_MONOTONIC is one clock for every process of a Linux
machine), the broker's CPU as a share of one core, and this machine's load.  Both journals of
every game are compared at the end.

    .venv/bin/python bench/remote.py [--n 2 20 100] [--seconds 20] [--think 0.5 1.5] [--workers 2]
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import os
import random
import resource
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from engine.registry import game_class
from firmware_host.journal import Journal
from firmware_host.remote.join import host
from firmware_host.remote.link import Broker
from firmware_host.remote.moves import Chain, check
from firmware_host.remote.protocol import MoveMessage
from firmware_host.seats import HUMAN, Seat

GAME = "squareoff"
#: How often a worker looks at each of its participants (seconds).
POLL_S = 0.005


def load_broker():
    path = Path(__file__).parents[1] / "tests" / "remote" / "broker.py"
    spec = importlib.util.spec_from_file_location("bench_remote_broker", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Seated:
    """One participant: its seat in its current game, its journal, its game."""

    table: int
    seat: int
    folder: Path
    port: int
    rng: random.Random
    think: tuple[float, float]
    round: int = 0

    def sit(self) -> None:
        """Join the table's current game (round)."""
        game = game_class(GAME)()
        names = (f"t{self.table}a", f"t{self.table}b")
        seats = tuple(HUMAN if player == self.seat else Seat("remote", holder=names[player]) for player in (0, 1))
        self.game_id = f"club-{self.table}-{self.round}"
        self.journal = Journal(self.folder / f"{names[self.seat]}-{self.round}.sqlite3")
        self.state = game.new_initial_state()
        self.chain = Chain(self.state)
        self.journal.start(self.state, remote=self.game_id)
        self.remote = host(Broker("127.0.0.1", self.port), self.game_id, names[self.seat], game, seats)
        self.holders = seats
        self.move_at = time.monotonic() + self.rng.uniform(*self.think)

    def step(self, commits: list[tuple[str, int, str, float]]) -> None:
        """Hear, then make this seat's move when its think time is over, or journal the other seat's."""
        self.remote.hear(len(self.state.history) + 1)
        state = self.state
        if state.is_terminal():
            self.remote.close()
            self.journal.close()
            self.round += 1
            self.sit()
            return
        seq = len(state.history) + 1
        if state.current_player == self.seat:
            if time.monotonic() >= self.move_at:
                move = state.random_move(self.rng)
                self._commit(move)
                commits.append((self.game_id, seq, "sent", time.monotonic()))
                self.remote.publish(MoveMessage(seq, str(move), self.remote.name, self.chain.head))
            return
        holder = self.remote.header.seats[state.current_player]
        for message in self.remote.candidates(seq):
            checked = check(state, self.chain, message, holder)
            if not isinstance(checked, str):
                self._commit(checked)
                commits.append((self.game_id, seq, "heard", time.monotonic()))
                self.move_at = time.monotonic() + self.rng.uniform(*self.think)
                return

    def _commit(self, move) -> None:
        self.state.push(move)
        self.chain.record(self.state)
        outcome = self.state.outcome()
        self.journal.record(move, None if outcome is None else outcome.reason)

    def close(self) -> None:
        self.remote.link.close(wait=0.5)
        self.journal.close()


def work(seated: list[Seated], seconds: float, results: multiprocessing.Queue) -> None:
    """A worker process: its participants, stepped in turn for ``seconds``; the commit times to ``results``."""
    commits: list[tuple[str, int, str, float]] = []
    for participant in seated:
        participant.sit()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for participant in seated:
            participant.step(commits)
        time.sleep(POLL_S)
    for participant in seated:
        participant.close()
    results.put(commits)


def run(n: int, seconds: float, think: tuple[float, float], workers: int, seed: int, broker_module) -> str:
    """One row of the table: N participants for ``seconds``."""
    with tempfile.TemporaryDirectory() as folder:
        mosquitto = broker_module.Mosquitto(Path(folder)).start()
        rng = random.Random(seed)
        tables = n // 2
        seated = [Seated(table, seat, Path(folder), mosquitto.port, random.Random(rng.random()), think)
                  for table in range(tables) for seat in (0, 1)]
        groups = [seated[index::workers] for index in range(workers)]  # a table's two seats in two workers
        results: multiprocessing.Queue = multiprocessing.get_context("fork").Queue()
        processes = [multiprocessing.get_context("fork").Process(target=work, args=(group, seconds, results))
                     for group in groups if group]
        cpu_before, children_before = mosquitto.cpu_seconds(), _children_cpu()
        started = time.monotonic()
        for process in processes:
            process.start()
        commits = [commit for _ in processes for commit in results.get()]
        for process in processes:
            process.join()
        elapsed = time.monotonic() - started
        broker_cpu = (mosquitto.cpu_seconds() - cpu_before) / elapsed * 100
        bench_cpu = (_children_cpu() - children_before) / elapsed * 100
        mosquitto.kill()
        latencies = latencies_ms(commits)
        agree = journals_agree(Path(folder))
    if not latencies:
        return f"{n:5} {tables:6}  no move was heard"
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    p50, p99 = cuts[49], cuts[98]
    return (f"{n:5} {tables:6} {len(latencies):7} {p50:8.1f} {p99:8.1f} {max(latencies):8.1f} {broker_cpu:9.1f}"
            f" {bench_cpu:8.0f} {os.getloadavg()[0]:5.1f}"
            f"  {agree}")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def latencies_ms(commits: list[tuple[str, int, str, float]]) -> list[float]:
    """Each heard move's delay from its sender's commit to its receiver's, in milliseconds."""
    sent = {(game, seq): at for game, seq, kind, at in commits if kind == "sent"}
    return [(at - sent[(game, seq)]) * 1000 for game, seq, kind, at in commits
            if kind == "heard" and (game, seq) in sent]


def journals_agree(folder: Path) -> str:
    """Whether both journals of every game hold the same moves (the one behind may lack its last move)."""
    games: dict[str, list[list[str]]] = {}
    for path in sorted(folder.glob("t*-*.sqlite3")):
        name, round_ = path.stem.split("-")  # t3a-0: table 3, seat a, its first game
        with sqlite3.connect(path) as db:
            games.setdefault(f"{name[1:-1]}-{round_}", []).append(
                [move for (move,) in db.execute("SELECT move FROM moves ORDER BY ply")])
    differ = [game for game, (a, b) in ((g, m) for g, m in games.items() if len(m) == 2)
              if a[:min(len(a), len(b))] != b[:min(len(a), len(b))] or abs(len(a) - len(b)) > 1]
    return f"journals agree ({len(games)} games)" if not differ else f"JOURNALS DIFFER: {', '.join(differ)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[2, 20, 100], help="participants (default 2 20 100)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each N plays (default 20)")
    parser.add_argument("--think", type=float, nargs=2, default=[0.5, 1.5], metavar=("MIN", "MAX"),
                        help="a participant's think time before its move, in seconds (default 0.5 1.5)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    broker_module = load_broker()
    if broker_module.find_mosquitto() is None:
        sys.exit("bench/remote.py: mosquitto is not installed: apt-get install mosquitto")
    print(f"{os.cpu_count()} cores; {args.seconds:.0f} s per row; think {args.think[0]}-{args.think[1]} s; "
          f"{args.workers} worker processes")
    print(f"{'N':>5} {'games':>6} {'moves':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'broker %':>9} "
          f"{'bench %':>8} {'load':>5}")
    for n in args.n:
        print(run(n, args.seconds, tuple(args.think), args.workers, args.seed, broker_module), flush=True)
    print("latency: from the sender's journal commit to the receiver's (checked and committed); broker %: the "
          "broker's CPU as a share of one core; bench %: the participants' processes, which share the machine")


if __name__ == "__main__":
    main()
