"""Every subcommand, given bad arguments and bad paths, answers with an error line, never a traceback;
every command's ``--help`` works, and one named without its action lists them.

``CASES`` holds the bad command lines of each subcommand; a subcommand the parser has
and ``CASES`` lacks fails ``test_every_subcommand_has_its_bad_cases``: a new command
adds one entry here.  ``{placeholders}`` are paths made for each test.
"""

from __future__ import annotations

import argparse
import builtins
import contextlib
import json
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine.registry import new_game
from firmware_host.cli import build_parser, main
from wiring.examples import example_path

#: Configuration files that cannot be used, each a different way.
BAD_CONFIGS = ["{missing}", "{folder}", "/proc/nope/gameboard.toml", "{garbage}", "{empty}", "{text}", "{unknown_game}",
               "{bad_section}"]
SQUAREOFF = ["squareoff", "--players", "random", "random"]
FULL_HOUSE = ["full-house", "--quiet"]
UNREACHABLE = ["--join", "mqtt://127.0.0.1:1/friday", "--name", "bob", "--wait", "0.3"]

CASES: dict[tuple[str, ...], list[list[str]]] = {
    ("board", "list"): [["--bogus"]],
    ("board", "info"): [["chess"], ["overpass", "--bogus"], [""]],
    ("board", "draw"): [["overpass", "-o", path]
                        for path in ["{folder}/drawing.svg", "{missing}/x.svg", "/proc/nope/x.svg", "{tmp}", "",
                                     "{tmp}/x.txt", "{tmp}/x"]]
    + [["chess", "-o", "{tmp}/x.svg"], ["overpass"],
       ["overpass", "-o", "{tmp}/x.svg", "--game", "hexover"], ["overpass", "-o", "{tmp}/x.svg", "--game", "chess"],
       ["overpass", "-o", "{tmp}/x.svg", "--game", ""], ["overpass", "-o", "{tmp}/x.svg", "--width", "wide"],
       ["overpass", "-o", "{tmp}/x.png", "--width", "-5"], ["overpass", "-o", "{tmp}/x.png", "--width", "100000"],
       ["overpass", "-o", "{tmp}/x.svg", "--width", "0"], ["overpass", "-o", "{tmp}/x.svg", "--width", "1.5"],
       ["squareoff", "-o", "{tmp}/x.svg", "--moves", "p1"], ["squareoff", "-o", "{tmp}/x.svg", "--game", "squareoff",
                                                            "--moves", "p1; p1"],
       ["squareoff", "-o", "{tmp}/x.svg", "--game", "squareoff", "--option", "speed=9"]],
    ("board", "parts"): [["chess"], [""], ["overpass", "--front-end", "mcp23017"], ["squareoff", "--front-end", "gpio"],
                         ["hexover", "--sensors", "hall-analog"], ["overpass", "--sensors", "magic"],
                         ["overpass", "--front-end", "nope"],
                         ["overpass", "--game", "hexover"], ["overpass", "--leds", "0"], ["overpass", "--leds", "many"],
                         ["overpass", "--leds", "3"], ["overpass", "--density", "0"], ["overpass", "--budget", "5"],
                         ["overpass", "--budget", "900000"], ["overpass", "--size", "wide"],
                         ["overpass", "--size", "0mm"], ["overpass", "--option", "players=9"],
                         ["overpass", "-o", "{folder}"], ["overpass", "-o", "{missing}/parts.md"]],
    ("board", "schematic"): [["overpass"], ["chess", "-o", "{tmp}/s.svg"], ["overpass", "-o", "{tmp}/s.png"],
                             ["overpass", "-o", "{folder}"], ["overpass", "-o", "{missing}/s.svg"],
                             ["overpass", "-o", "{tmp}/s.svg", "--front-end", "mcp3008"]],
    ("board", "template"): [["chess", "--size", "420mm"], ["overpass", "--clearance", "20mm"],
                            ["overpass", "--size", "42"],
                            ["overpass", "--size", "420mm", "--spacing", "30mm"], ["overpass", "--size", "420mm"],
                            ["squareoff", "--size", "20mm"], ["squareoff", "--spacing", "0mm"],
                            ["squareoff", "--spacing", "30mm", "--clearance", "8"],
                            ["squareoff", "--spacing", "30mm", "--route", "zigzag"]]
    + [["squareoff", "--spacing", "30mm", "-o", path] for path in ["{missing}", "{empty}", "/proc/nope"]],
    ("board", "route"): [["overpass", "--sensors", "hall-analog"],
                         ["overpass", "--size", "980mm", "--front-end", "mcp23017"],
                         ["overpass", "--size", "980mm", "--front-end", "nope"], ["squareoff", "--sensors", "magnetic"],
                         ["overpass", "--sensors", "hall-analog", "--front-end", "serial"],
                         ["squareoff", "--pico", "{tmp}/gameboard.json"],
                         ["squareoff", "--front-end", "serial", "--pico", "{folder}"],
                         ["squareoff", "--size", "420mm", "--front-end", "mcp3008"]]
    + [["squareoff", "--size", "420mm", "--front-end", "hc165", "-o", path]
       for path in ["{folder}", "{missing}/w.toml", "/proc/nope/w.toml"]],
    ("games",): [["--bogus"], ["overpass"]],
    ("solve",): [["chess"], ["hexover"], [*FULL_HOUSE, "--time-limit", "0"], [*FULL_HOUSE, "--time-limit", "soon"],
                 [*FULL_HOUSE, "--time-limit", "inf"], [*FULL_HOUSE, "--time-limit", "nan"],
                 [*FULL_HOUSE, "--time-limit", "-1"], [*FULL_HOUSE, "--hint", "--chains"],
                 [*FULL_HOUSE, "--chains", "--time-limit", "1"], [*FULL_HOUSE, "--option", "pieces=1"],
                 [*FULL_HOUSE, "--option", "pieces=1000"], [*FULL_HOUSE, "--option", "pieces=abc"],
                 [*FULL_HOUSE, "--option", "size=3"], [*FULL_HOUSE, "--option", "pieces"],
                 [*FULL_HOUSE, "--option", "pieces=3", "--option", "pieces=4"],
                 ["crooked-jumps", "--option", "layout=nope"], ["crooked-jumps", "--option", "jumps=sideways"]]
    + [[*FULL_HOUSE, "--position", path] for path in ["{missing}", "{folder}", "{garbage}", "{empty}", "{list}",
                                                       "{hexover}", "{unknown_position}"]]
    + [[*FULL_HOUSE, "--journal", path] for path in ["{missing}", "{folder}", "{garbage}", "{empty}"]]
    + [[*FULL_HOUSE, "--journal"], [*FULL_HOUSE, "--position", "{hexover}", "--journal", "{missing}"]],
    ("arena",): [["chess", "--players", "random", "random"], ["squareoff"], ["squareoff", "--players", "robot", "random"],
                 ["squareoff", "--players", "random"], ["squareoff", "--players", "random", "random", "random"],
                 ["full-house", "--players", "random"], ["squareoff", "--players", "computer:expert", "random"],
                 ["squareoff", "--players", "computer:", "random"], ["squareoff", "--players", "", "random"]]
    + [[*SQUAREOFF, *more] for more in (["--games", "0"], ["--games", "-1"], ["--games", "1.5"], ["--seed", "abc"],
                                        ["--max-plies", "0"], ["--jobs", "0"], ["--jobs", "100000"],
                                        ["--option", "variant=chess"], ["--option", "nothing"],
                                        ["--option", "players=2"], ["--option", "=1"])],
    ("run",): [["--config", path] for path in BAD_CONFIGS]
    + [["--mock", "chess"], ["--mock", ""], ["--mock", "squareoff", "--port", "99999"],
       ["--mock", "squareoff", "--port", "0"], ["--mock", "squareoff", "--port", "http"],
       ["--mock", "squareoff", "--config", "{good}"], ["--config", "{bad_journal}"], ["--config", "{bad_wiring}"],
       ["--config", "{ipv6_broker}"], ["--check", "--config", "{ipv6_broker}"],
       ["--mock", "squareoff", "--seats", "human"], ["--mock", "squareoff", "--seats", "human", "robot"],
       ["--mock", "squareoff", "--seats", "human", "computer:expert"],
       ["--mock", "squareoff", "--seats", "human", "remote:bob"], ["--seats", "human", "computer"],
       ["--config", "{good}", "--seats", "human", "computer"],
       ["--mock", "squareoff", "--web", "--listen", "nowhere"], ["--mock", "squareoff", "--web", "--listen", ""]],
    ("sim",): [["chess"], [""], ["--port", "99999"], ["--port", "http"], ["--port", "-1"], ["--option", "{{"],
               ["--option", "players=7"], ["--option", "players=two"], ["--option", "nothing"],
               ["--options", "{{}}", "--port", "{port}"],
               ["squareoff", "--option", "variant=chess", "--option", "variant=classic"], ["--seed", "abc"],
               ["--speed", "fast"], ["--speed", "0"], ["--speed", "nan"],
               ["--listen", "nowhere"], ["--listen", ""], ["--journal", "{folder}"], ["--journal", "/proc/nope/j.db"],
               ["--journal", "{garbage}"], ["--journal", ""], ["squareoff", "--seats", "computer:expert", "human"],
               ["squareoff", "--seats", "human"], ["squareoff", "--seats", "human", "robot"],
               ["squareoff", "--seats", "human", "remote:bob", "--port", "{port}"], UNREACHABLE,
               [*UNREACHABLE, "--option", "players=2"], ["--join", "mqtt://127.0.0.1/friday"],
               ["--join", "mqtt://127.0.0.1", "--name", "bob"], ["--join", "", "--name", "bob", "--port", "{port}"],
               ["--join", "http://127.0.0.1/friday", "--name", "bob"], ["--join", "mqtt:///friday", "--name", "bob"],
               ["--join", "mqtt://[::1/friday", "--name", "bob"], ["--join", "mqtt://127.0.0.1:99999/friday", "--name",
               "bob"], ["--join", "mqtt://127.0.0.1/fri day", "--name", "bob"],
               ["--join", "mqtt://127.0.0.1/friday", "--name", "a b"], [*UNREACHABLE[:-1], "-1"],
               [*UNREACHABLE[:-1], "nan"], [*UNREACHABLE[:-1], "soon"],
               ["hexover", "--seats", "human", "remote:bob", *UNREACHABLE],
               ["hexover", "--seats", "human", "remote:", *UNREACHABLE],
               ["hexover", "--seats", "human", "human", *UNREACHABLE]],
    ("watch",): [["http://127.0.0.1/friday"], ["mqtt://127.0.0.1"], [""], ["mqtt://[::1/friday"],
                 ["mqtt://127.0.0.1/friday", "--name", "a b"], ["mqtt://127.0.0.1:abc/friday"],
                 ["mqtt://127.0.0.1:1/friday", "--wait", "0.3", "--port", "18399"], ["mqtt://x/y", "--port", "99999"],
                 ["mqtt://127.0.0.1:1/friday", "--wait", "-1"], ["mqtt://127.0.0.1/friday", "--listen", "nowhere"]],
    ("calibrate",): [["--config", path] for path in BAD_CONFIGS]
    + [["--config", "{good}", "-o", path] for path in ["{folder}", "{missing}/w.toml", "/proc/nope/w.toml", "",
                                                        "{garbage}", "{empty}", "{text}"]]
    + [["--config", "{good}", *more] for more in (["--pieces", "0"], ["--pieces", "abc"], ["--samples", "0"],
                                                  ["--min-change", "-1"], ["--min-change", "nan"],
                                                  ["--min-change", "inf"], ["--min-change", "abc"],
                                                  ["-o", "{tmp}/w.toml", "--classes", "black"],
                                                  ["-o", "{tmp}/w.toml", "--classes", ""],
                                                  ["-o", "{tmp}/w.toml", "--classes", "=north"],
                                                  ["-o", "{tmp}/w.toml", "--redo", "p5"])]
    + [["--config", "{wired}", *more] for more in (["--redo", "x9"], ["--redo", ""], ["--redo", ","],
                                                   ["-o", "{chess_wiring}"])]
    + [["--practice", "chess"], ["--practice", "squareoff", "--port", "99999"],
       ["--practice", "squareoff", "-o", "{folder}"], ["--practice", "squareoff", "--listen", "nowhere"],
       ["--practice", "squareoff", "--config", "{good}"], ["--practice", "squareoff", "--redo", "p5"],
       ["--practice", "squareoff", "--classes", "white=north"], ["--practice", "hexover", "--sensing", "magnetic"],
       ["--practice", "hexover", "--sensing", "analog", "--classes", "white"]]
    + [["--practice", "squareoff", "--built-to", path] for path in ["{missing}", "{folder}", "{garbage}",
                                                                    "{chess_wiring}"]],
    ("wiring", "check"): [["{missing}"], ["{folder}"], ["/proc/nope/w.toml"], ["{garbage}"], ["{text}"], [""]],
    ("wiring", "example"): [["chess"], [""]],
    ("journal", "check"): [["{missing}"], ["{folder}"], ["/proc/nope/j.db"], ["{garbage}"], ["{text}"],
                           ["{not_a_journal}"]],
    ("journal", "salvage"): [["{missing}"], ["{folder}"], ["{garbage}"], ["{garbage}", "-o", "{folder}"],
                             ["{not_a_journal}", "-o", "{empty}"]],
    ("leds", "test"): [["--config", path] for path in BAD_CONFIGS]
    + [["--config", "{good}", *more] for more in (["--seconds", "-1"], ["--seconds", "nan"], ["--seconds", "inf"],
                                                  ["--chase-seconds", "soon"], ["--chase-seconds", "-0.1"])],
    ("record", "export"): [["--journal", path] for path in ["{missing}", "{folder}", "{garbage}", "{empty}", "{text}",
                                                           "{not_a_journal}", "/proc/nope/j.db"]]
    + [[], ["--config", "{missing}"], ["--config", "{garbage}"], ["--config", "{unknown_game}"],
       ["--journal", "{missing}", "--config", "{good}"], ["--game", "two"],
       ["--journal", "{record}", "-o", "{folder}"]],
    ("record", "check"): [[path] for path in ["{missing}", "{folder}", "{garbage}", "{empty}", "{text}", "{hexover}",
                                              "/proc/nope/game.txt", "{illegal_record}"]]
    + [["{record}", "--ply", "9"], ["{record}", "--ply", "-1"], ["{record}", "--ply", "one"],
       ["{record}", "--svg", "{folder}"], ["{record}", "--svg", "/proc/nope/x.svg"]],
    ("record", "import"): [[path] for path in ["{missing}", "{garbage}", "{illegal_record}"]]
    + [["{record}", "--journal", path] for path in ["{folder}", "{garbage}", "{not_a_journal}", "/proc/nope/j.db"]]
    + [["{record}", "--config", "{missing}"], ["{record}", "--config", "{bad_journal}"]],
    ("record", "replay"): [["--config", path] for path in BAD_CONFIGS]
    + [["--config", "{good}"], ["{missing}", "--config", "{good}"], ["{illegal_record}", "--config", "{good}"],
       ["{hexover_record}", "--config", "{good}"], ["{record}", "--config", "{good}", "--ply", "9"],
       ["{record}", "--config", "{good}", "--seconds", "-1"], ["{record}", "--config", "{good}", "--seconds", "soon"]],
    ("sensors", "watch"): [["--config", path] for path in BAD_CONFIGS]
    + [["--config", "{good}", *more] for more in (["--interval", "-1"], ["--interval", "nan"], ["--count", "-2"],
                                                  ["--count", "0"], ["--count", "1.5"])],
}

ERROR_LINE = re.compile(r"^gameboard[a-z ]*: error: \S", re.MULTILINE)


def subcommands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The parser's runnable commands, as the words that name them."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += subcommands(sub, path + (name,)) or [path + (name,)]
    return found


def test_every_subcommand_has_its_bad_cases() -> None:
    assert sorted(subcommands(build_parser())) == sorted(CASES)


def command_groups(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The program (``()``) and every command that has actions of its own (``("board",)``)."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.append(path)
            for name, sub in action.choices.items():
                found += command_groups(sub, path + (name,))
    return found


@pytest.mark.parametrize("command", sorted(set(command_groups(build_parser())) | set(subcommands(build_parser()))),
                         ids=lambda command: " ".join(command) or "gameboard")
def test_every_command_explains_itself(command: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    for flag in ("--help", "-h"):
        with pytest.raises(SystemExit) as exit:
            main([*command, flag])
        out, err = capsys.readouterr()
        assert exit.value.code == 0 and out.startswith(f"usage: {' '.join(('gameboard', *command))} "), (out, err)


@pytest.mark.parametrize("command", command_groups(build_parser()), ids=lambda command: " ".join(command) or "gameboard")
def test_a_command_without_its_action_lists_them(command: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    code = main(list(command))
    out, err = capsys.readouterr()
    actions = [path[len(command)] for path in subcommands(build_parser()) if path[:len(command)] == command]
    assert code == 2 and all(f"\n    {action}" in err for action in actions) and ERROR_LINE.search(err), err


@pytest.fixture
def paths(tmp_path: Path) -> dict[str, str]:
    """The placeholders' paths: missing ones, a folder, files of the wrong kind, configurations."""
    (tmp_path / "folder" / "drawing.svg").mkdir(parents=True)
    (tmp_path / "garbage").write_bytes(b"\x00\xff\xfe garbage \x89PNG\r\n\x1a\n" * 20)
    (tmp_path / "empty").write_bytes(b"")
    (tmp_path / "text").write_text("hello, not toml = [\n")
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "hexover.json").write_text(json.dumps(new_game("hexover").to_json()))
    (tmp_path / "chess.json").write_text(json.dumps({"game": "chess", "options": {}, "position": {}}))
    (tmp_path / "chess_wiring.toml").write_text('format = 1\nboard = "chess"\n')
    (tmp_path / "record.txt").write_text('[Game "squareoff"]\n\n1. p1\n')
    (tmp_path / "illegal_record.txt").write_text('[Game "squareoff"]\n\n1. p1\n2. p1\n')
    (tmp_path / "hexover_record.txt").write_text('[Game "hexover"]\n')
    shutil.copy(example_path("squareoff"), tmp_path / "wiring.toml")
    with contextlib.closing(sqlite3.connect(tmp_path / "other.sqlite3")) as other:
        other.execute("CREATE TABLE notes (text)")
    mock = 'driver = "mock"\nboard = "squareoff"\n'
    good = f'[game]\nname = "squareoff"\n[sensors]\n{mock}[leds]\n{mock}'
    configs = {"good": good, "bad_journal": good + '[journal]\npath = "folder"\n',
               "bad_wiring": good + '[board]\nwiring = "garbage"\n', "wired": good + '[board]\nwiring = "wiring.toml"\n',
               "unknown_game": good.replace('"squareoff"', '"chess"', 1), "bad_section": good + "[led]\nx = 1\n",
               "ipv6_broker": good.replace("[sensors]", 'seats = ["human", "remote:bob"]\n[sensors]')
               + '[remote]\nbroker = "mqtt://[::1"\ngame = "friday"\nname = "alice"\n'}
    for name, text in configs.items():
        (tmp_path / f"{name}.toml").write_text(text)
    names = {"missing": tmp_path / "missing", "folder": tmp_path / "folder", "garbage": tmp_path / "garbage",
             "empty": tmp_path / "empty", "text": tmp_path / "text", "tmp": tmp_path, "list": tmp_path / "list.json",
             "hexover": tmp_path / "hexover.json", "unknown_position": tmp_path / "chess.json",
             "chess_wiring": tmp_path / "chess_wiring.toml", "not_a_journal": tmp_path / "other.sqlite3",
             **{name: tmp_path / f"{name}.txt" for name in ("record", "illegal_record", "hexover_record")},
             **{name: tmp_path / f"{name}.toml" for name in configs}}
    with socket.socket() as probe:  # a port free a moment ago, for a page a bad command line must not serve
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return {"port": str(port)} | {name: str(path) for name, path in names.items()}


@pytest.mark.parametrize(("command", "arguments"),
                         [(command, arguments) for command, cases in CASES.items() for arguments in cases],
                         ids=lambda value: " ".join(value))
def test_a_bad_command_line_is_an_error_line_not_a_traceback(command: tuple[str, ...], arguments: list[str],
                                                             paths: dict[str, str], capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter([""])  # Enter once, then the input ends

    def enter_once(prompt: str = "") -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr(builtins, "input", enter_once)
    monkeypatch.setenv("XDG_STATE_HOME", paths["tmp"])
    argv = [*command, *(argument.format(**paths) for argument in arguments)]
    code = run_for_at_most(argv, seconds=30)
    out, err = capsys.readouterr()
    assert code not in (0, None), f"gameboard {' '.join(argv)} succeeded"
    assert "Traceback" not in out + err
    # An error line on stderr; a checking command (wiring check, journal check) may report on stdout and exit 1.
    found = ERROR_LINE.search(err)
    checked = code == 1 and command[-1] == "check" and out.strip()
    message = err[found.end() - 1:].splitlines()[0] if found else out.strip().splitlines()[-1] if checked else ""
    assert message, (out, err)
    # It names what is wrong: a word given, a file (perhaps one a configuration names), or a missing argument.
    given = {word for word in argv[len(command):] if len(word) > 1}
    named = given | set(paths.values()) - {paths["tmp"], paths["port"]} | arguments_of(command)
    assert any(word in message for word in named), f"the message names nothing given: {message}"


def run_for_at_most(argv: list[str], seconds: int) -> int | str | None:
    """``main(argv)``'s exit code; a command still running after ``seconds`` (never stopping) fails the test."""
    def too_long(signum: int, frame: object) -> None:
        raise AssertionError(f"gameboard {' '.join(argv)} was still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(seconds)
    try:
        return main(argv)
    except SystemExit as exit:  # argparse's usage errors
        return exit.code
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def arguments_of(command: tuple[str, ...]) -> set[str]:
    """The option strings and argument names of ``command``'s parser."""
    parser = build_parser()
    for word in command:
        parser = next(action for action in parser._actions
                      if isinstance(action, argparse._SubParsersAction)).choices[word]
    return {text for action in parser._actions for text in (*action.option_strings, action.dest, action.metavar)
            if isinstance(text, str) and len(text) > 1}


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_the_installed_command_explains_itself(flag: str) -> None:
    command = Path(sys.executable).with_name("gameboard")
    result = subprocess.run([str(command), flag], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "\n    arena " in result.stdout and not result.stderr, result.stderr


@pytest.mark.parametrize("argv", [
    [],
    ["sim", "--port", "99999"],
    ["board", "draw", "overpass", "-o", "/nonexistent/x.svg"],
    ["sim", "--journal", "/proc/nope/j.db"],
])
def test_the_installed_command_fails_in_one_line(argv: list[str]) -> None:
    command = Path(sys.executable).with_name("gameboard")
    result = subprocess.run([str(command), *argv], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and ERROR_LINE.search(result.stderr) and "Traceback" not in result.stderr, result.stderr
