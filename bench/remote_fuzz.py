"""Hostile peers at length: thousands of random and broken messages to a board, a joined simulator and a
spectator of one game, through a real Mosquitto on loopback.

The same messages and the same game as tests/remote/test_fuzz.py (tests/remote/hostile.py), drawn at
random instead of from a fixed seed, over more plies: at each ply, ``--examples`` batches of 1-4
messages; after each batch, nothing may have changed (journals, games, a move to carry out, a fault);
then a real move is played and both others take it.  Reported: the messages sent, what alice's board
made of them (dropped as garbled, read as messages), the refusals the three published, the exceptions
(raised by a participant's step, or logged by a link's thread as a bug) and the batches after which
something had changed, both of which must be 0, and the time taken.

    .venv/bin/python bench/remote_fuzz.py [--plies 6] [--examples 300] [--seed N]
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from firmware_host.remote.link import Garbled  # noqa: E402


def helper(path: Path) -> ModuleType:
    """A test helper module by path (as tests/remote/conftest.py loads them)."""
    name = f"bench_remote_fuzz_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    sys.modules[name] = module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Bugs(logging.Handler):
    """Counts what is logged as an error: the link's thread logs there what it could not read."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(self.format(record))


def tally(link, heard: Counter, marker_of) -> None:
    """Count what ``link`` hands over, by kind (an observer on the real link)."""
    events = link.events

    def counted():
        got = events()
        heard.update("marker" if marker_of(event) else "garbled" if isinstance(event, Garbled) else "read"
                     for event in got)
        return got

    link.events = counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=6, help="plies played, each after its attack (default 6)")
    parser.add_argument("--examples", type=int, default=300, help="batches of messages per ply (default 300)")
    parser.add_argument("--seed", type=int, default=None, help="hypothesis's seed (default: a random one)")
    args = parser.parse_args()

    broker, hostile = helper(ROOT / "tests/remote/broker.py"), helper(ROOT / "tests/remote/hostile.py")
    tables, hands = helper(ROOT / "tests/daemon/tables.py"), helper(ROOT / "tests/daemon/hands.py")
    if broker.find_mosquitto() is None:
        sys.exit("mosquitto is not installed: apt-get install mosquitto")
    bugs = Bugs()
    logging.getLogger().addHandler(bugs)
    heard: Counter[str] = Counter()
    exceptions: list[str] = []
    changed: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "broker").mkdir()
        mosquitto = broker.Mosquitto(Path(folder) / "broker").start()
        table = hostile.Table(tables, hands, Path(folder), mosquitto.port, seed=args.seed or 0)
        tally(table.alice.remote.link, heard, hostile.marker_of)
        batches = sent = 0
        started = time.monotonic()
        try:
            for _ in range(args.plies):
                ply = table.ply()

                @settings(max_examples=args.examples, derandomize=False, database=None, deadline=None,
                          suppress_health_check=list(HealthCheck))
                @given(st.lists(hostile.messages(ply), min_size=1, max_size=4))
                def attack(messages: list[tuple[str, bytes]]) -> None:
                    nonlocal batches, sent
                    batches, sent = batches + 1, sent + len(messages)
                    marker = table.send(messages)
                    try:
                        table.read(marker)
                    except Exception:  # counted, never raised: hypothesis would stop the run to shrink it
                        exceptions.append(traceback.format_exc())
                        return
                    changed.extend(f"{problem} after {messages!r:.300}" for problem in table.unchanged())

                if args.seed is not None:
                    attack = seed(args.seed + len(table.spectator.state.history))(attack)
                attack()
                table.play()
        finally:
            table.close()
            mosquitto.kill()
        seconds = time.monotonic() - started
    refusals = len(table.peer.refusals())
    print(f"plies {args.plies}, batches {batches}, messages sent {sent} in {seconds:.1f} s "
          f"({sent / seconds:.0f} messages/s, all three participants stepping)")
    print(f"alice's board: {heard['garbled']} dropped as garbled (noted), {heard['read']} read as messages (moves, "
          f"refusals, presences, headers); refusals published by the three: {refusals}")
    print(f"exceptions: {len(exceptions) + len(bugs.records)} (raised {len(exceptions)}, logged by a link "
          f"{len(bugs.records)}); batches after which something changed: {len(changed)}")
    for problem in (exceptions + bugs.records + changed)[:3]:
        print(problem)
    sys.exit(1 if exceptions or bugs.records or changed else 0)


if __name__ == "__main__":
    main()
