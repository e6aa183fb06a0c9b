"""What a calibration starts from: the file it replaces, or the board's example, and the classes asked for."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from engine.board import Board
from engine.errors import GameboardError
from wiring.examples import example_path
from wiring.files import read_wiring
from wiring.model import Wiring, straight_wiring


class CalibrationSetupError(GameboardError, ValueError):
    """A calibration that cannot start as asked; the message gives the option to fix."""


def start_wiring(board: Board, output: Path, piece_classes: Mapping[str, str] | None = None) -> Wiring:
    """What a calibration of ``board`` starts from: the file it will replace, else the board's example.

    ``piece_classes`` (piece code -> class) replaces the classes found there.
    """
    if output.exists():
        start = read_wiring(output).wiring
    elif example_path(board.name).exists():
        start = read_wiring(example_path(board.name)).wiring
    else:
        start = straight_wiring(board)
    if start.board != board.name:
        wired = f"the {start.board} board" if start.board else "no board"
        raise CalibrationSetupError(f"{output} wires {wired}, not {board.name};"
                                    " give another --output or move the file away")
    if piece_classes is not None:
        start.piece_classes = dict(piece_classes)
    return start


def parse_classes(text: str) -> dict[str, str]:
    """``"white=north,black=south"`` as {piece code: class}, for the command line."""
    found = {}
    for pair in filter(None, (item.strip() for item in text.split(","))):
        piece, equals, name = (part.strip() for part in pair.partition("="))
        if not (piece and equals and name) or name == "baseline":
            raise CalibrationSetupError(f"--classes {text!r}: write piece=class pairs separated by commas,"
                                        " e.g. white=north,black=south")
        found[piece] = name
    if not found:
        raise CalibrationSetupError(f"--classes {text!r} names no class: write piece=class pairs separated by commas,"
                                    " e.g. white=north,black=south")
    return found
