"""``gameboard calibrate --practice``: the calibration walk on a simulated board, served as a page."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from engine.errors import GameboardError
from firmware_host.calibration.start import parse_classes
from firmware_host.calibration.walk import Settings
from firmware_host.commands.arguments import add_page_arguments, board_name
from firmware_host.validation import cannot_write

PRACTICE_PORT = 8301


def add_practice_arguments(calibrate: argparse.ArgumentParser) -> None:
    practice = calibrate.add_argument_group("practice", "the same walk on a simulated board in the browser")
    practice.add_argument("--practice", nargs="?", const="squareoff", type=board_name, metavar="BOARD",
                          help="practise on a simulated BOARD (a board or a game; default squareoff): click the "
                               "places to put pieces down, answer with the keys on the page")
    add_page_arguments(practice, PRACTICE_PORT)
    practice.add_argument("--sensing", choices=("presence", "analog"), default="presence",
                          help="the simulated sensors: presence (reed switches, digital Hall; the default) or analog "
                               "(linear Hall: pieces of each class, --classes or the board example's, e.g. hexover)")
    practice.add_argument("--seed", type=int, default=1, help="the simulated soldering's order (default 1)")
    practice.add_argument("--built-to", type=Path, default=None, metavar="FILE",
                          help="solder the simulated board as FILE says (the wiring file `gameboard board route -o` "
                               "generates) and start the walk from it: the walk confirms the plan")


def _check_plan(path: Path, board: str) -> None:
    """``--built-to``: a wiring file of the board practised on, refused naming the option otherwise."""
    from wiring.files import read_wiring

    route = f"give the file `gameboard board route {board} ... -o FILE` wrote"
    if not path.is_file():
        raise GameboardError(f"--built-to {path}: no such wiring file; {route}")
    wired = read_wiring(path).wiring.board
    if wired != board:
        raise GameboardError(f"--built-to {path} wires the {wired} board, not {board}; {route}")


def run_practice(args: argparse.Namespace) -> int:
    """``--practice``: the walk on a simulated board, served as a page until Ctrl-C."""
    from engine.boards import load_board
    from firmware_host.calibration.practice import PracticeSession
    from firmware_host.commands.sim import state_dir
    from firmware_host.web.doorman import Doorman
    from firmware_host.web.practice_app import create_practice_app
    from firmware_host.web.serve import Listener, PageServer

    given = [option for option, value in (("--config", args.config), ("--redo", args.redo)) if value]
    if given:
        raise GameboardError(f"--practice calibrates a simulated board, whole: leave out {' and '.join(given)}")
    if args.classes is not None and args.sensing != "analog":
        raise GameboardError("--classes names the magnets of analog sensors: add --sensing analog, or leave it out")
    classes = parse_classes(args.classes) if args.classes is not None else None
    if args.built_to is not None:
        _check_plan(args.built_to, args.practice)
    output = args.output or state_dir() / f"practice-wiring-{args.practice}.toml"
    problem = cannot_write(output)
    if problem:
        raise GameboardError(f"cannot write the practice's wiring file: {problem}; give --output a file in a folder "
                             "you can write")
    output.parent.mkdir(parents=True, exist_ok=True)
    settings = Settings(samples=1, min_change=args.min_change, pieces=args.pieces, keep_leds=args.keep_leds)

    async def main() -> None:
        session = PracticeSession(load_board(args.practice), output, seed=args.seed, settings=settings,
                                  sensing=args.sensing, classes=classes, plan=args.built_to)
        listener = Listener(args.listen, args.port, token=args.token, allow_hosts=args.allow_host)
        server = PageServer(create_practice_app(session, guard=listener.guard), Doorman(listener.socket))
        print(f"gameboard: practise the calibration at {listener.address} (the wiring file: {output})", flush=True)
        walk = asyncio.ensure_future(session.run())
        try:
            await server.serve()
        finally:
            walk.cancel()
            await asyncio.gather(walk, return_exceptions=True)

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    return 0
