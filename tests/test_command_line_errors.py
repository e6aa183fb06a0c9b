"""Every subcommand, given bad arguments and bad paths, answers with an error line, never a traceback;
every command's ``--help`` works, and one named without its action lists them.

``CASES`` holds the bad command lines of each subcommand; a subcommand the parser has
and ``CASES`` lacks fails ``test_every_subcommand_has_its_bad_cases``: a new command
adds one entry here.  ``{placeholders}`` are paths made for each test.
"""

from __future__ import annotations

import argparse
import builtins
import re
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.cli import build_parser, main

#: Configuration files that cannot be used, each a different way.
BAD_CONFIGS = ["{missing}", "{folder}", "/proc/nope/gameboard.toml", "{garbage}", "{empty}"]

CASES: dict[tuple[str, ...], list[list[str]]] = {
    ("board", "list"): [["--bogus"]],
    ("board", "info"): [["chess"], ["overpass", "--bogus"]],
    ("board", "draw"): [["overpass", "-o", path]
                        for path in ["{folder}/drawing.svg", "{missing}/x.svg", "/proc/nope/x.svg"]]
    + [["chess", "-o", "{tmp}/x.svg"], ["overpass", "-o", "{tmp}/x.txt"],
       ["overpass", "-o", "{tmp}/x.svg", "--game", "hexover"], ["overpass", "-o", "{tmp}/x.svg", "--game", "chess"],
       ["overpass", "-o", "{tmp}/x.svg", "--width", "wide"], ["overpass", "-o", "{tmp}/x.png", "--width", "-5"],
       ["overpass", "-o", "{tmp}/x.png", "--width", "100000"], ["overpass", "-o", "{tmp}/x.svg", "--width", "0"]],
    ("games",): [["--bogus"]],
    ("solve",): [["chess"], ["full-house", "--time-limit", "0"], ["full-house", "--time-limit", "soon"]],
    ("arena",): [["chess", "--players", "random", "random"], ["squareoff"], ["squareoff", "--players", "robot", "random"],
                 ["squareoff", "--players", "random"], ["full-house", "--players", "random"],
                 ["squareoff", "--players", "random", "random", "--games", "0"],
                 ["squareoff", "--players", "random", "random", "--option", "variant=chess"],
                 ["squareoff", "--players", "random", "random", "--option", "nothing"],
                 ["squareoff", "--players", "computer:expert", "random"]],
    ("run",): [["--config", path] for path in BAD_CONFIGS]
    + [["--mock", "chess"], ["--mock", "squareoff", "--port", "99999"], ["--mock", "squareoff", "--port", "0"],
       ["--mock", "squareoff", "--config", "{good}"], ["--config", "{bad_journal}"], ["--config", "{bad_wiring}"],
       ["--mock", "squareoff", "--seats", "human"], ["--mock", "squareoff", "--seats", "human", "robot"],
       ["--config", "{good}", "--seats", "human", "computer"]],
    ("sim",): [["chess"], ["--port", "99999"], ["--port", "http"], ["--option", "{{"], ["--option", "players=7"],
               ["--options", "{{}}"], ["squareoff", "--option", "variant=chess", "--option", "variant=classic"],
               ["--listen", "nowhere"], ["--journal", "{folder}"], ["--journal", "/proc/nope/j.db"],
               ["--journal", "{garbage}"], ["squareoff", "--seats", "computer:expert", "human"],
               ["squareoff", "--seats", "human"], ["--join", "mqtt://127.0.0.1:1/friday", "--name", "bob", "--wait",
               "0.3"], ["--join", "mqtt://127.0.0.1/friday"], ["--join", "mqtt://127.0.0.1", "--name", "bob"]],
    ("watch",): [["http://127.0.0.1/friday"], ["mqtt://127.0.0.1"], ["mqtt://127.0.0.1/friday", "--name", "a b"],
                 ["mqtt://127.0.0.1:1/friday", "--wait", "0.3", "--port", "18399"], ["mqtt://x/y", "--port", "99999"]],
    ("calibrate",): [["--config", path] for path in BAD_CONFIGS]
    + [["--config", "{good}", "-o", path] for path in ["{folder}", "{missing}/w.toml", "/proc/nope/w.toml"]]
    + [["--config", "{good}", "-o", "{garbage}"], ["--config", "{good}", "-o", "{empty}"],
       ["--config", "{good}", "--pieces", "0"], ["--config", "{good}", "-o", "{tmp}/w.toml", "--classes", "black"]],
    ("wiring", "check"): [["{missing}"], ["{folder}"], ["/proc/nope/w.toml"], ["{garbage}"]],
    ("wiring", "example"): [["chess"]],
    ("journal", "check"): [["{missing}"], ["{folder}"], ["/proc/nope/j.db"], ["{garbage}"]],
    ("journal", "salvage"): [["{missing}"], ["{garbage}"], ["{garbage}", "-o", "{folder}"]],
    ("leds", "test"): [["--config", path] for path in BAD_CONFIGS]
    + [["--config", "{good}", "--seconds", "-1"], ["--config", "{good}", "--chase-seconds", "soon"]],
    ("sensors", "watch"): [["--config", path] for path in BAD_CONFIGS]
    + [["--config", "{good}", "--interval", "-1"], ["--config", "{good}", "--count", "-2"],
       ["--config", "{good}", "--count", "0"]],
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
    mock = 'driver = "mock"\nboard = "squareoff"\n'
    good = f'[game]\nname = "squareoff"\n[sensors]\n{mock}[leds]\n{mock}'
    (tmp_path / "good.toml").write_text(good)
    (tmp_path / "bad_journal.toml").write_text(good + '[journal]\npath = "folder"\n')
    (tmp_path / "bad_wiring.toml").write_text(good + '[board]\nwiring = "garbage"\n')
    names = {"missing": tmp_path / "missing", "folder": tmp_path / "folder", "garbage": tmp_path / "garbage",
             "empty": tmp_path / "empty", "good": tmp_path / "good.toml", "tmp": tmp_path,
             "bad_journal": tmp_path / "bad_journal.toml", "bad_wiring": tmp_path / "bad_wiring.toml"}
    return {name: str(path) for name, path in names.items()}


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
    try:
        code = main(argv)
    except SystemExit as exit:  # argparse's usage errors
        code = exit.code
    out, err = capsys.readouterr()
    assert code not in (0, None), f"gameboard {' '.join(argv)} succeeded"
    assert "Traceback" not in out + err
    # An error line on stderr; a checking command (wiring check, journal check) may report on stdout and exit 1.
    assert ERROR_LINE.search(err) or (code == 1 and out.strip()), (out, err)


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
