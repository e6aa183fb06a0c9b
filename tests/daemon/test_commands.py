"""``gameboard games``, ``gameboard run --check``, and the notify socket's address forms."""

from __future__ import annotations

import json
import os
import socket

import pytest

from engine import registry
from firmware_host.cli import main
from firmware_host.config import ConfigError, load_config
from firmware_host.notify import Notifier


def test_games_lists_every_game_with_its_options(capsys, toy) -> None:
    assert main(["games", "--json"]) == 0
    games = json.loads(capsys.readouterr().out)
    assert set(games) == set(registry.available_games())
    assert games["toy"]["options"]["hand"] == {"default": 3, "choices": [1, 2, 3, 4],
                                               "help": "pieces each player places before sliding"}
    assert main(["games"]) == 0
    text = capsys.readouterr().out
    assert "toy: Toy (board squareoff)\n    hand = 3; one of 1, 2, 3, 4\n" in text


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
