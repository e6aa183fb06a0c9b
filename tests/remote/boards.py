"""Boards in two homes for the fault tests: each a ``board_target.py`` process, watched through what it prints."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

TARGET = Path(__file__).with_name("board_target.py")
NAMES = ("alice", "bob")


class Board:
    """One board's process (started again after a kill with the same journal) and the plies it accepted."""

    def __init__(self, folder: Path, port: int, game_id: str, seat: int, game: str, options: dict,
                 seed: int, offset: int = 0, dice: str = "by hand") -> None:
        self.name = NAMES[seat]
        self.journal = folder / f"{self.name}.sqlite3"
        self.args = [sys.executable, str(TARGET), str(self.journal), str(port), game_id, NAMES[seat], str(seat),
                     game, json.dumps(options), str(seed), str(offset), dice]
        self.plies = 0
        self.done = threading.Event()
        self.output: list[str] = []
        self.process: subprocess.Popen | None = None

    def start(self) -> Board:
        self.done.clear()
        self.process = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._read, args=(self.process,), daemon=True).start()
        return self

    def _read(self, process: subprocess.Popen) -> None:
        for line in process.stdout:
            self.output.append(line.rstrip())
            if line.startswith("accepted "):
                self.plies = int(line.split()[1])
            elif line.strip() == "done":
                self.done.set()

    def wait_plies(self, plies: int, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while self.plies < plies:
            assert self.process.poll() is None, self.failure("ended early")
            assert time.monotonic() < deadline, self.failure(f"reached only ply {self.plies} of {plies}")
            time.sleep(0.05)

    def wait_done(self, timeout: float = 180.0) -> None:
        assert self.done.wait(timeout), self.failure("did not finish its game")
        self.process.wait(timeout=10)
        assert self.process.returncode == 0, self.failure(f"exit code {self.process.returncode}")

    @property
    def failed(self) -> bool:
        """Whether the process ended before finishing its game."""
        return self.process.poll() is not None and not (self.done.is_set() and self.process.returncode == 0)

    def kill(self) -> None:
        """SIGKILL: a power cut of the process."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill()

    def moves(self) -> list[str]:
        """The moves of the journal's last game, read without writing to it."""
        with sqlite3.connect(f"{self.journal.as_uri()}?mode=ro", uri=True) as db:
            rows = db.execute("SELECT move FROM moves WHERE game = (SELECT max(id) FROM games) ORDER BY ply")
            return [move for (move,) in rows]

    def failure(self, what: str) -> str:
        return f"{self.name}'s board {what}; its last output:\n" + "\n".join(self.output[-15:])


def wait_all(boards: list[Board], timeout: float = 180.0) -> None:
    """Wait until every board has finished its game; a board that dies meanwhile fails at once, with its output."""
    deadline = time.monotonic() + timeout
    while not all(board.done.is_set() for board in boards):
        for board in boards:
            assert not board.failed, board.failure(f"ended with code {board.process.returncode} before its game did")
        assert time.monotonic() < deadline, "; ".join(board.failure("did not finish") for board in boards
                                                      if not board.done.is_set())
        time.sleep(0.05)
    for board in boards:
        board.wait_done(timeout=10)
