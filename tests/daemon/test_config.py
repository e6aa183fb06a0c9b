"""The configuration file: good files load, each bad key or value names its line and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.config import ConfigError, key_lines, load_config

GOOD = """\
# the board in the living room
[game]
name = "toy"
options = { hand = 2 }

[board]
wiring = "wiring.toml"

[sensors]
driver = "hc165"
chips = 26

[leds]
driver = "neopixel"
brightness = 0.25
current_budget_ma = 1500
pin = "D18"

[buttons]
driver = "gpio"

[dice]
mode = "entered"

[loop]
scan_hz = 100
debounce_ms = 5

[journal]
path = "state/journal.sqlite3"
"""


def test_a_full_file_loads_with_paths_beside_it(write_config) -> None:
    path = write_config(GOOD)
    config = load_config(path)
    assert config.game_name == "toy" and config.game_options == {"hand": 2}
    assert config.wiring_path == path.parent / "wiring.toml"
    assert config.journal_path == path.parent / "state" / "journal.sqlite3"
    assert (config.sensors.driver, config.sensors.options) == ("hc165", {"chips": 26})
    assert config.leds.driver == "neopixel" and config.leds.options == {"pin": "D18"}
    assert (config.brightness, config.current_budget_ma, config.ma_per_led) == (0.25, 1500, 60.0)
    assert config.buttons is not None and config.buttons.driver == "gpio"
    assert config.dice_mode == "entered"
    assert (config.loop.scan_hz, config.loop.debounce_ms, config.loop.settle_ms) == (100.0, 5.0, 400.0)
    assert config.new_game().game.options["hand"] == 2


def test_the_smallest_file_takes_defaults(write_config, monkeypatch) -> None:
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    path = write_config('[game]\nname = "toy"\n[sensors]\ndriver = "mock"\n[leds]\ndriver = "mock"\n')
    config = load_config(path)
    assert config.buttons is None and config.wiring_path is None and config.dice_mode == "daemon"
    assert config.journal_path == path.parent / "journal.sqlite3"
    assert config.loop.scan_hz == 200.0
    assert set(config.load_wiring().channels.values()) == set(config.new_game().game.locations)


def test_the_journal_defaults_to_systemds_state_directory(write_config, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    config = load_config(write_config('[game]\nname = "toy"\n[sensors]\ndriver = "mock"\n[leds]\ndriver = "mock"\n'))
    assert config.journal_path == tmp_path / "state" / "journal.sqlite3"


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("brightness = 0.25", "brightness = 1.5", r":15: leds\.brightness: 1\.5 is not accepted; use a fraction"),
    ("brightness = 0.25", "brightness = true", r":15: leds\.brightness: True is not accepted"),
    ("scan_hz = 100", "scan_hz = 0", r":26: loop\.scan_hz: 0 is not accepted; use a rate"),
    ("scan_hz = 100", "scan_hertz = 100", r":26: loop\.scan_hertz: unknown key; \[loop\] takes scan_hz, "),
    ('mode = "entered"', 'mode = "hand"', r':23: dice\.mode: .hand. is not accepted; use mode = "daemon"'),
    ('name = "toy"', 'name = "chess"', r":3: game\.name: unknown game 'chess'; use one of overpass"),
    ("options = { hand = 2 }", "options = { hand = 9 }", r":4: game\.options: toy: option hand=9 is not one of"),
    ("options = { hand = 2 }", "options = { speed = 9 }", r":4: game\.options: toy: unknown option\(s\) speed"),
    ('driver = "hc165"', 'driver = ""', r":10: sensors\.driver: driver is missing or not a name; e\.g\. driver"),
    ("[journal]", "[journals]", r":29: journals: unknown section \[journals\]; the sections are \[game\]"),
    ("scan_hz = 100", "scan_hz = ", r":26: not valid TOML: Invalid value; fix the syntax at column 11"),
    ('path = "state/journal.sqlite3"', "path = 3", r":30: journal\.path: 3 is not accepted; give a writable file"),
])
def test_each_bad_value_names_its_line_key_and_fix(write_config, old: str, new: str, expected: str) -> None:
    assert old in GOOD
    path = write_config(GOOD.replace(old, new, 1))
    with pytest.raises(ConfigError, match=expected) as caught:
        load_config(path)
    assert str(caught.value).startswith(str(path))


def test_a_missing_section_or_required_key_says_what_to_add(write_config) -> None:
    with pytest.raises(ConfigError, match=r"the \[leds\] section is missing; add it with driver = "):
        load_config(write_config('[game]\nname = "toy"\n[sensors]\ndriver = "mock"\n'))
    with pytest.raises(ConfigError, match=r":1: game: name is missing; name a game"):
        load_config(write_config('[game]\n[sensors]\ndriver = "mock"\n[leds]\ndriver = "mock"\n'))


def test_an_unreadable_file_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nowhere\.toml: cannot read the configuration file .*--config"):
        load_config(tmp_path / "nowhere.toml")


def test_key_lines_reads_headers_keys_inline_tables_and_skips_multiline_strings() -> None:
    text = ('[game]\nname = "x"\nnote = """\nfake = 1\n"""\noptions = { players = 2, "rule set" = "a" }\n'
            '[leds.extra]\nk=1\n')
    lines = key_lines(text)
    assert lines == {"game": 1, "game.name": 2, "game.note": 3, "game.options": 6,
                     "game.options.players": 6, "game.options.rule set": 6, "leds.extra": 7, "leds.extra.k": 8}


MOCK = """\
[game]
name = "toy"
[sensors]
driver = "mock"
board = "squareoff"
[leds]
driver = "mock"
board = "squareoff"
[buttons]
driver = "mock"
board = "squareoff"
[dice]
seed = 3
"""


def test_open_hal_builds_the_configured_drivers(write_config) -> None:
    from hal.dice import RandomDice
    hal = load_config(write_config(MOCK)).open_hal()
    assert hal.sensors.channels == 24 and hal.leds.strip_lengths == (24,)
    assert hal.buttons is not None and isinstance(hal.dice, RandomDice)


@pytest.mark.parametrize(("old", "new", "expected"), [
    ('driver = "mock"\nboard = "squareoff"\n[leds]', 'driver = "mock"\nboard = "chess"\n[leds]',
     r":5: sensors\.board: "),
    ('driver = "mock"\nboard = "squareoff"\n[leds]', 'driver = "mock"\nboard = "squareoff"\ncolour = 1\n[leds]',
     r":6: sensors\.colour: "),
    ('[leds]\ndriver = "mock"', '[leds]\ndriver = "laser"', r":7: leds\.driver: no LED driver 'laser'"),
])
def test_a_bad_driver_option_names_its_line(write_config, old: str, new: str, expected: str) -> None:
    assert old in MOCK
    with pytest.raises(ConfigError, match=expected):
        load_config(write_config(MOCK.replace(old, new, 1))).open_hal()
