"""The chained hash at the length of a long four-player Over-Pass game (4,000 plies): what a check of one
move costs with the chain kept as the game goes (``moves.Chain``), against replaying the history for it,
and what a board pays once at start (the chain and the outbox rebuilt from the journal's history).

Figures are CPU time; a Raspberry Pi 4 takes about 5 times this machine's: the last column says so.

    .venv/bin/python bench/remote_chain.py [--plies 4000] [--repeat 200]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from engine.core import State
from engine.public import public_text
from engine.registry import game_class
from firmware_host.remote.moves import Chain, check, published
from firmware_host.remote.protocol import MoveMessage

PI_FACTOR = 5
HOLDERS = ("alice", "bob", "carol", "dave")


def long_game(plies: int) -> State:
    """A random four-player Over-Pass game of at least ``plies`` plies, cut there."""
    game = game_class("overpass")()
    for seed in range(100):
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal() and len(state.history) < plies:
            state.push(state.random_move(rng))
        if len(state.history) == plies:
            return state
    raise SystemExit(f"no random game of 100 reached {plies} plies")


def timed(action: Callable[[], object], repeat: int) -> float:
    """The mean CPU time of ``action`` in milliseconds (this process's: other load on the machine counts little)."""
    start = time.process_time()
    for _ in range(repeat):
        action()
    return (time.process_time() - start) / repeat * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    state = long_game(args.plies + 1)
    last = state.pop()  # the move to check: ply plies + 1
    chain = Chain(state)
    state.push(last)
    message = MoveMessage(args.plies + 1, str(last), "alice", chain.following(state))
    state.pop()
    holder = message.by

    def check_with_chain() -> None:
        assert not isinstance(check(state, chain, message, holder), str)

    def check_replaying() -> None:
        assert not isinstance(check(state, Chain(state), message, holder), str)

    def extend() -> None:
        state.push(last)
        chain.record(state)
        chain.cut(args.plies)
        state.pop()

    few = max(1, args.repeat // 50)
    rows = [
        (f"check of ply {args.plies + 1}, chain kept", timed(check_with_chain, args.repeat)),
        (f"check of ply {args.plies + 1}, history replayed", timed(check_replaying, few)),
        ("chain extended by one ply (record)", timed(extend, args.repeat)),
        ("canonical text of one position", timed(lambda: public_text(state), args.repeat)),
        (f"start: chain of {args.plies} plies built", timed(lambda: Chain(state), few)),
        (f"start: outbox of {args.plies} plies rebuilt", timed(lambda: published(state, chain, HOLDERS), few)),
    ]
    print(f"four-player Over-Pass, {args.plies} plies")
    print(f"{'':48} {'here':>10} {'Pi 4 (x5)':>10}")
    for what, ms in rows:
        print(f"{what:48} {ms:8.2f} ms {ms * PI_FACTOR:7.1f} ms")


if __name__ == "__main__":
    main()
