"""``gameboard games``, ``gameboard run --check``, and the notify socket's address forms."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from engine import registry
from engine.core import EngineError
from firmware_host.cli import main
from firmware_host.commands.run import log_place
from firmware_host.config import ConfigError, load_config
from firmware_host.notify import Notifier
from wiring.examples import example_text


def test_games_lists_every_game_with_its_options(capsys, toy) -> None:
    assert main(["games", "--json"]) == 0
    games = json.loads(capsys.readouterr().out)
    assert set(games) == set(registry.available_games())
    assert games["toy"]["options"]["hand"] == {"default": 3, "choices": [1, 2, 3, 4],
                                               "help": "pieces each player places before sliding"}
    assert main(["games"]) == 0
    text = capsys.readouterr().out
    assert "toy: Toy (board squareoff)\n    hand = 3; one of 1, 2, 3, 4\n" in text
    assert "    pieces = 40; from 3 to 92\n" in text


def test_games_says_a_deal_is_fresh_each_game_unless_asked(capsys) -> None:
    """It printed Pawns Crossing's ``seed = 0``, the engine's repeatable default, which no new game uses."""
    assert main(["games"]) == 0
    assert "    seed = a fresh one each game\n" in capsys.readouterr().out


def test_games_shows_how_each_games_moves_are_written(capsys) -> None:
    """docs/remote.md sends moves in "the engine's notation (`gameboard games` shows each game's)": it did not."""
    assert main(["games", "--json"]) == 0
    games = json.loads(capsys.readouterr().out)
    for name, about in games.items():
        moves = about["moves"]
        assert moves and all(move["means"] for move in moves), name
        assert len({move["kind"] for move in moves}) == len(moves), name
        first = registry.new_game(name).parse_move(moves[0]["move"])  # met at the start
        assert (str(first), type(first).__name__) == (moves[0]["move"], moves[0]["kind"]), name
    assert [move["move"] for move in games["overpass"]["moves"]][:2] == ["enter", "roll 1+1"]
    assert main(["games"]) == 0
    assert ("hexover: Hexover (board hexover)\n    moves, as the journal and remote play write them (from a game "
            "played at random):\n        h8  A disk of the mover's colour on an empty cell, flipping what it "
            "outflanks\n") in capsys.readouterr().out


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_the_ends_of_each_range_games_lists_start_a_game_and_one_beyond_is_refused(name: str) -> None:
    """Full House listed pieces from 1, and refused 1 and 2 only when the game began."""
    for key, option in registry.game_class(name).options_spec.items():
        if type(option.default) is int and option.choices:
            for value in (min(option.choices), max(option.choices)):
                registry.new_game(name, **{key: value})
            for beyond in (min(option.choices) - 1, max(option.choices) + 1):
                with pytest.raises(EngineError, match=re.escape(option.takes())):
                    registry.new_game(name, **{key: beyond})


def test_full_houses_fewest_pieces_are_its_starts() -> None:
    from engine.games.full_house import FullHouse
    from engine.games.groups_of_three import load_layout

    assert min(FullHouse.options_spec["pieces"].choices) == len(load_layout().full_house_start)


def test_run_check_reads_the_configuration_and_opens_nothing(capsys, write_config) -> None:
    path = write_config('[game]\nname = "toy"\n[sensors]\ndriver = "hc165"\nchips = 3\n[leds]\ndriver = "neopixel"\n'
                        'strips = [{ pin = "D18", length = 24 }]\n')
    assert main(["run", "--check", "--config", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"{path}: ok: Toy on squareoff, 24 channels, sensors hc165")


def test_run_reports_a_bad_file_in_one_line(capsys, write_config) -> None:
    path = write_config('[game]\nname = "toy"\n[sensors]\ndriver = "mock"\nboard = "squareoff"\n[leds]\n'
                        'driver = "mock"\nboard = "squareoff"\nbrightness = 2\n')
    assert main(["run", "--check", "--config", str(path)]) == 2
    assert capsys.readouterr().err == (f"gameboard: error: {path}:9: leds.brightness: 2 is not accepted; "
                                       "use a fraction above 0 and at most 1, e.g. brightness = 0.5\n")


def test_a_registered_game_whose_module_is_missing_is_named(write_config, monkeypatch) -> None:
    monkeypatch.setitem(registry.GAMES, "ghost", "engine.games.no_such_module:Ghost")
    path = write_config('[game]\nname = "ghost"\n[sensors]\ndriver = "mock"\n[leds]\ndriver = "mock"\n')
    with pytest.raises(ConfigError, match=r":2: game\.name: the game 'ghost' is not installed in this version"):
        load_config(path)


@pytest.mark.parametrize("abstract", [False, True])
def test_the_notifier_reaches_path_and_abstract_sockets(tmp_path, abstract: bool) -> None:
    name = f"@gameboard-test-{os.getpid()}" if abstract else str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind("\0" + name[1:] if abstract else name)
        listener.settimeout(5)
        notifier = Notifier(name)
        notifier.ready("black to move")
        notifier.watchdog()
        notifier.stopping()
        assert [listener.recv(256) for _ in range(3)] == [b"READY=1\nSTATUS=black to move", b"WATCHDOG=1",
                                                          b"STOPPING=1"]
        notifier.close()


def test_the_watchdog_interval_is_half_of_systemds_and_only_for_this_process(monkeypatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert Notifier("").watchdog_interval == 5.0
    monkeypatch.setenv("WATCHDOG_PID", "1")
    assert Notifier("").watchdog_interval is None


MOCK_RUN = ('[game]\nname = "toy"\n[sensors]\ndriver = "mock"\nboard = "squareoff"\n[leds]\ndriver = "mock"\n'
            'board = "squareoff"\n[journal]\npath = "journal.sqlite3"\n')


@pytest.mark.parametrize(("old", "new", "expected"), [
    ('driver = "mock"\nboard = "squareoff"\n[leds]', 'driver = "hc595"\n[leds]',
     ":4: sensors.driver: no sensors driver 'hc595'; the drivers are: gpio, hc165"),
    ('[leds]\ndriver = "mock"\nboard = "squareoff"\n', '[leds]\ndriver = "mock"\n',
     ':6: leds.board: the mock must be of the game\'s board: give board = "squareoff"'),
    ('[sensors]\ndriver = "mock"\nboard = "squareoff"', '[sensors]\ndriver = "mock"\nboard = "hexover"',
     ':5: sensors.board: the mock must be of the game\'s board: give board = "squareoff"'),
    ('[journal]', '[board]\nwiring = "hexover.toml"\n[journal]',
     ":10: board.wiring: {tmp}/hexover.toml: the wiring is for board 'hexover' but toy is played on 'squareoff'; "
     "give [board] wiring a wiring file made for 'squareoff' (unknown locations: h1, h10, h11, h12, h13)"),
    ('path = "journal.sqlite3"', 'path = "/proc/nope/j.db"',
     ":10: journal.path: /proc/nope/j.db cannot be made: no file can be written in /proc"),
    ('path = "journal.sqlite3"', 'path = "state"', ":10: journal.path: {tmp}/state is a folder, not a file; give "
                                                   "[journal] path a file in a folder the daemon can write"),
])
def test_run_check_refuses_what_run_refuses_in_the_same_one_line(capsys, write_config, tmp_path, old: str, new: str,
                                                                   expected: str) -> None:
    (tmp_path / "hexover.toml").write_text(example_text("hexover"))
    (tmp_path / "state").mkdir()
    assert old in MOCK_RUN
    path = write_config(MOCK_RUN.replace(old, new))
    assert main(["run", "--check", "--config", str(path)]) == 2
    checked = capsys.readouterr().err
    assert main(["run", "--config", str(path)]) == 2
    assert capsys.readouterr().err == checked
    assert checked.startswith(f"gameboard: error: {path}{expected.format(tmp=tmp_path)}")
    assert checked.count("\n") == 1


def test_run_check_lists_the_problems_of_the_file_its_wiring_and_its_journal_at_once(capsys, write_config,
                                                                                    tmp_path) -> None:
    (tmp_path / "state").mkdir()
    path = write_config(MOCK_RUN.replace('board = "squareoff"\n[journal]', 'board = "squareoff"\nbrightness = 2\n'
                                         '[board]\nwiring = "wiring.toml"\n[journal]')
                        .replace('path = "journal.sqlite3"', 'path = "state"'))
    assert main(["run", "--check", "--config", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"gameboard: error: {path}:9: leds.brightness: 2 is not accepted; use a fraction above 0 and at most 1, "
        "e.g. brightness = 0.5",
        f"{path}:11: board.wiring: {tmp_path}/wiring.toml does not exist yet: make it with "
        f"`gameboard calibrate --config {path} -o {tmp_path}/wiring.toml`",
        f"{path}:13: journal.path: {tmp_path}/state is a folder, not a file; give [journal] path a file in a folder "
        "the daemon can write"]


def test_version(capsys) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["--version"])
    assert exit.value.code == 0 and capsys.readouterr().out == f"gameboard {metadata.version('gameboard')}\n"


@pytest.mark.parametrize(("game", "board"), [("pawns-crossing", "pawns"), ("groups-of-three", "overpass")])
def test_a_games_name_stands_for_its_board(capsys, tmp_path, game: str, board: str) -> None:
    assert main(["board", "info", game]) == 0
    by_game = capsys.readouterr().out
    assert main(["board", "info", board]) == 0
    assert capsys.readouterr().out == by_game
    assert main(["wiring", "example", game]) == 0
    assert capsys.readouterr().out == example_text(board)
    assert main(["board", "draw", game, "-o", str(tmp_path / "board.svg")]) == 0


def test_run_mock_runs_a_game_with_no_configuration_file(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert main(["run", "--mock", "hexover", "--check"]) == 0
    config = tmp_path / "gameboard" / "mock.toml"
    assert capsys.readouterr().out == (f"{config}: ok: Hexover on hexover, 61 channels, sensors mock, LEDs mock, "
                                       f"buttons mock, journal {tmp_path}/gameboard/mock-journal.sqlite3\n")
    assert load_config(config).game_name == "hexover"


def test_run_by_hand_says_what_it_runs_then_prints_its_status(tmp_path) -> None:
    environment = {key: value for key, value in os.environ.items() if key != "JOURNAL_STREAM"}
    command = [str(Path(sys.executable).with_name("gameboard")), "run", "--mock", "squareoff"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=dict(environment, XDG_STATE_HOME=str(tmp_path)))
    try:
        started, status = process.stderr.readline(), process.stderr.readline()
    finally:
        process.send_signal(signal.SIGINT)
        rest = process.communicate(timeout=60)[1]
    assert started == (f"gameboard run: Square Off on squareoff, 24 channels, sensors mock, LEDs mock, buttons mock, "
                       f"journal {tmp_path}/gameboard/mock-journal.sqlite3; its status changes and errors follow on "
                       "stderr; Ctrl-C stops\n")
    assert status == "black to move: place a black piece on a green light\n"
    assert "Traceback" not in rest


def test_under_systemd_the_log_is_the_system_journal(monkeypatch) -> None:
    monkeypatch.setenv("JOURNAL_STREAM", "8:12345")
    assert log_place() == "its status changes and errors go to the system journal (journalctl -u gameboard)"

