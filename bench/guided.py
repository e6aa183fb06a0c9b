"""Every game played to its end on the simulator by a person who reads only the LEDs and the status.

    python bench/guided.py [--seeds 3] [--limit 20000] [--against LEVEL] [--option KEY=VALUE] [GAME ...]

The person is ``firmware_host/sim_person.py``'s ``LedPerson``: it knows the LED legend, reads
the status line, and chooses at random among what they offer; it never asks the engine
what is legal.  Per game and seed: the moves and the person's actions to the end, the
board time the game took, the wall time, and whether the board the person left is the
game's, or the first move after which it was not (at rest, nothing left to do).  A game
where the lights and the status left the person with nothing to do prints LOST and why.
With ``--against LEVEL`` the other seats (a puzzle's only seat) are the computer's at that
level, its moves carried out by the simulator's auto hands while the person waits: whole
games against the computer (the board time then leaves out the computer's thinking).  The test suite plays the same person through each game's
first moves (``tests/sim/test_led_guided.py``); this plays the long ones to the end.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import available_games, game_class  # noqa: E402
from firmware_host.commands.arguments import game_options  # noqa: E402
from firmware_host.sim import SimSession  # noqa: E402
from firmware_host.sim_person import LedPerson, Lost  # noqa: E402
from hal.clock import ManualClock  # noqa: E402


def in_step(session: SimSession) -> bool:
    """Whether the board matches the game, or is not at rest (a piece in hand, a move under way, the auto
    hands at work, a change not yet read, something to do)."""
    daemon = session.daemon
    snapshot = daemon.snapshot()
    if session.hand or session.auto_busy or snapshot["status"] != "ready" or snapshot["todo"]:
        return True
    sensed = all(seen == daemon.wiring.expected(session.mock.contents.get(loc))
                 for loc, seen in daemon.scanner.board().items())
    if not sensed or daemon.scanner.debouncer.pending or daemon.tracker.waiting:
        return True  # the sensors have not yet read what the hands did
    board = {loc: piece for loc, piece in session.mock.contents.items() if piece}
    return board == {loc: piece for loc, piece in daemon.state.contents().items() if piece}


def seats(name: str, options: dict, level: str | None) -> list[str] | None:
    """A person in the first seat and the computer at ``level`` in the others (a puzzle: the computer)."""
    if level is None:
        return None
    players = game_class(name)(**options).num_players
    computer = f"computer:{level}"
    return [computer] if players == 1 else ["human"] + [computer] * (players - 1)


def computer_to_move(session: SimSession) -> bool:
    """Whether the computer's seat is to move, with nothing left for the person (their last move's flips)."""
    daemon = session.daemon
    player = daemon.state.current_player
    return player >= 0 and daemon.seats[player].computer and not daemon.left_to_do


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(available_games()))
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--limit", type=int, default=20000, help="moves after which a game is left unfinished")
    parser.add_argument("--against", metavar="LEVEL", help="the other seats are the computer's at this level")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    args = parser.parse_args()
    options = game_options(args.option)
    print(f"{'game':16} {'seed':>4} {'moves':>6} {'actions':>8} {'board min':>9} {'wall s':>7}  result")
    for name in args.games:
        for seed in range(args.seeds):
            with tempfile.TemporaryDirectory() as folder:
                clock = ManualClock()
                session = SimSession(name, options, journal=Path(folder) / "journal.sqlite3", clock=clock, seed=seed,
                                     seats=seats(name, options, args.against), auto=bool(args.against))
                person = LedPerson(session, clock, seed=seed)
                started = time.perf_counter()
                state = session.daemon.state
                out_of_step = None
                try:
                    while len(state.history) < args.limit:
                        if session.daemon.state.is_chance_node() and not session.daemon.left_to_do:
                            person.run(0.05)  # the dice are rolled for whoever's turn it is
                        elif computer_to_move(session) and session.daemon.thinker.busy:
                            time.sleep(0.002)  # the computer thinks: the loop runs, no board time passes
                            session.step()
                        elif computer_to_move(session):
                            person.run(0.1)  # the auto hands carry out the computer's move
                        elif not person.act():
                            break
                        if out_of_step is None and not in_step(session):
                            out_of_step = len(state.history)
                except Lost as lost:
                    print(f"{name:16} {seed:>4} LOST after {len(state.history)} moves: {lost}")
                    continue
                moves = len(state.history)
                result = (state.outcome().reason if state.is_terminal() else "unfinished") + \
                    ("" if out_of_step is None else f"; the board out of step with the game from move {out_of_step}")
                print(f"{name:16} {seed:>4} {moves:>6} {person.actions:>8} {clock() / 60:>9.1f} "
                      f"{time.perf_counter() - started:>7.1f}  {result}")
                session.daemon.close()


if __name__ == "__main__":
    main()
