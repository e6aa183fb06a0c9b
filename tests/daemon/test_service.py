"""The daemon as a process: systemd's notify protocol, SIGTERM, and SIGKILL at random points."""

from __future__ import annotations

import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

from engine.registry import game_class

HERE = Path(__file__).parent
COMMAND = str(Path(sys.executable).with_name("gameboard"))

MOCK_CONFIG = """\
[game]
name = "squareoff"
[sensors]
driver = "mock"
board = "squareoff"
[leds]
driver = "mock"
board = "squareoff"
[buttons]
driver = "mock"
board = "squareoff"
[journal]
path = "journal.sqlite3"
"""


def test_run_says_ready_feeds_the_watchdog_and_stops_cleanly_on_sigterm(tmp_path: Path) -> None:
    config = tmp_path / "gameboard.toml"
    config.write_text(MOCK_CONFIG)
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(address)
        listener.settimeout(20)
        env = {**os.environ, "NOTIFY_SOCKET": address, "WATCHDOG_USEC": "200000"}
        env.pop("WATCHDOG_PID", None)
        process = subprocess.Popen([COMMAND, "run", "--config", str(config)], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            messages = [listener.recv(4096).decode()]
            assert messages[0].startswith("READY=1\nSTATUS=")
            assert messages[0].endswith("black to move: place a black piece on a green light")  # an empty board
            messages.append(listener.recv(4096).decode())
            assert messages[1] == "WATCHDOG=1"
            process.send_signal(signal.SIGTERM)
            while (message := listener.recv(4096).decode()) != "STOPPING=1":
                assert message.startswith(("WATCHDOG=1", "STATUS="))
            assert process.wait(timeout=20) == 0
        finally:
            process.kill()
            process.wait()
    assert (tmp_path / "journal.sqlite3").exists()


def intended_game(hands, seed: int, plies: int) -> list[str]:
    """The moves the kill target plays: each depends on the seed and the ply only."""
    state = game_class("squareoff")().new_initial_state()
    while not state.is_terminal() and len(state.history) < plies:
        state.push(hands.pick(state, random.Random(f"{seed}:{len(state.history)}")))
    return [str(move) for move in state.history]


def test_a_daemon_killed_at_random_points_and_restarted_loses_no_accepted_move(tmp_path: Path, hands) -> None:
    seed, plies = 4, 150
    intended = intended_game(hands, seed, plies)
    rng = random.Random(1)
    kills = 0
    # A fast machine may finish a game between few kills: play games until enough kills are seen.
    for game in range(10):
        kills += play_to_the_end_through_kills(tmp_path / f"journal{game}.sqlite3", intended, seed, rng)
        if kills >= 5:
            break
    assert kills >= 5


def play_to_the_end_through_kills(journal_path: Path, intended: list[str], seed: int, rng: random.Random) -> int:
    """Run the target, SIGKILL it at a random point, run it again..., until its game is done; the kills."""
    kills = 0
    for _ in range(30):
        process = subprocess.Popen([sys.executable, str(HERE / "kill_target.py"), str(journal_path), str(seed),
                                    str(len(intended))], stdout=subprocess.PIPE, text=True)
        # Kill after a random number of accepted moves (none: while it starts), a random moment later.
        lines = [process.stdout.readline().strip() for _ in range(rng.choice([0, 1, 3, 8, 20]))]
        time.sleep(rng.uniform(0.0, 0.3 if not lines else 0.02))
        process.send_signal(signal.SIGKILL)
        lines += process.communicate(timeout=30)[0].splitlines()
        kills += process.returncode == -signal.SIGKILL
        accepted = [line.split()[1:] for line in lines if line.startswith("accepted")]
        recorded = latest_game_moves(journal_path)
        assert recorded == intended[:len(recorded)], "the journal left the intended game"
        if accepted:
            assert len(recorded) >= int(accepted[-1][0]), f"accepted {accepted[-1]} but the journal has {len(recorded)}"
        if lines and lines[-1] == "done":
            assert latest_game_moves(journal_path) == intended
            return kills
    raise AssertionError("the game never finished")


def latest_game_moves(journal_path: Path) -> list[str]:
    """The moves of the journal's latest game, finished or not, read straight from SQLite."""
    if not journal_path.exists():
        return []
    with closing(sqlite3.connect(journal_path)) as db:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'moves'").fetchone():
            return []  # killed before it made its tables
        rows = db.execute("SELECT move FROM moves WHERE game = (SELECT max(id) FROM games) ORDER BY ply")
        return [text for (text,) in rows]


def test_ctrl_c_in_the_simulator_after_the_computer_moved_prints_no_traceback(tmp_path: Path) -> None:
    """Ctrl-C in a terminal sends SIGINT to the whole foreground process group, the computer's worker with it:
    the simulator stops with its exit code and no KeyboardInterrupt traceback from either process."""
    journal = tmp_path / "sim.sqlite3"
    process = subprocess.Popen([COMMAND, "sim", "squareoff", "--seats", "computer:easy", "human", "--auto",
                                "--journal", str(journal), "--port", str(free_port())],
                               env={**os.environ, "XDG_STATE_HOME": str(tmp_path)}, start_new_session=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not latest_game_moves(journal):  # the computer's move, carried out by the simulated hands
            assert process.poll() is None and time.monotonic() < deadline, process.communicate(timeout=5)
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=20)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130 and "Traceback" not in stderr, stderr


def free_port() -> int:
    with closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
