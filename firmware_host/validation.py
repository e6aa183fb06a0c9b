"""The whole check of a configuration before anything opens: ``run --check`` and ``run`` share it.

``config.load_config`` checks the file itself (keys, the game, the drivers and their
options); this adds what the file points at: the wiring file, made for the game's
board, and a journal that can be written.  Every problem is listed at once in one
``ConfigError``, so a person fixes them in one go instead of one per attempt.
"""

from __future__ import annotations

import os
import tempfile
from getpass import getuser
from pathlib import Path
from typing import Any

from engine.core import Game
from firmware_host.config import Config, Hal, Problems, read_config
from firmware_host.observer import Observer, WiringMismatchError
from wiring.files import WiringFileError, load_wiring
from wiring.model import Wiring


def checked_config(path: str | os.PathLike[str], *, wiring: bool = True, journal: bool = True) -> Config:
    """The configuration at ``path``, checked completely without opening any hardware.

    ``wiring``: the wiring file must exist and suit the game (not so for ``calibrate``,
    which writes it); ``journal``: the journal must be writable (only the daemon keeps one).
    """
    problems = Problems(Path(path))
    config = read_config(problems)
    if config is not None and "game" not in problems.sections:
        if wiring:
            _check_wiring_file(config, problems)
        if journal:
            _check_journal(config, problems)
    problems.raise_if_any()
    assert config is not None
    return config


def wiring_places(wiring: Wiring, game: Game) -> dict[str, Any]:
    """The game board's places, once the wiring is known to be for that board."""
    board = game.board
    places = getattr(board, "places", board.locations)
    unknown = sorted(set(wiring.channels.values()) - set(places))
    if wiring.board != board.name or unknown:
        raise WiringMismatchError(f"the wiring is for board {wiring.board!r} but {game.name} is played on "
                                  f"{board.name!r}; give [board] wiring a wiring file made for {board.name!r}"
                                  + (f" (unknown locations: {', '.join(unknown[:5])})" if unknown else ""))
    return places


def check_opened_hal(config: Config, wiring: Wiring, hal: Hal) -> None:
    """The opened sensors and LEDs agree with the wiring: a WiringMismatchError names both sides if not."""
    try:
        Observer(wiring, hal.sensors.kind, hal.sensors.channels)
    except WiringMismatchError as exc:
        raise WiringMismatchError(f"{config.wiring_source} and {hal.sensors}: {exc}") from None
    if tuple(hal.leds.strip_lengths) != tuple(wiring.strip_lengths):
        raise WiringMismatchError(
            f"{config.wiring_source} has LED strips {list(wiring.strip_lengths)} but {hal.leds} has "
            f"{list(hal.leds.strip_lengths)}: make them agree, in the wiring (`gameboard calibrate`) "
            f"or in the LEDs' configuration ([leds] in {config.path})")


def _check_wiring_file(config: Config, problems: Problems) -> None:
    path = config.wiring_path
    if path is None:  # the straight wiring of the game's board
        return
    if not path.exists():
        problems.add("board.wiring", f"{path} does not exist yet: make it with "
                                     f"`gameboard calibrate --config {config.path} -o {path}`")
        return
    try:
        wiring_places(load_wiring(path), config.game())
    except WiringFileError as exc:
        problems.add_lines(str(exc))
    except WiringMismatchError as exc:
        problems.add("board.wiring", f"{path}: {exc}")


def _check_journal(config: Config, problems: Problems) -> None:
    reason = cannot_write(config.journal_path, service_folder=True)
    if reason:
        problems.add("journal.path", f"{reason}; give [journal] path a file in a folder the daemon can write")


def cannot_write(path: Path, *, make_folders: bool = True, service_folder: bool = False) -> str | None:
    """Why a file cannot be written at ``path`` (None: it can), found without writing it.

    With ``make_folders``, missing folders count as writable where they can be made.  With
    ``service_folder``, missing folders this user may not make count too: systemd makes the
    service's own (``StateDirectory=``) when it starts it, so a check run before then passes.
    """
    if path.is_dir():
        return f"{path} is a folder, not a file"
    if path.exists():
        return None if os.access(path, os.R_OK | os.W_OK) else f"user {getuser()} may not write {path}"
    folder = path.parent
    while not folder.exists():
        if not make_folders:
            return f"the folder {folder} does not exist"
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is a file, not a folder, so {path} cannot be made"
    try:
        with tempfile.TemporaryFile(dir=folder):  # the one test a read-only or virtual file system (/proc) cannot fool
            pass
    except PermissionError:
        if service_folder and folder != path.parent:
            return None
        return f"{path} cannot be made: user {getuser()} may not write in {folder}"
    except OSError as exc:
        return f"{path} cannot be made: no file can be written in {folder} ({exc.strerror})"
    return None
