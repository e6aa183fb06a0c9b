"""docs/build.md stays true: its magnet table is the formula's, its configurations pass the check, its
schematics are what the command draws now."""

from __future__ import annotations

import asyncio
import re
import shlex
import tomllib
from pathlib import Path

import pytest

from engine.boards import load_board
from firmware_host.calibration.practice import PracticeSession
from firmware_host.cli import build_parser, main
from firmware_host.kit.magnets import axial_field_mt
from firmware_host.validation import checked_config
from tests.kit_parts.test_practice import FAST, PageHands, walk_through
from wiring.files import load_wiring

ROOT = Path(__file__).parents[2]
GUIDE = (ROOT / "docs" / "build.md").read_text()
MAGNET_ROW = re.compile(r"^\| (\d+) x (\d+) mm (N\d+)[^|]*((?:\| \d+ mT )+)\|$", re.MULTILINE)


def test_the_magnet_table_is_the_formulas() -> None:
    distances = [int(d) for d in re.findall(r"(\d+) mm", GUIDE.split("| magnet |")[1].splitlines()[0])]
    rows = MAGNET_ROW.findall(GUIDE)
    assert len(rows) == 4 and distances == [3, 5, 8, 10, 12, 15]
    for diameter, thickness, grade, cells in rows:
        printed = [int(value) for value in re.findall(r"(\d+) mT", cells)]
        assert printed == [round(axial_field_mt(grade, int(diameter), int(thickness), d)) for d in distances]


@pytest.mark.parametrize("number", [0, 1, 2])
def test_the_worked_configurations_pass_the_check(number: int, tmp_path: Path, capsys) -> None:
    """Each configuration passes the check, with the wiring file `board route` generates for its sensors beside
    it; where the Pi drives the strips, its [leds] strips are the route's."""
    blocks = [block for block in re.findall(r"```toml\n(.*?)```", GUIDE, re.DOTALL) if block.startswith("[game]")]
    assert len(blocks) == 3
    path = tmp_path / "gameboard.toml"
    path.write_text(blocks[number])
    config = checked_config(path, wiring=False, journal=False)
    game = config.game()
    assert game.name == ("squareoff", "overpass", "overpass")[number]
    driver = tomllib.loads(blocks[number])["sensors"]["driver"]
    assert main(["board", "route", game.board.name, "--front-end", driver, "-o", str(tmp_path / "wiring.toml")]) == 0
    capsys.readouterr()
    checked_config(path, journal=False)
    leds = tomllib.loads(blocks[number])["leds"]
    if leds["driver"] == "neopixel_spi":
        assert [strip["length"] for strip in leds["strips"]] == list(load_wiring(tmp_path / "wiring.toml").strip_lengths)


@pytest.mark.parametrize(("name", "arguments"), [
    ("squareoff-hc165.svg", ["squareoff", "--front-end", "hc165"]),
    ("overpass-serial.svg", ["overpass", "--sensors", "hall", "--front-end", "serial"]),
])
def test_the_guides_schematics_are_current(name: str, arguments: list[str], tmp_path: Path) -> None:
    out = tmp_path / name
    assert main(["board", "schematic", *arguments, "-o", str(out)]) == 0
    assert (ROOT / "docs" / "build" / name).read_text() == out.read_text(), \
        f"docs/build/{name} is stale: gameboard board schematic {' '.join(arguments)} -o docs/build/{name}"


CONSOLE = re.compile(r"```console\n(.*?)```", re.DOTALL)
INLINE = re.compile(r"`(gameboard (?:board|wiring) [^`]+)`")


def console_sessions() -> list[tuple[str, list[str]]]:
    """Each ``$ gameboard ...`` of the guide's console blocks, with the lines it shows after it."""
    commands: list[tuple[str, list[str]]] = []
    for block in CONSOLE.findall(GUIDE):
        for line in block.splitlines():
            if line.startswith("$ "):
                commands.append((line[2:], []))
            elif line.strip():
                commands[-1][1].append(line)
    return commands


def inline_commands() -> list[str]:
    """The guide's commands in running text and sh blocks, where written out in full (no BOARD, no FILE)."""
    found = [" ".join(text.split()) for text in INLINE.findall(GUIDE)]
    found += [line for block in re.findall(r"```sh\n(.*?)```", GUIDE, re.DOTALL) for line in block.splitlines()
              if line.startswith("gameboard board")]
    return [command for command in dict.fromkeys(found)
            if len(command.split()) > 3 and not re.search(r"[A-Z]{3,}|\.\.\.", command)]


def test_every_command_of_the_guide_runs_as_written_and_says_what_it_shows(tmp_path, monkeypatch, capsys):
    """The worked sessions line by line (each shown line is in what the command prints, an error where it shows
    one), then every full command in the text: none is refused."""
    monkeypatch.chdir(tmp_path)
    sessions = console_sessions()
    assert any(command.startswith("gameboard board route overpass") for command, _ in sessions)
    for command, shown in sessions:
        argv = shlex.split(command)[1:]
        if "--practice" in argv:  # it serves a page until Ctrl-C: its walk is the next test's
            build_parser().parse_args(argv)
            continue
        code = main(argv)
        printed = capsys.readouterr()
        lines = (printed.out + printed.err).splitlines()
        refused = any(line.startswith("gameboard: error") for line in shown)
        assert code == (2 if refused else 0), (command, printed.err)
        missing = [line for line in shown if line != "..." and line not in lines]
        assert not missing, (command, missing)
    for command in inline_commands():
        assert main(shlex.split(command)[1:]) == 0, (command, capsys.readouterr().err)
    capsys.readouterr()


def test_the_guides_practice_confirms_the_generated_wiring_file(tmp_path, monkeypatch, capsys):
    """`gameboard calibrate --practice overpass --built-to wiring.toml`, on the file the guide's route wrote: the
    walk asks for every place, finds each where the plan put it, and writes the plan again."""
    monkeypatch.chdir(tmp_path)
    commands = {command.split()[2]: shlex.split(command)[1:] for command, _ in console_sessions()
                if command.startswith(("gameboard board route", "gameboard calibrate"))}
    assert main(commands["route"]) == 0
    capsys.readouterr()
    args = build_parser().parse_args(commands["--practice"])
    board = load_board(args.practice)
    session = PracticeSession(board, args.output, settings=FAST, plan=args.built_to)
    outcome = asyncio.run(walk_through(session, PageHands(session)))
    places = len(board.locations)
    assert (outcome["channels_right"], outcome["leds_right"], outcome["problems"]) == (places, places, [])
    planned, written = load_wiring(args.built_to), load_wiring(args.output)
    assert (written.channels, written.leds, written.strip_lengths) == (planned.channels, planned.leds,
                                                                     planned.strip_lengths)
