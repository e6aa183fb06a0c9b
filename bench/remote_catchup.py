"""Catching up through one broker: a whole long game fetched by a late spectator, and a restarted board under
50,000 junk retained messages.

Both run against a real Mosquitto on loopback with the queue limits of the documented configuration
(docs/mosquitto/gameboard.conf), the participant in a process of its own so that its memory is its own:

- **long game**: a four-player Over-Pass game of random moves (thousands of plies) retained on the
  broker as its boards left it; a spectator joins and follows it to its last ply, each move checked.
- **junk**: the same game's boards' moves, and 50,000 junk retained messages of about 500 bytes
  (moves of names holding no seat, a seat holder's moves far ahead, topics that are not the
  protocol's); alice's board restarts lacking the last ply, bob's.

Reported for each: the time until done, the messages the broker sent the participant, and the growth
of its process's peak resident size; for the restarted board, the peak of what Python allocated
meanwhile too (traced, so its time is not reported), with and without the junk.

    .venv/bin/python bench/remote_catchup.py [--junk 50000] [--seed 1]
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import paho.mqtt.client as mqtt

from engine.core import State
from engine.registry import game_class
from firmware_host.remote.following import most_sent_at_once
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker
from firmware_host.remote.moves import Chain, check, mover, published
from firmware_host.remote.participant import game_header
from firmware_host.remote.protocol import header_topic, move_topic
from firmware_host.remote.spectator import Spectator
from firmware_host.seats import HUMAN, Seat

GAME_ID = "friday"
NAMES = ("alice", "bob", "carol", "dave")
DOCUMENTED = Path(__file__).parents[1] / "docs" / "mosquitto" / "gameboard.conf"
LIMITS = ("max_queued_messages", "max_inflight_messages", "max_queued_bytes")
#: How long a run may take before it is reported as stuck (seconds).
TIMEOUT_S = 300.0


def load_broker():
    path = Path(__file__).parents[1] / "tests" / "remote" / "broker.py"
    spec = importlib.util.spec_from_file_location("bench_remote_broker", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def long_game(seed: int) -> State:
    """Four-player Over-Pass played at random to its end."""
    state, rng = game_class("overpass")(players=4).new_initial_state(), random.Random(seed)
    while not state.is_terminal():
        state.push(state.random_move(rng))
    return state


def retain(port: int, messages: list[tuple[str, bytes]]) -> None:
    """Publish ``messages`` retained, as the boards (and the junk's senders) left them on the broker."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="bench-publisher")
    client.max_queued_messages_set(0)
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        infos = [client.publish(topic, payload, qos=1, retain=True) for topic, payload in messages]
        for info in infos:
            info.wait_for_publish(60)
    finally:
        client.disconnect()
        client.loop_stop()


def game_messages(state: State) -> list[tuple[str, bytes]]:
    """The header and every move of ``state``'s game, as each seat's holder published them."""
    header = game_header(state.game, (HUMAN, *(Seat("remote", holder=name) for name in NAMES[1:])), NAMES[0])
    moves = published(state, Chain(state), NAMES)
    return [(header_topic(GAME_ID), header.payload()),
            *((move_topic(GAME_ID, message.by, seq), message.payload()) for seq, message in sorted(moves.items()))]


def junk(count: int, plies: int) -> list[tuple[str, bytes]]:
    """``count`` junk messages of about 500 bytes: a third moves of names holding no seat, a third bob's moves
    far ahead, a third topics that are not the protocol's."""
    base, filler = f"gameboard/v3/{GAME_ID}", "x" * 420
    made = []
    for number in range(count):
        kind = number % 3
        if kind == 0:
            topic, seq = f"{base}/by/mallory{number % 100}/move/{number // 100 + 1}", number // 100 + 1
        elif kind == 1:
            topic, seq = f"{base}/by/bob/move/{plies + 1000 + number}", plies + 1000 + number
        else:
            topic, seq = f"{base}/by/bob/notes/{number}", 0
        made.append((topic, f'{{"v": 3, "seq": {seq}, "move": "{filler}", "hash": "0"}}'.encode()))
    return made


def measured(run, *args, traced: bool) -> str:
    """``run(*args)`` in this (forked) process: its time (``traced``: the peak of what Python allocated
    instead), and the growth of the process's peak resident size."""
    resident = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if traced:
        tracemalloc.start()
    started = time.monotonic()
    what, received = run(*args)
    elapsed = time.monotonic() - started
    cost = f"{tracemalloc.get_traced_memory()[1] / 2**20:.1f} MiB allocated at the peak" if traced else \
        f"{elapsed:.2f} s"
    tracemalloc.stop()
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - resident) / 1024
    return f"{what}: {cost}, {received} messages received, the resident size's peak {grown:+.1f} MiB"


def follow_whole_game(port: int, plies: int) -> tuple[str, int]:
    """A spectator joining the game and following it to its last ply."""
    participant, game, _ = join(Broker("127.0.0.1", port), GAME_ID, "eve", wait=10)
    spectator = Spectator(participant, game)
    deadline = time.monotonic() + TIMEOUT_S
    try:
        while len(spectator.state.history) < plies and time.monotonic() < deadline:
            if not spectator.follow():
                time.sleep(0.002)
        return f"a spectator followed {len(spectator.state.history)} of {plies} plies", participant.link.received
    finally:
        participant.close()


def restart(port: int, position: State, chain: Chain) -> tuple[str, int]:
    """Alice's board restarting at ``position`` (``chain`` its hashes, as built at its start), one ply before
    the end: until the last move is heard and passes the checks."""
    seats = (HUMAN, *(Seat("remote", holder=name) for name in NAMES[1:]))
    participant = host(Broker("127.0.0.1", port), GAME_ID, "alice", position.game, seats)
    seq, holder = len(position.history) + 1, NAMES[mover(position)]
    deadline = time.monotonic() + TIMEOUT_S
    try:
        while time.monotonic() < deadline:
            participant.hear(seq)
            if any(not isinstance(check(position, chain, message, holder), str) for message in participant.candidates(seq)):
                return f"a board restarted had {holder}'s move {seq}", participant.link.received
            time.sleep(0.005)
        return f"a board restarted NEVER had {holder}'s move {seq}", participant.link.received
    finally:
        participant.close()


def in_child(run, *args, traced: bool = False) -> str:
    """``measured(run, *args)`` in a forked process of its own: its memory is the run's."""
    context = multiprocessing.get_context("fork")
    results = context.SimpleQueue()
    child = context.Process(target=lambda: results.put(measured(run, *args, traced=traced)))
    child.start()
    result = results.get()
    child.join()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--junk", type=int, default=50_000, help="junk retained messages (default 50000)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the game of random moves")
    args = parser.parse_args()
    broker_module = load_broker()
    if broker_module.find_mosquitto() is None:
        sys.exit("bench/remote_catchup.py: mosquitto is not installed: apt-get install mosquitto")
    limits = tuple(line for line in DOCUMENTED.read_text(encoding="utf-8").splitlines()
                   if line.split(" ")[0] in LIMITS)
    state = long_game(args.seed)
    plies = len(state.history)
    position = state.game.new_initial_state()
    for move in state.history[:-1]:
        position.push(move)
    chain = Chain(position)
    print(f"four-player Over-Pass, {plies} plies; the broker: {', '.join(limits)}; a window follows at most "
          f"{most_sent_at_once(len(NAMES))} topics (a spectator)")
    with tempfile.TemporaryDirectory() as folder:
        mosquitto = broker_module.Mosquitto(Path(folder), more=limits).start()
        try:
            retain(mosquitto.port, game_messages(state))
            print(in_child(follow_whole_game, mosquitto.port, plies), flush=True)
            print(in_child(restart, mosquitto.port, position, chain, traced=True), flush=True)
            retain(mosquitto.port, junk(args.junk, plies))
            print(f"{args.junk} junk retained messages added")
            print(in_child(restart, mosquitto.port, position, chain, traced=True), flush=True)
            dropped = mosquitto.log().count("Outgoing messages are being dropped")
            print(f"the broker logged \"Outgoing messages are being dropped\" {dropped} times")
        finally:
            mosquitto.kill()


if __name__ == "__main__":
    main()
