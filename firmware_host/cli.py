"""The ``gameboard`` command: one entry point, a subcommand per job."""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Sequence
from importlib import import_module, metadata

from engine.errors import GameboardError

#: Modules under firmware_host.commands, each adding its subcommands with register().
COMMAND_MODULES = ("board", "games", "solve", "arena", "run", "sim", "watch", "calibrate", "wiring", "leds",
                   "sensors", "journal", "record")


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
    list_actions_when_none_given(parser)
    return parser


def list_actions_when_none_given(parser: argparse.ArgumentParser) -> None:
    """A command named without its action (bare ``gameboard``, ``gameboard board``) prints its help, which lists
    them, rather than argparse's bare "the following arguments are required"."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            action.required = False
            parser.set_defaults(handler=functools.partial(missing_action, parser, action.metavar or "COMMAND"))
            for sub in action.choices.values():
                list_actions_when_none_given(sub)


def missing_action(parser: argparse.ArgumentParser, metavar: str, args: argparse.Namespace) -> int:
    """The help, which lists the actions, then an error line; exit code 2, as argparse's usage errors."""
    parser.print_help(sys.stderr)
    print(f"\n{parser.prog}: error: missing {metavar}: give one of those listed above "
          f"(`{parser.prog} {metavar} --help` explains it)", file=sys.stderr)
    return 2


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
