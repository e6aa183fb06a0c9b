"""Argument types several commands share: a mistake is argparse's one-line usage error, not a traceback."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from engine.boards import board_names
from engine.registry import GAMES, game_class

BOARD_HELP = "a board (`gameboard board list`), or a game: the board it is played on"


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
