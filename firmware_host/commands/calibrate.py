"""``gameboard calibrate``: the guided calibration on the configured hardware, in a terminal."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from engine.errors import GameboardError
from firmware_host.calibration.progress import kept_note, progress_path
from firmware_host.calibration.questions import QUIT, READ, Ask, CalibrationPaused, Person
from firmware_host.calibration.start import parse_classes, start_wiring
from firmware_host.calibration.walk import Calibration, Result, Settings
from firmware_host.commands.arguments import at_least
from firmware_host.commands.calibrate_practice import add_practice_arguments, run_practice
from firmware_host.commands.run import default_config
from firmware_host.config import Config, Hal
from firmware_host.validation import cannot_write, checked_config
from hal.base import LedSink, SensorArray


def register(subparsers: argparse._SubParsersAction) -> None:
    calibrate = subparsers.add_parser(
        "calibrate", help="find the wiring and calibrate the sensors, guided step by step",
        description="Walks through the board: the terminal names each location (and the LEDs light it), you put "
                    "a piece there, the tool finds its channel; then each LED, a chase along each strip, and for "
                    "analog Hall sensors each piece class. Ctrl-C or q keeps the progress: run it again to continue.")
    calibrate.add_argument("--config", type=Path, default=None,
                           help=f"the configuration file (default: {default_config()})")
    calibrate.add_argument("-o", "--output", type=Path, default=None,
                           help="the wiring file to write (default: [board] wiring of the configuration)")
    calibrate.add_argument("--classes", default=None,
                           help="analog sensors: piece=class pairs, e.g. white=north,black=south "
                                "(default: those of the file being replaced, or of the board's example)")
    calibrate.add_argument("--pieces", type=at_least(1, int), default=Settings.pieces,
                           help=f"pieces of one class you have at hand for the class step (default {Settings.pieces})")
    calibrate.add_argument("--samples", type=at_least(1, int), default=Settings.samples,
                           help=f"scans per reading, the median kept (default {Settings.samples})")
    calibrate.add_argument("--min-change", type=at_least(1), default=Settings.min_change,
                           help=f"analog counts a piece must move a channel at least (default {Settings.min_change:g})")
    calibrate.add_argument("--redo", type=location_ids, default=[], metavar="LOCATIONS",
                           help="only these locations (comma-separated ids, e.g. p5,p20), keeping the rest of the file")
    calibrate.add_argument("--keep-leds", action="store_true",
                           help="trust the LED order of the file being replaced (or the example): skip the LED step")
    add_practice_arguments(calibrate)
    calibrate.set_defaults(handler=run_calibration)


class TerminalPerson:
    """The person at the board, through a terminal: questions printed, keys typed and Enter."""

    def __init__(self, read: Callable[[str], str] | None = None, write: Callable[[str], None] = print) -> None:
        self.read = read or input
        self.write = write
        self._last: Ask | None = None

    def tell(self, text: str) -> None:
        self.write(f"  ! {text}")

    def ask(self, question: Ask) -> str:
        if question != self._last:  # asked again after a problem: the keys are enough
            step = f"{question.phase} {question.done}/{question.total} done" if question.total else question.phase
            self.write(f"[{step}] {question.text}")
            self._last = question
        keys = " · ".join(f"{'Enter' if key == READ else key}: {meaning}" for key, meaning in question.choices.items())
        while True:
            try:
                answer = self.read(f"  ({keys}) > ").strip().lower()
            except EOFError:
                return QUIT
            if answer in question.choices:
                return answer
            self.write(f"  {answer!r} is not one of the keys offered")


def calibrate_with(config: Config, sensors: SensorArray, leds: LedSink, person: Person, output: Path | None = None,
                   settings: Settings = Settings(), classes: dict[str, str] | None = None,
                   redo: list[str] | None = None) -> Result:
    """Calibrate the configured game's board on these sensors and LEDs, writing the wiring file."""
    output = wiring_output(config, output)
    if redo and not output.exists():
        raise GameboardError(f"--redo changes an existing wiring file, and {output} does not exist yet;"
                             " run without --redo to calibrate the whole board")
    board = config.game().board
    start = start_wiring(board, output, classes)
    return Calibration(board, sensors, leds, person, output, start, settings, redo=redo or ()).run()


def wiring_output(config: Config, output: Path | None) -> Path:
    """The wiring file to write (``--output``, else ``[board] wiring``), refused before any question if unwritable."""
    output = output or config.wiring_path
    if output is None:
        raise GameboardError(f"{config.path}: no wiring file to write: give --output FILE, or set [board] wiring")
    problem = cannot_write(output, make_folders=False)
    if problem:
        raise GameboardError(f"cannot write the wiring file: {problem}; give --output a file in a folder you can write")
    return output


def run_calibration(args: argparse.Namespace) -> int:
    if args.practice:
        return run_practice(args)
    config = checked_config(args.config or default_config(), wiring=False, journal=False)
    output = wiring_output(config, args.output)
    classes = parse_classes(args.classes) if args.classes is not None else None
    settings = Settings(samples=args.samples, min_change=args.min_change, pieces=args.pieces, keep_leds=args.keep_leds)
    try:
        with opened_hal(config) as hal:
            result = calibrate_with(config, hal.sensors, hal.leds, TerminalPerson(), output, settings, classes,
                                    args.redo)
    except CalibrationPaused as paused:
        print(f"gameboard calibrate: {paused}")
        return 1
    except KeyboardInterrupt:
        print(f"\ngameboard calibrate: stopped; {kept_note(progress_path(output))}")
        return 130
    for problem in result.problems:
        print(f"{result.path}: {problem.message}")
    return 1 if result.problems else 0


def location_ids(text: str) -> list[str]:
    """``--redo``'s comma-separated location ids."""
    ids = [location.strip() for location in text.split(",") if location.strip()]
    if not ids:
        raise argparse.ArgumentTypeError(f"{text!r} names no location: give ids separated by commas, e.g. p5,p20")
    return ids


@contextmanager
def opened_hal(config: Config) -> Iterator[Hal]:
    """The configured hardware, closed (LEDs dark) however the command ends."""
    hal = config.open_hal()
    try:
        yield hal
    finally:
        hal.close()
