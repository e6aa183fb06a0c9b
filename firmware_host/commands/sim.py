"""``gameboard sim [GAME]``: the real daemon on the mock board, played in the browser."""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import GameboardError
from engine.registry import GAMES
from firmware_host.commands.arguments import (add_broker_arguments, add_option_argument, add_page_arguments,
                                              broker_address, game_options, speed_argument)
from firmware_host.remote.protocol import BY_HAND, FAIR, NAME, ProtocolError, check_name

if TYPE_CHECKING:
    from firmware_host.remote.participant import Participant

DEFAULT_PORT = 8300


def state_dir() -> Path:
    """Where the simulator keeps its journal, so a closed simulator resumes its game."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "gameboard"


def register(subparsers: argparse._SubParsersAction) -> None:
    sim = subparsers.add_parser("sim", help="play on a simulated board in the browser")
    sim.add_argument("game", nargs="?", default="overpass", choices=list(GAMES), help="the game (default overpass)")
    add_option_argument(sim, "players=2")
    add_page_arguments(sim, DEFAULT_PORT)
    sim.add_argument("--seats", nargs="+", metavar="SEAT", default=[],
                     help="who plays each seat in turn order: human, computer or computer:LEVEL (easy, normal, "
                          "hard), e.g. --seats human computer (default: every seat human; the page's form too)")
    sim.add_argument("--auto", action="store_true",
                     help="the simulated hands carry out the computer's moves (a switch on the page too)")
    sim.add_argument("--noise", action="store_true", help="realistic sensor noise: bounce, slides, bumps")
    sim.add_argument("--entered-dice", action="store_true",
                     help="enter the dice on the page instead of rolling (in a remote game, every seat must ask "
                          "for it: the host and each joiner)")
    sim.add_argument("--seed", type=int, help="seed for the dice, the noise and the deals of games with a random set-up")
    sim.add_argument("--speed", type=speed_argument, default=None, metavar="SPEED",
                     help="this computer's speed as a multiple of a Raspberry Pi 4's, so that a level's turn takes "
                          "the time it takes on the board's Pi 4 divided by it (default auto: measured when the "
                          "computer first thinks; 1 plays at a Pi 4's pace)")
    sim.add_argument("--journal", type=Path, help="the game journal (default: in ~/.local/state/gameboard, one for "
                                                  "each remote game and --name)")
    remote = sim.add_argument_group("remote play", "play a game through an MQTT broker (docs/remote.md)")
    remote.add_argument("--join", metavar="URL",
                        help="the game on the broker, mqtt://[USER@]HOST[:PORT]/GAME (mqtts:// for TLS): "
                             "with --seats naming remote:NAME seats, this page hosts GAME; without, it joins the "
                             "game its host set up and plays the seats held by --name")
    add_broker_arguments(remote, "this page")
    sim.set_defaults(handler=run_sim)


def run_sim(args: argparse.Namespace) -> int:
    from firmware_host.sim import SimSession
    from firmware_host.thinker import Thinking
    from firmware_host.validation import cannot_write
    from firmware_host.web.serve import Listener

    options = game_options(args.option)
    journal = args.journal or state_dir() / default_journal(args)
    problem = cannot_write(journal)
    if problem:
        raise GameboardError(f"cannot keep the journal: {problem}; give --journal a file in a folder you can write")

    game, seats, remote = args.game, args.seats, None
    if args.join is not None:
        remote, game, options, seats = remote_seat(args, options, journal)
    elif any(seat.startswith("remote:") for seat in seats):
        raise GameboardError("a remote:NAME seat is played through a broker: give --join mqtt://HOST/GAME and --name "
                             "(docs/remote.md)")

    async def main() -> None:
        session = SimSession(game, options, journal=journal, noise=args.noise, entered_dice=args.entered_dice,
                             seed=args.seed, seats=seats, auto=args.auto, remote=remote,
                             thinking=Thinking(args.speed))
        listener = Listener(args.listen, args.port, token=args.token, allow_hosts=args.allow_host)
        await listener.serve(session, read_only=False, alongside=session.run())

    asyncio.run(main())
    return 0


def default_journal(args: argparse.Namespace) -> str:
    """The journal's file in the state folder: one per remote game and participant, so that two pages on one
    computer (docs/remote.md's first example) never share a game; one for the games played alone."""
    from firmware_host.remote.link import LinkError, game_address

    if args.join is None or not args.name or not NAME.fullmatch(args.name):
        return "sim-journal.sqlite3"
    try:
        _, game_id = game_address(args.join)
    except LinkError:  # refused with its reason once the options are read
        return "sim-journal.sqlite3"
    return f"sim-{game_id}-{args.name}.sqlite3"


def remote_seat(args: argparse.Namespace, options: dict[str, Any], journal: Path
                ) -> tuple[Participant, str, dict[str, Any], list[str]]:
    """This page's part in the remote game ``--join`` names: hosted (``--seats`` with remote:NAME seats) or
    joined (taken up again from ``journal`` when it holds that game unfinished); the participant, the game,
    its options and the seats."""
    from engine.registry import game_class
    from firmware_host.remote.dice import agree
    from firmware_host.remote.join import host, hosted_game, join, kept_header
    from firmware_host.seats import parse_seats

    if not args.name:
        raise GameboardError("--join needs --name: this page's name in the game (e.g. --name bob)")
    broker, game_id = broker_address(args, args.join)
    try:
        check_name(args.name, "--name")
    except ProtocolError as exc:
        raise GameboardError(str(exc)) from None
    if any(seat.startswith("remote:") for seat in args.seats):
        game = hosted_game(game_class(args.game)(**options), kept_header(journal, game_id))
        try:
            seats = parse_seats(args.seats, game.num_players)
        except ValueError as exc:
            raise GameboardError(f"--seats: {exc}") from None
        dice = BY_HAND if args.entered_dice else FAIR
        return host(broker, game_id, args.name, game, seats, dice=dice), args.game, dict(game.options), args.seats
    if args.seats:
        raise GameboardError("to host a remote game, write the others' seats as remote:NAME in --seats; "
                             "to join one, leave --seats out")
    if options:
        raise GameboardError("--option: a game joined has the options its host chose; leave --option out to join")
    kept = kept_header(journal, game_id)
    if kept is None:
        print(f"gameboard: joining {game_id} on {broker} as {args.name}...", flush=True)
    else:
        print(f"gameboard: taking {game_id} up again from {journal}, as {args.name} on {broker}", flush=True)
    participant, game, seats = join(broker, game_id, args.name, wait=args.wait, kept=kept)
    try:
        if not participant.header.held_by(args.name):
            raise GameboardError(f"{args.name} holds no seat of {game_id} (its seats: "
                                 f"{', '.join(participant.header.seats)}); to watch it, use "
                                 f"`gameboard watch {args.join}`")
        agree(participant.header, game, game_id, args.entered_dice)
    except GameboardError:
        participant.close()
        raise
    return participant, game.name, dict(game.options), [str(seat) for seat in seats]
