"""The LED meanings lit together in real play, against those ``firmware_host.lit_together`` derives.

    python bench/colour_pairs.py [--seeds 2] [--moves 80] [--against LEVEL] [GAME ...]
    python bench/colour_pairs.py --distances [GAME ...]

Every game is played on the simulator (the daemon on the mock board) by the person of
``firmware_host/sim_person.py``, at random under each seed, first alone and then against the
computer at LEVEL (its moves carried out by the auto hands, so the computer's guide lights);
each frame the presenter draws is recorded as the set of meanings it shows.  Prints, per
game, the frames and pairs seen, the pairs seen that the derivation lacks (there must be
none: the derivation is meant as a superset), and how many derived pairs play reached.
With ``--distances`` it plays nothing and prints, per simulation, the closest pairs of
meanings lit together in another colour (CIEDE2000; tests/daemon/test_colour_vision.py
holds them to 15 or more).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.registry import available_games, game_class  # noqa: E402
from firmware_host.colour_vision import SIMULATIONS  # noqa: E402
from firmware_host.lit_together import LightFacts, closest, lit_together  # noqa: E402
from firmware_host.presenter import TURN, Scene  # noqa: E402
from firmware_host.sim import SimSession  # noqa: E402
from firmware_host.sim_person import LedPerson, Lost  # noqa: E402
from hal.clock import ManualClock  # noqa: E402


def record(session: SimSession, frames: set[frozenset[str]]) -> None:
    """Record into ``frames`` the meanings of every frame the daemon's presenter draws from now on."""
    presenter = session.daemon.lights.presenter
    draw = presenter.colours

    def recording(scene: Scene):  # type: ignore[no-untyped-def]
        shown = set(presenter.meanings(scene).values())
        if TURN in shown:
            shown.discard(TURN)
            shown.add(f"turn_{session.daemon.state.turn_piece()}")
        frames.add(frozenset(shown))
        return draw(scene)

    presenter.colours = recording  # type: ignore[method-assign]


def play(name: str, seed: int, moves: int, level: str | None, frames: set[frozenset[str]]) -> str:
    """One game played for ``moves`` moves (or to its end); what stopped it."""
    players = game_class(name)().num_players
    seats = None if level is None else ([f"computer:{level}"] if players == 1
                                        else ["human"] + [f"computer:{level}"] * (players - 1))
    with tempfile.TemporaryDirectory() as folder:
        clock = ManualClock()
        session = SimSession(name, {}, journal=Path(folder) / "journal.sqlite3", clock=clock, seed=seed,
                             seats=seats, auto=level is not None)
        record(session, frames)
        person = LedPerson(session, clock, seed=seed)
        daemon = session.daemon
        try:
            while len(daemon.state.history) < moves:
                player = daemon.state.current_player
                computer = player >= 0 and daemon.seats[player].computer and not daemon.left_to_do
                if daemon.state.is_chance_node() and not daemon.left_to_do:
                    person.run(0.05)
                elif computer and daemon.thinker.busy:
                    time.sleep(0.002)
                    session.step()
                elif computer:
                    person.run(0.1)
                elif not person.act():
                    return "ended"
            return "moves"
        except Lost as lost:
            return f"lost: {lost}"
        finally:
            daemon.close()


def distances(games: list[str], shown: int = 4) -> None:
    """The closest pairs lit together per simulation, over ``games``: each pair once, with the games it is in."""
    found: dict[tuple[str, str, str], tuple[float, list[str]]] = {}
    for name in games:
        for distance, simulation, first, second in closest(LightFacts.of(game_class(name)())):
            found.setdefault((simulation, first, second), (distance, []))[1].append(name)
    print(f"{'simulation':13} closest pairs lit together (CIEDE2000)")
    for simulation in SIMULATIONS:
        rows = sorted((distance, first, second, games_in) for (sim, first, second), (distance, games_in)
                      in found.items() if sim == simulation)[:shown]
        print(f"{simulation:13} " + "; ".join(f"{first}/{second} {distance:.1f} ({len(games_in)} games)"
                                            for distance, first, second, games_in in rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(available_games()))
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--moves", type=int, default=80)
    parser.add_argument("--against", default="easy", metavar="LEVEL")
    parser.add_argument("--distances", action="store_true", help="print the closest pairs; play nothing")
    args = parser.parse_args()
    if args.distances:
        distances(args.games)
        return
    missing_anywhere = 0
    print(f"{'game':16} {'frames':>6} {'pairs':>5} {'derived':>7} {'reached':>7} {'wall s':>6}  not derived")
    for name in args.games:
        started = time.perf_counter()
        frames: set[frozenset[str]] = set()
        for level in (None, args.against):
            for seed in range(args.seeds):
                stopped = play(name, seed, args.moves, level, frames)
                if stopped.startswith("lost"):
                    print(f"{name:16} seed {seed} against {level}: {stopped}")
        seen = {frozenset(pair) for frame in frames for pair in combinations(sorted(frame), 2)}
        derived = lit_together(LightFacts.of(game_class(name)()))
        missing = sorted("/".join(sorted(pair)) for pair in seen - derived)
        missing_anywhere += len(missing)
        print(f"{name:16} {len(frames):>6} {len(seen):>5} {len(derived):>7} {len(seen & derived):>7} "
              f"{time.perf_counter() - started:>6.1f}  {', '.join(missing) or '-'}")
        widest = max(frames, key=len)
        print(f"{'':16} widest frame: {', '.join(sorted(widest))}")
    print("every pair seen is derived" if not missing_anywhere else f"{missing_anywhere} pairs seen are not derived")
    sys.exit(1 if missing_anywhere else 0)


if __name__ == "__main__":
    main()
