"""The ``gameboard`` command: one entry point, a subcommand per job."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import import_module, metadata

from engine.errors import GameboardError

#: Modules under firmware_host.commands, each adding its subcommands with register().
COMMAND_MODULES = ("board", "games", "solve", "arena", "run", "sim", "watch", "calibrate", "wiring", "leds",
                   "sensors", "journal")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gameboard", description="A smart wooden game board: play, simulate, calibrate.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = import_module(f"firmware_host.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"firmware_host.commands.{name}":
                raise
            continue
        module.register(subparsers)
    return parser


def version() -> str:
    """The installed package's version (pip install records it)."""
    try:
        return metadata.version("gameboard")
    except metadata.PackageNotFoundError:
        return "(not installed: run `pip install -e .` in the source folder)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except GameboardError as exc:
        print(f"gameboard: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`gameboard sensors watch | head`): stop quietly, and keep
        # Python's final flush of stdout from complaining (see the signal module's docs).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
