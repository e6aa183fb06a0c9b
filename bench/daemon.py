"""Benchmarks of the board daemon on the mock HAL; prints figures, asserts nothing.

    .venv/bin/python bench/daemon.py [--samples 2000] [--only latency idle thinking start]

- latency: a sensor change to the LED frame ready (one ``Daemon.step`` that sees the
  change), Over-Pass with 40 pieces and ~500 legal moves; and a move's acceptance
  (journal commit with fsync, new expectation, frame).  This is the software alone: it
  runs with debounce off and leaves out the wait for the next scan and the strip write,
  so the bench adds a modelled end-to-end figure with the default loop settings;
- idle CPU: ``Daemon.run`` scanning the 201 mock channels at 200 Hz with nothing happening;
- start to ready and resident memory: ``gameboard run`` as a process, READY=1 over a
  notify socket, VmRSS read from /proc;
- the scan period while the computer thinks: ``Daemon.step`` paced at 200 Hz as ``run``
  paces it, while the computer's worker process searches (Square Off, hard level).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from engine.core import State
from engine.registry import game_class
from firmware_host.config import Hal, LoopConfig
from firmware_host.daemon import DEFAULT_LOOP
from firmware_host.daemon import Daemon
from firmware_host.journal import Journal
from firmware_host.seats import Seat
from hal.clock import ManualClock
from hal.dice import RandomDice
from hal.mock import MockBoard
from wiring.model import straight_wiring

COLOURS = ("black", "white", "red", "blue")
#: A WS2812's data: 24 bits at 800 kHz an LED, then a reset (latch) of at least 280 us on newer parts.
WS2812_S_PER_LED = 24 / 800_000
WS2812_LATCH_S = 300e-6
MOCK_CONFIG = """\
[game]
name = "overpass"
[sensors]
driver = "mock"
board = "overpass"
[leds]
driver = "mock"
board = "overpass"
[buttons]
driver = "mock"
board = "overpass"
[journal]
path = "journal.sqlite3"
"""


def forty_pieces(seed: int = 2) -> State:
    """An Over-Pass position with all forty pieces on the board, black to move with a budget of 7."""
    game = game_class("overpass")()
    points = list(game.board.visible_points)
    random.Random(seed).shuffle(points)
    board = {point: COLOURS[i // 10] for i, point in enumerate(points[:40])}
    empty = dict.fromkeys(COLOURS, 0)
    return game.state_from_position({"turn": "black", "phase": "move", "roll": [3, 4], "budget": 7,
                                     "board": board, "reserve": empty, "home": empty})


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(what: str, timings: list[tuple[float, float]]) -> float:
    """p50 and p99 by wall clock (includes waiting for a core on a shared machine) and by CPU time; the wall p99."""
    wall = [w for w, _ in timings]
    cpu = [c for _, c in timings]
    print(f"  {what} ({len(timings)} samples): wall p50 {percentile(wall, 0.5) * 1e3:.3f} ms, "
          f"p99 {percentile(wall, 0.99) * 1e3:.3f} ms; CPU p50 {percentile(cpu, 0.5) * 1e3:.3f} ms, "
          f"p99 {percentile(cpu, 0.99) * 1e3:.3f} ms")
    return percentile(wall, 0.99)


def end_to_end(software_p99: float, strip_lengths: tuple[int, ...]) -> None:
    """The modelled time from a piece touching a sensor to its LEDs lit, with the default loop settings.

    The debounce time, half a scan period on average before the next scan sees the change, the
    software's p99, and the WS2812 frame: the strips are written one after another.
    """
    debounce = DEFAULT_LOOP.debounce_ms / 1000
    wait = 0.5 / DEFAULT_LOOP.scan_hz
    leds = sum(strip_lengths)
    write = leds * WS2812_S_PER_LED + len(strip_lengths) * WS2812_LATCH_S
    total = debounce + wait + software_p99 + write
    print(f"  modelled end to end, sensor touched -> LEDs lit: {total * 1e3:.1f} ms = debounce {debounce * 1e3:.1f} "
          f"+ half a scan period {wait * 1e3:.1f} + software p99 {software_p99 * 1e3:.2f} + WS2812 frame for "
          f"{leds} LEDs on {len(strip_lengths)} strip(s) {write * 1e3:.2f} ms")


def latency(samples: int, folder: Path) -> None:
    state = forty_pieces()
    clock = ManualClock()
    wiring = straight_wiring(state.game.board)
    mock = MockBoard(wiring, clock=clock)
    mock.set_contents({loc: piece for loc, piece in state.contents().items() if piece})
    loop = LoopConfig(debounce_ms=0, settle_ms=400)
    daemon = Daemon(state, Hal(mock.sensors, mock.leds, mock.buttons, RandomDice(1)), wiring,
                    Journal(folder / "latency.sqlite3"), clock, loop=loop)
    rng = random.Random(3)
    pieces = sorted(loc for loc, piece in mock.contents.items())
    moves = len(daemon.tracker.expectation.plans)
    change: list[tuple[float, float]] = []
    accept: list[tuple[float, float]] = []

    def timed_step(into: list[tuple[float, float]]) -> None:
        """One loop iteration 5 ms later, timed by the wall clock and by this process's CPU time."""
        clock.advance(0.005)
        wall, cpu = time.perf_counter(), time.process_time()
        daemon.step()
        into.append((time.perf_counter() - wall, time.process_time() - cpu))

    for _ in range(samples // 2):
        location = rng.choice(pieces)
        piece = mock.lift(location)
        timed_step(change)
        mock.place(location, piece)
        timed_step(change)
    for _ in range(max(20, samples // 40)):
        plan = rng.choice([plan for plan in daemon.tracker.expectation.plans if type(plan.move).__name__ == "Slide"])
        source, target = (c.location for c in sorted(plan.footprint.changes, key=lambda c: c.after is not None))
        mock.move(source, target)
        timed_step(change)
        clock.advance(loop.settle_ms / 1000)
        timed_step(accept)  # the slide accepted: journal, engine, new expectation, frame
        assert daemon.state.history[-1] == plan.move, daemon.status_text()
        daemon.press("undo")
        mock.move(target, source)
        timed_step(change)
    print(f"latency, Over-Pass with 40 pieces and {moves} legal moves (software only: debounce off, "
          "no wait for the scan, no strip write):")
    software = report("sensor change -> LED frame ready", change)
    report("move accepted (fsync'd journal commit, new expectation, frame)", accept)
    end_to_end(software, wiring.strip_lengths)
    daemon.close()


def idle_cpu(seconds: float, folder: Path) -> None:
    game = game_class("overpass")()
    wiring = straight_wiring(game.board)
    mock = MockBoard(wiring)
    mock.set_contents({loc: piece for loc, piece in game.new_initial_state().contents().items() if piece})
    daemon = Daemon(game, Hal(mock.sensors, mock.leds, mock.buttons, RandomDice(1)), wiring,
                    Journal(folder / "idle.sqlite3"), loop=LoopConfig(scan_hz=200))
    reads = 200
    start = time.process_time()
    for _ in range(reads):
        mock.sensors.read()
    read_cost = (time.process_time() - start) / reads
    timer = threading.Timer(seconds, daemon.stop)
    wall, cpu = time.monotonic(), time.process_time()
    timer.start()
    daemon.run()
    wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    share = cpu / wall
    print(f"idle: {mock.sensors.channels} mock channels at 200 Hz for {wall:.1f} s: {share * 100:.2f} % of one core "
          f"(of which the mock's own read(): {read_cost * 200 * 100:.2f} %)")


def while_thinking(folder: Path, decisions: int = 3) -> None:
    """Scan periods at 200 Hz while the computer's process searches, over ``decisions`` of its moves."""
    game = game_class("squareoff")()
    wiring = straight_wiring(game.board)
    mock = MockBoard(wiring)
    computer = Seat("computer", "hard")
    daemon = Daemon(game, Hal(mock.sensors, mock.leds, mock.buttons, RandomDice(1)), wiring,
                    Journal(folder / "thinking.sqlite3"), loop=LoopConfig(scan_hz=200), seats=(computer, computer))
    period, periods, thought = 1 / 200, [], []
    try:
        for _ in range(decisions):
            began = last = deadline = time.monotonic()
            while daemon.carry is None:
                daemon.step()
                now = time.monotonic()
                periods.append(now - last)
                last = now
                deadline = max(deadline + period, now)
                time.sleep(max(0.0, deadline - time.monotonic()))
            thought.append(time.monotonic() - began)
            plies = len(daemon.state.history)
            after = {change.location: change.after for change in daemon.state.footprint(daemon.carry.move).changes}
            mock.set_contents({loc: piece for loc, piece in {**mock.contents, **after}.items() if piece})
            while len(daemon.state.history) == plies:  # the hand carried it out: the daemon accepts it
                daemon.step()
                time.sleep(period)
    finally:
        daemon.close()
    print(f"scan period while the computer thinks (Square Off, hard; {len(periods)} scans over {sum(thought):.1f} s "
          f"of thinking): p50 {percentile(periods, 0.5) * 1e3:.2f} ms, p99 {percentile(periods, 0.99) * 1e3:.2f} ms, "
          f"max {max(periods) * 1e3:.2f} ms (the goal: 5 ms at 200 Hz)")


def start_to_ready(folder: Path, runs: int = 3) -> None:
    config = folder / "gameboard.toml"
    config.write_text(MOCK_CONFIG)
    command = str(Path(sys.executable).with_name("gameboard"))
    times, rss = [], []
    for run in range(runs):
        address = str(folder / f"notify{run}")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
            listener.bind(address)
            listener.settimeout(30)
            start = time.perf_counter()
            process = subprocess.Popen([command, "run", "--config", str(config)],
                                       env={**os.environ, "NOTIFY_SOCKET": address}, cwd=folder)
            while not listener.recv(4096).startswith(b"READY=1"):
                pass
            times.append(time.perf_counter() - start)
            time.sleep(1.0)
            status = Path(f"/proc/{process.pid}/status").read_text()
            rss.append(int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS"))))
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
    print(f"start to ready (gameboard run, Over-Pass on the mock HAL): median {statistics.median(times):.3f} s "
          f"of {', '.join(f'{t:.3f}' for t in times)}")
    print(f"resident memory after a second of running: median {statistics.median(rss) / 1024:.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=2000, help="sensor changes to time (default 2000)")
    parser.add_argument("--idle-seconds", type=float, default=5.0, help="how long to measure idle CPU (default 5)")
    parser.add_argument("--only", choices=["latency", "idle", "thinking", "start"], nargs="+",
                        help="only these measurements")
    args = parser.parse_args()
    chosen = set(args.only or ("latency", "idle", "thinking", "start"))
    with tempfile.TemporaryDirectory() as folder:
        if "latency" in chosen:
            latency(args.samples, Path(folder))
        if "idle" in chosen:
            idle_cpu(args.idle_seconds, Path(folder))
        if "thinking" in chosen:
            while_thinking(Path(folder))
        if "start" in chosen:
            start_to_ready(Path(folder))


if __name__ == "__main__":
    main()
