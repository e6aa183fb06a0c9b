"""``gameboard run``: the board daemon, as systemd starts it (``--config`` names the TOML file)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib.resources import files
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING, Any

from engine.errors import GameboardError
from engine.registry import GAMES, game_class
from firmware_host.commands.arguments import add_page_arguments
from firmware_host.commands.sim import DEFAULT_PORT, state_dir
from firmware_host.config import Config, secret_warnings, voice_warnings
from firmware_host.service_unit import ServiceUnit, withheld
from firmware_host.validation import cannot_write, checked_config
from wiring.model import Wiring

if TYPE_CHECKING:
    from firmware_host.daemon import Daemon
    from firmware_host.voice import Voice
    from firmware_host.web.serve import Listener


def default_config() -> Path:
    """systemd's ConfigurationDirectory when run as the service, else /etc/gameboard."""
    folder = os.environ.get("CONFIGURATION_DIRECTORY", "/etc/gameboard").split(":")[0]
    return Path(folder) / "gameboard.toml"


def register(subparsers: argparse._SubParsersAction) -> None:
    run = subparsers.add_parser(
        "run", help="run the board daemon",
        description="Scan the board, follow the game, light the LEDs; resumes an unfinished game.")
    source = run.add_mutually_exclusive_group()
    source.add_argument("--config", type=Path, default=None,
                        help=f"the configuration file (default: {default_config()})")
    source.add_argument("--mock", metavar="GAME", choices=list(GAMES),
                        help="run GAME on the mock board, no hardware or configuration file needed "
                             "(with --web to watch it)")
    run.add_argument("--seats", nargs="+", metavar="SEAT", default=[],
                     help="with --mock: who plays each seat in turn order: human, computer or computer:LEVEL "
                          "(levels easy, normal, hard), e.g. --seats human computer")
    run.add_argument("--check", action="store_true",
                     help="check the configuration and the wiring, open nothing, and exit")
    web = run.add_argument_group("web mirror", "a read-only page showing the board and its LEDs")
    web.add_argument("--web", action="store_true", help="serve the mirror page")
    add_page_arguments(web, DEFAULT_PORT)
    run.set_defaults(handler=run_daemon)


def run_daemon(args: argparse.Namespace) -> int:
    if args.seats and not args.mock:
        raise GameboardError("--seats goes with --mock; on a board, list them in the configuration's [game] section, "
                             'e.g. seats = ["human", "computer"]')
    config = checked_config(mock_config(args.mock, args.seats) if args.mock else args.config or default_config())
    wiring = config.load_wiring()
    for warning in secret_warnings(config) + voice_warnings(config):
        print(f"gameboard: warning: {warning}", file=sys.stderr, flush=True)
    if args.check:
        problem = withheld(config, ServiceUnit.installed())
        if problem:
            raise GameboardError(problem)
        print(f"{config.path}: ok: {describe(config, wiring)}")
        return 0
    from firmware_host.daemon import Daemon
    from firmware_host.web.serve import Listener

    # The page's port first: one in use stops run before any hardware opens.
    listener = Listener(args.listen, args.port, token=args.token, allow_hosts=args.allow_host) if args.web else None
    daemon = Daemon.from_config(config)
    print(f"gameboard run: {describe(config, wiring)}; {log_place()}", file=sys.stderr, flush=True)
    printer = StatusPrinter()
    printer(daemon.snapshot())
    daemon.subscribe(printer)
    if listener is not None:
        start_mirror(daemon, listener)
    voice = speak_for(daemon, config)
    try:
        daemon.run()
    finally:
        if voice is not None:
            voice.close()
    return 0


def speak_for(daemon: Daemon, config: Config) -> Voice | None:
    """The board's voice, watching the daemon, when ``[voice]`` is on (silent where espeak-ng is missing)."""
    if not config.voice.on:
        return None
    from firmware_host.voice import Speaker, Voice
    voice = Voice(Speaker(config.voice))
    daemon.watch(voice.hear)
    return voice


def mock_config(game: str, seats: list[str] | None = None) -> Path:
    """The mock board's configuration for ``game`` (``firmware_host/mock.toml`` filled in), written to the state folder."""
    path = state_dir() / "mock.toml"
    problem = cannot_write(path)
    if problem:
        raise GameboardError(f"--mock: {problem}; set XDG_STATE_HOME to a folder you can write")
    template = Template(files("firmware_host").joinpath("mock.toml").read_text(encoding="utf-8"))
    path.parent.mkdir(parents=True, exist_ok=True)
    listed = ", ".join(json.dumps(seat) for seat in seats or ())
    path.write_text(template.substitute(game=game, board=game_class(game).board_name, seats=f"[{listed}]"),
                    encoding="utf-8")
    return path


def describe(config: Config, wiring: Wiring) -> str:
    """What the daemon runs: the game, the board and its channels, the drivers, the journal."""
    parts = [f"{config.game().title} on {wiring.board}, {len(wiring.channels)} channels",
             f"sensors {config.sensors.driver}", f"LEDs {config.leds.driver}",
             f"buttons {config.buttons.driver}" if config.buttons else "no buttons"]
    if config.pin_factory:
        parts.append(f"pins by {config.pin_factory}")
    if config.remote is not None:
        parts.append(f"remote game {config.remote.game} on {config.remote.broker} as {config.remote.name}")
    return ", ".join(parts + [f"journal {config.journal_path}"])


def log_place() -> str:
    """Where the status lines and errors go: systemd's journal under the service, else this terminal."""
    if os.environ.get("JOURNAL_STREAM"):
        return "its status changes and errors go to the system journal (journalctl -u gameboard)"
    return "its status changes and errors follow on stderr; Ctrl-C stops"


class StatusPrinter:
    """A daemon subscriber printing the status line to stderr each time it changes: the daemon's log."""

    def __init__(self) -> None:
        self.shown = ""

    def __call__(self, snapshot: dict[str, Any]) -> None:
        text = snapshot["status_text"] + (f" ({snapshot['note']})" if snapshot["note"] else "")
        if text != self.shown:
            print(text, file=sys.stderr, flush=True)
            self.shown = text


def start_mirror(daemon: Daemon, listener: Listener) -> None:
    """Serve the read-only page on ``listener`` (its port already bound) from a thread of its own; the daemon
    keeps the main thread."""
    import asyncio
    import threading

    from firmware_host.web.mirror import MirrorSession

    mirror = MirrorSession(daemon)

    async def main() -> None:
        mirror.attach(asyncio.get_running_loop())
        await listener.serve(mirror, read_only=True)

    threading.Thread(target=asyncio.run, args=(main(),), name="web-mirror", daemon=True).start()
