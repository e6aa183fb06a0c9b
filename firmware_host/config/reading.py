"""Reading the configuration file: every section checked, every problem noted, a ``Config`` when usable."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

from firmware_host.config.hardware import check_driver, check_pin_factory
from firmware_host.config.model import Config
from firmware_host.config.problems import Problems, key_lines
from firmware_host.config.remote import check_remote
from firmware_host.config.settings import (DRIVER_FIX, DRIVER_SETTINGS, REQUIRED_SECTIONS, SECTIONS, LoopConfig,
                                           driver_section, section_values)
from firmware_host.config.voice import VoiceConfig
from firmware_host.seats import Seat, parse_seats
from firmware_host.thinker import Thinking


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read and check a configuration file; raises one ConfigError listing every problem, each with its line."""
    problems = Problems(Path(path))
    config = read_config(problems)
    problems.raise_if_any()
    assert config is not None
    return config


def read_config(problems: Problems) -> Config | None:
    """The configuration file at ``problems.path``, every problem noted; None when too broken to go on."""
    path = problems.path
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        problems.add_file(f"cannot read the configuration file ({exc.strerror}); give an existing file with --config")
        return None
    except UnicodeDecodeError:
        problems.add_file("not a text file; give the TOML configuration file with --config")
        return None
    return parse_config(text, problems)


def parse_config(text: str, problems: Problems) -> Config | None:
    """Check the text of the configuration file at ``problems.path``, noting every problem."""
    path = problems.path
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        where = f"{path}:{found.group(1)}" if found else str(path)
        reason = re.sub(r"\s*\(at line.*\)$", "", str(exc))
        column = f" at column {found.group(2)}" if found else ""
        problems.add_lines(f"{where}: not valid TOML: {reason}; fix the syntax{column}")
        return None
    problems.lines = key_lines(text)
    known = [*SECTIONS, *DRIVER_SETTINGS]
    for section, body in data.items():
        if section not in known:
            problems.add(section, f"unknown section [{section}]; the sections are "
                                  f"{', '.join(f'[{s}]' for s in known)}")
        elif not isinstance(body, dict):
            problems.add(section, f"must be a section: write [{section}] on its own line and keys under it")
    sections = {name: body for name, body in data.items() if name in known and isinstance(body, dict)}
    for section in REQUIRED_SECTIONS:
        if section not in data:
            problems.add_file(f"the [{section}] section is missing; add it"
                              + (f" with driver = ... ({DRIVER_FIX[section]})" if section in DRIVER_FIX else ""))
    values = {name: section_values(problems, name, sections.get(name), spec) for name, spec in SECTIONS.items()}
    drivers = {name: driver_section(problems, name, sections[name]) for name in DRIVER_SETTINGS if name in sections}
    game = values["game"]
    board = _check_game(problems, game["name"], game["options"]) if game["name"] else None
    seats = _check_seats(problems, game["name"], game["options"], game["seats"]) if board else ()
    for driver in drivers.values():
        if driver is not None:
            check_driver(problems, driver, board)
    if values["gpio"]["pin_factory"] is not None:
        check_pin_factory(problems, values["gpio"]["pin_factory"])
    remote = check_remote(problems, values["remote"], seats, path.parent) if "remote" in sections else None
    if "remote" not in sections and any(seat.remote for seat in seats):
        problems.add("game.seats", "a remote:NAME seat is played through a broker: add a [remote] section "
                                   "with broker, game and name (docs/remote.md)")
    if not game["name"] or any(drivers.get(name) is None for name in ("sensors", "leds")):
        return None
    base = path.parent
    journal = values["journal"]["path"]
    return Config(
        path=path,
        game_name=game["name"],
        game_options=dict(game["options"]),
        seats=seats,
        hints=game["hints"],
        wiring_path=base / values["board"]["wiring"] if values["board"]["wiring"] else None,
        sensors=drivers["sensors"],
        leds=drivers["leds"],
        buttons=drivers.get("buttons"),
        dice_mode=values["dice"]["mode"],
        dice_seed=values["dice"]["seed"],
        loop=LoopConfig(**{k: float(v) for k, v in values["loop"].items()}),
        journal_path=base / journal if journal else _default_journal(base),
        pin_factory=values["gpio"]["pin_factory"],
        remote=remote,
        voice=VoiceConfig(**values["voice"]),
        lines=problems.lines,
        thinking=Thinking(None if values["computer"]["speed"] == "auto" else float(values["computer"]["speed"]),
                          hint_seconds=float(values["computer"]["hint_seconds"])),
    )


def _default_journal(base: Path) -> Path:
    """systemd's StateDirectory when run as the service, else beside the configuration file."""
    state = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    return (Path(state) if state else base) / "journal.sqlite3"


def _check_game(problems: Problems, name: str, options: dict[str, Any]) -> str | None:
    """The game exists and takes these options (its module may not be installed on this machine).

    Returns the name of the game's board, None when the game cannot be made.
    """
    from engine.core import OptionError
    from engine.registry import GAMES, game_class
    if name not in GAMES:
        problems.add("game.name", f"unknown game {name!r}; use one of {', '.join(GAMES)}")
        return None
    try:
        return game_class(name)(**options).board_name
    except ModuleNotFoundError:
        problems.add("game.name", f"the game {name!r} is not installed in this version; "
                                  "`gameboard games` lists the ones that are")
    except OptionError as exc:
        problems.add("game.options", f"{exc}; `gameboard games` lists each game's options")
    return None


def _check_seats(problems: Problems, name: str, options: dict[str, Any], texts: list[str]) -> tuple[Seat, ...]:
    """One seat per player of the game (human when none are listed)."""
    from engine.registry import game_class
    try:
        return parse_seats(texts, game_class(name)(**options).num_players)
    except ValueError as exc:
        problems.add("game.seats", f"{exc}")
        return ()
