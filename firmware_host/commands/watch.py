"""``gameboard watch mqtt://HOST[:PORT]/GAME``: a read-only page following a remote game."""

from __future__ import annotations

import argparse
import asyncio
import secrets

from engine.errors import GameboardError
from firmware_host.commands.arguments import add_broker_arguments, add_page_arguments, broker_address
from firmware_host.commands.sim import DEFAULT_PORT


def register(subparsers: argparse._SubParsersAction) -> None:
    watch = subparsers.add_parser("watch", help="follow a remote game in the browser, read-only",
                                  description="Follow a game played through an MQTT broker (docs/remote.md).")
    watch.add_argument("game", metavar="URL", help="the game: mqtt://[USER@]HOST[:PORT]/GAME "
                                                   "(mqtts:// for TLS)")
    add_broker_arguments(watch, "this spectator")
    add_page_arguments(watch, DEFAULT_PORT)
    watch.set_defaults(handler=run_watch)


def run_watch(args: argparse.Namespace) -> int:
    from firmware_host.remote.join import join
    from firmware_host.remote.protocol import ProtocolError, check_name
    from firmware_host.remote.spectator import Spectator
    from firmware_host.web.serve import Listener

    name = args.name or f"watcher-{secrets.token_hex(3)}"
    try:
        check_name(name, "--name")
    except ProtocolError as exc:
        raise GameboardError(str(exc)) from None
    broker, game_id = broker_address(args, args.game)
    listener = Listener(args.listen, args.port, token=args.token, allow_hosts=args.allow_host)
    print(f"gameboard: watching {game_id} on {broker}...", flush=True)
    participant, game, _ = join(broker, game_id, name, wait=args.wait)
    if participant.header.held_by(name):
        participant.close()
        raise GameboardError(f"{name} holds a seat of {game_id}: play it with `gameboard sim --join {args.game} "
                             f"--name {name}`, or watch under another --name")
    spectator = Spectator(participant, game)

    async def main() -> None:
        await listener.serve(spectator, read_only=True, alongside=spectator.run())

    try:
        asyncio.run(main())
    finally:
        participant.close()
    return 0
