"""``gameboard sim [GAME]``: the real daemon on the mock board, played in the browser."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from pathlib import Path

from engine.errors import GameboardError
from engine.registry import GAMES
from firmware_host.commands.arguments import port_number

DEFAULT_PORT = 8300


def state_dir() -> Path:
    """Where the simulator keeps its journal, so a closed simulator resumes its game."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "gameboard"


def register(subparsers: argparse._SubParsersAction) -> None:
    sim = subparsers.add_parser("sim", help="play on a simulated board in the browser")
    sim.add_argument("game", nargs="?", default="overpass", choices=list(GAMES), help="the game (default overpass)")
    sim.add_argument("--options", default="{}", help='game options as JSON, e.g. \'{"players": 2}\'')
    sim.add_argument("--listen", default="127.0.0.1", metavar="HOST",
                     help="address to listen on (default 127.0.0.1; any other needs a token)")
    sim.add_argument("--port", type=port_number, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    sim.add_argument("--token", help="the token the page asks for when listening on the network "
                                     "(default: a fresh random one, printed)")
    sim.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                     help="another name the page may be opened by, such as the Pi's name on your network "
                          "(repeat for more)")
    sim.add_argument("--seats", nargs="+", metavar="SEAT", default=[],
                     help="who plays each seat in turn order: human, computer or computer:LEVEL (easy, normal, "
                          "hard), e.g. --seats human computer (default: every seat human; the page's form too)")
    sim.add_argument("--auto", action="store_true",
                     help="the simulated hands carry out the computer's moves (a switch on the page too)")
    sim.add_argument("--noise", action="store_true", help="realistic sensor noise: bounce, slides, bumps")
    sim.add_argument("--entered-dice", action="store_true", help="enter the dice on the page instead of rolling")
    sim.add_argument("--seed", type=int, help="seed for the dice and the noise")
    sim.add_argument("--journal", type=Path, help="the game journal (default: in ~/.local/state/gameboard)")
    sim.set_defaults(handler=run_sim)


def run_sim(args: argparse.Namespace) -> int:
    from firmware_host.sim import SimSession
    from firmware_host.validation import cannot_write
    from firmware_host.web.serve import Listener

    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as exc:
        raise GameboardError(f"--options is not JSON ({exc.msg}); write e.g. '{{\"players\": 2}}'") from None
    if not isinstance(options, dict):
        raise GameboardError("--options must be a JSON object, e.g. '{\"players\": 2}'")
    journal = args.journal or state_dir() / "sim-journal.sqlite3"
    problem = cannot_write(journal)
    if problem:
        raise GameboardError(f"cannot keep the journal: {problem}; give --journal a file in a folder you can write")

    async def main() -> None:
        session = SimSession(args.game, options, journal=journal, noise=args.noise,
                             entered_dice=args.entered_dice, seed=args.seed, seats=args.seats, auto=args.auto)
        listener = Listener(args.listen, args.port, token=args.token, allow_hosts=args.allow_host)
        await listener.serve(session, read_only=False, alongside=session.run())

    asyncio.run(main())
    return 0
