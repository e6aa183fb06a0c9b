"""``gameboard run``: the board daemon, as systemd starts it (``--config`` names the TOML file)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from firmware_host.config import load_config


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
    Daemon.from_config(config).run()
    return 0
