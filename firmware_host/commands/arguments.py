"""Argument types several commands share: a mistake is argparse's one-line usage error, not a traceback."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.boards import board_names
from engine.errors import GameboardError
from engine.registry import GAMES, game_class

if TYPE_CHECKING:
    from firmware_host.remote.link import Broker

BOARD_HELP = "a board (`gameboard board list`), or a game: the board it is played on"


def speed_argument(text: str) -> float | None:
    """``--speed``: auto (None: measured) or a multiple of a Raspberry Pi 4's speed, from 0.05 to 100."""
    if text == "auto":
        return None
    try:
        speed = float(text)
    except ValueError:
        speed = math.nan
    if not 0.05 <= speed <= 100:
        raise argparse.ArgumentTypeError(f"{text!r}: give auto or a multiple of a Raspberry Pi 4's speed from 0.05 "
                                         "to 100, e.g. --speed 1")
    return speed


def at_least(low: float, kind: Callable[[str], float] = float) -> Callable[[str], float]:
    """An argument type: a number (``kind``: float or int) of at least ``low``."""
    def number(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not low <= value < math.inf:
            raise argparse.ArgumentTypeError(f"{text} is less than {low:g}" if value < low else f"{text} is not finite")
        return value
    return number


def port_number(text: str) -> int:
    """A TCP port to listen on."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port from 1 to 65535")
    return port


def board_name(text: str) -> str:
    """A board by its name, or by a game's: the board that game is played on."""
    if text in board_names():
        return text
    if text in GAMES:
        try:
            return game_class(text).board_name
        except ModuleNotFoundError:
            pass
    raise argparse.ArgumentTypeError(f"{text!r} is neither a board ({', '.join(board_names())}) "
                                     f"nor a game (`gameboard games` lists them)")


def add_page_arguments(parser: argparse.ArgumentParser | argparse._ArgumentGroup, port: int) -> None:
    """Where a command serves its page: --listen, --port, --token, --allow-host."""
    parser.add_argument("--listen", default="127.0.0.1", metavar="HOST",
                        help="address to listen on (default 127.0.0.1; any other needs a token)")
    parser.add_argument("--port", type=port_number, default=port, help=f"port (default {port})")
    parser.add_argument("--token", help="the token the page asks for when listening on the network "
                                        "(default: a fresh random one, printed)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="another name the page may be opened by, such as the Pi's name on your network "
                             "(repeat for more)")


def add_broker_arguments(parser: argparse.ArgumentParser | argparse._ArgumentGroup, who: str) -> None:
    """How a command logs in to a remote game's broker: --name, --username, --password-file, --ca-file, --wait
    (``broker_address`` reads them)."""
    parser.add_argument("--name", help=f"{who}'s name in the remote game (its broker user by default)")
    parser.add_argument("--username", help="the broker's user name, if not --name")
    parser.add_argument("--password-file", type=Path, metavar="FILE",
                        help="the file holding the broker's password alone on one line, readable by you alone "
                             "(chmod 600 FILE)")
    parser.add_argument("--password", nargs="?", action=CommandLinePassword, help=argparse.SUPPRESS)
    parser.add_argument("--ca-file", type=Path, metavar="FILE",
                        help="with mqtts://: the certificate authority to trust (PEM)")
    from firmware_host.remote.join import JOIN_WAIT_S

    parser.add_argument("--wait", type=at_least(0), default=JOIN_WAIT_S, metavar="SECONDS",
                        help=f"how long to wait for the game on the broker (default {JOIN_WAIT_S:g})")


class CommandLinePassword(argparse.Action):
    """``--password``, refused: ``ps`` shows a command line, password and all, to every user of the machine."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        parser.error("--password: a password on the command line is shown to every user of this machine by `ps`; "
                     "write it alone in a file only you can read (chmod 600 FILE) and give --password-file FILE")


#: The options of ``add_broker_arguments`` naming each file that logs in.
FILE_OPTIONS = {"password_file": "--password-file", "ca_file": "--ca-file"}


def broker_address(args: argparse.Namespace, url: str) -> tuple[Broker, str]:
    """The broker and the game of ``url``, logged in as ``add_broker_arguments`` says: the password file read
    and the authority loaded now, so that a bad file is a one-line error, not a failure to connect."""
    from firmware_host.remote.credentials import CredentialError, exposure, read_password, tls_context
    from firmware_host.remote.link import LinkError, game_address

    username = args.username or args.name
    try:
        password = None
        if args.password_file is not None:
            if username is None:
                raise GameboardError("--password-file needs a user: give --name (or --username)")
            password = read_password(args.password_file)
            warning = exposure(args.password_file, "the broker's password")
            if warning:
                print(f"gameboard: warning: --password-file: {warning}", file=sys.stderr, flush=True)
        broker, game = game_address(url, username=username, password=password, ca_file=args.ca_file)
        if broker.ca_file is not None and not broker.tls:
            raise GameboardError("--ca-file is for TLS: write the broker as mqtts://")
        if broker.tls:
            tls_context(broker.ca_file)
    except CredentialError as exc:
        raise GameboardError("; ".join(f"{FILE_OPTIONS[key]}: {problem}" for key, problem in exc.problems)) from None
    except LinkError as exc:
        raise GameboardError(str(exc)) from None
    return broker, game


def add_option_argument(parser: argparse.ArgumentParser, example: str) -> None:
    """A game's options, as every command takes them: --option KEY=VALUE, repeated."""
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help=f"a game option, e.g. --option {example} (`gameboard games` lists them; repeat for more)")


def game_options(pairs: list[str]) -> dict[str, Any]:
    """--option's KEY=VALUE pairs, each value read as JSON when it is (2, true, "x"), else as text."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not key:
            raise GameboardError(f"--option {pair!r}: write KEY=VALUE, e.g. --option players=2")
        if key in options:
            raise GameboardError(f"--option {key} is given twice: give each option once")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options
