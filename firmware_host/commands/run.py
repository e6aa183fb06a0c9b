"""``gameboard run``: the board daemon, as systemd starts it (``--config`` names the TOML file)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from typing import TYPE_CHECKING

from firmware_host.config import load_config

if TYPE_CHECKING:
    from firmware_host.daemon import Daemon


def default_config() -> Path:
    """systemd's ConfigurationDirectory when run as the service, else /etc/gameboard."""
    folder = os.environ.get("CONFIGURATION_DIRECTORY", "/etc/gameboard").split(":")[0]
    return Path(folder) / "gameboard.toml"


def register(subparsers: argparse._SubParsersAction) -> None:
    run = subparsers.add_parser(
        "run", help="run the board daemon",
        description="Scan the board, follow the game, light the LEDs; resumes an unfinished game.")
    run.add_argument("--config", type=Path, default=None,
                     help=f"the configuration file (default: {default_config()})")
    run.add_argument("--check", action="store_true",
                     help="check the configuration and the wiring, open nothing, and exit")
    web = run.add_argument_group("web mirror", "a read-only page showing the board and its LEDs")
    web.add_argument("--web", action="store_true", help="serve the mirror page")
    web.add_argument("--listen", default="127.0.0.1", metavar="HOST",
                     help="address to listen on (default 127.0.0.1; any other needs a token)")
    web.add_argument("--port", type=int, default=8300, help="port (default 8300)")
    web.add_argument("--token", help="the token the page asks for on the network (default: a random one, printed)")
    web.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                     help="another name the page may be opened by, such as the Pi's name on your network "
                          "(repeat for more)")
    run.set_defaults(handler=run_daemon)


def run_daemon(args: argparse.Namespace) -> int:
    config = load_config(args.config or default_config())
    if args.check:
        wiring = config.load_wiring()
        state = config.new_game()
        print(f"{config.path}: ok: {state.game.title} on {wiring.board}, {len(wiring.channels)} channels, "
              f"sensors {config.sensors.driver}, LEDs {config.leds.driver}, journal {config.journal_path}")
        return 0
    from firmware_host.daemon import Daemon
    daemon = Daemon.from_config(config)
    if args.web:
        start_mirror(daemon, args.listen, args.port, args.token, args.allow_host)
    daemon.run()
    return 0


def start_mirror(daemon: Daemon, host: str, port: int, token: str | None, allow_hosts: list[str]) -> None:
    """Serve the read-only page from a thread of its own; the daemon keeps the main thread.

    The port is bound here, before the daemon starts: a port in use stops ``run`` with
    one line instead of leaving a daemon running without its page.
    """
    import asyncio
    import threading

    from firmware_host.web.mirror import MirrorSession
    from firmware_host.web.serve import Listener

    listener = Listener(host, port, token=token, allow_hosts=allow_hosts)
    mirror = MirrorSession(daemon)

    async def main() -> None:
        mirror.attach(asyncio.get_running_loop())
        await listener.serve(mirror, read_only=True)

    threading.Thread(target=asyncio.run, args=(main(),), name="web-mirror", daemon=True).start()
