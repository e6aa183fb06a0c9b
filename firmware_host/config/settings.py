"""The sections and keys of the configuration file: each key's types, default, accepted values and fix."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.ai.levels import HINT_SECONDS
from firmware_host.config.problems import Problems


@dataclass(frozen=True)
class Setting:
    """One key of a section: its type, default, the values it accepts, and how to fix a bad one."""

    types: tuple[type, ...]
    default: Any
    fix: str
    accepts: Callable[[Any], bool] = lambda value: True
    required: bool = False


def _number(low: float, high: float, *, low_open: bool = False) -> Callable[[Any], bool]:
    def accepts(value: Any) -> bool:
        return math.isfinite(value) and (low < value if low_open else low <= value) and value <= high
    return accepts


NUMBER = (int, float)
#: An espeak-ng voice name: "en", "en-gb", "pt-br", "en-gb-x-rp" (letters, digits, '-', '+' for a variant).
VOICE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9+_-]{0,39}")

SECTIONS: dict[str, dict[str, Setting]] = {
    "game": {
        "name": Setting((str,), None, 'name a game, e.g. name = "overpass" (`gameboard games` lists them)',
                        required=True),
        "options": Setting((dict,), {}, "write the game's options as a table, e.g. options = { players = 2 }"),
        "seats": Setting((list,), [], 'list who plays each seat, in turn order, e.g. seats = ["human", "computer"] '
                                      '(human, computer, computer:LEVEL with levels easy, normal, hard, or '
                                      'remote:NAME)',
                         lambda v: all(isinstance(item, str) for item in v)),
        "hints": Setting((bool,), True, "use hints = true (the hint button shows the computer's best move) or false"),
    },
    "board": {
        "wiring": Setting((str,), None,
                          'give the wiring file, e.g. wiring = "wiring.toml" (made by `gameboard calibrate`)'),
    },
    "dice": {
        "mode": Setting((str,), "daemon",
                        'use mode = "daemon" (the board rolls) or mode = "entered" (players roll and enter)',
                        lambda v: v in ("daemon", "entered")),
        "seed": Setting((int,), None, "use a whole number, e.g. seed = 7 (only for repeatable test games)"),
    },
    "loop": {
        "scan_hz": Setting(NUMBER, 200.0, "use a rate from 1 to 2000 scans a second, e.g. scan_hz = 200",
                           _number(1, 2000)),
        "debounce_ms": Setting(NUMBER, 15.0, "use 0 to 1000 ms; reed switches need about 5, e.g. debounce_ms = 15",
                               _number(0, 1000)),
        "settle_ms": Setting(NUMBER, 400.0, "use 0 to 10000 ms, longer than a bumped piece stays off, e.g. 400",
                             _number(0, 10_000)),
        "out_of_sync_ms": Setting(NUMBER, 3000.0, "use 100 to 600000 ms, e.g. out_of_sync_ms = 3000",
                                  _number(100, 600_000)),
        "blink_ms": Setting(NUMBER, 400.0, "use 50 to 5000 ms, e.g. blink_ms = 400", _number(50, 5000)),
    },
    "computer": {
        "speed": Setting((str, int, float), "auto",
                         'use speed = "auto" (measured when the computer first thinks) or this machine\'s speed as '
                         "a multiple of a Raspberry Pi 4's, from 0.05 to 100, e.g. speed = 1.0 on a Pi 4",
                         lambda v: v == "auto" or (not isinstance(v, str) and _number(0.05, 100)(v))),
        "hint_seconds": Setting(NUMBER, HINT_SECONDS,
                                "use the seconds a hint may take on a Raspberry Pi 4, from 0.1 to 10, e.g. 1.0",
                                _number(0.1, 10)),
    },
    "journal": {
        "path": Setting((str,), None, 'give a writable file, e.g. path = "/var/lib/gameboard/journal.sqlite3"'),
    },
    "gpio": {
        "pin_factory": Setting((str,), None, 'name gpiozero\'s pin library, e.g. pin_factory = "lgpio" '
                                             '(lgpio, rpigpio, pigpio, native), or leave it out'),
    },
    "voice": {  # the board speaks through Debian's espeak-ng (firmware_host/voice.py)
        "on": Setting((bool,), False, "use on = true (the board speaks the moments that matter) or false"),
        "language": Setting((str,), "en", 'name an espeak-ng voice, e.g. language = "en" or "de" '
                                          "(`espeak-ng --voices` lists them)", lambda v: bool(VOICE_NAME.fullmatch(v))),
        "volume": Setting(NUMBER, 100, "use 0 to 200, per cent of espeak-ng's normal loudness, e.g. volume = 100",
                          _number(0, 200)),
        "rate": Setting(NUMBER, 160, "use 80 to 450 words a minute, e.g. rate = 160", _number(80, 450)),
    },
    "remote": {
        "broker": Setting((str,), None, 'give the MQTT broker, e.g. broker = "mqtt://192.168.1.10:1883" '
                                        '(mqtts:// for TLS)', required=True),
        "game": Setting((str,), None, 'name the game on the broker, e.g. game = "friday" '
                                      "(letters, digits, '-' and '_')", required=True),
        "name": Setting((str,), None, 'give this board\'s name in the game (its broker user), e.g. name = "alice"',
                        required=True),
        "username": Setting((str,), None, 'give the broker\'s user name, e.g. username = "alice" (default: name)'),
        "password": Setting((str,), None, 'give the broker\'s password as a string, or password_file',
                            lambda v: v != ""),
        "password_file": Setting((str,), None, 'give the file holding the broker\'s password alone on one line, '
                                               'e.g. password_file = "broker.password"'),
        "ca_file": Setting((str,), None, 'give the certificate authority file for mqtts://, e.g. ca_file = "ca.crt"'),
        "cert_file": Setting((str,), None, 'give this board\'s certificate file, e.g. cert_file = "alice.crt"'),
        "key_file": Setting((str,), None, 'give this board\'s key file, e.g. key_file = "alice.key"'),
    },
}

#: Keys the daemon reads in the driver sections; every other key is the driver's option.
DRIVER_SETTINGS: dict[str, dict[str, Setting]] = {
    "sensors": {},
    "leds": {
        "brightness": Setting(NUMBER, 0.5, "use a fraction above 0 and at most 1, e.g. brightness = 0.5",
                              _number(0, 1, low_open=True)),
        "current_budget_ma": Setting(NUMBER, 2000.0, "use the milliamps the LED supply can give, e.g. 2000",
                                     _number(0, 100_000, low_open=True)),
        "ma_per_led": Setting(NUMBER, 60.0, "use the milliamps one full-white LED draws: about 60 for a WS2812",
                              _number(0, 1000, low_open=True)),
        "dice_locations": Setting((list,), [],
                                  'list the locations whose LEDs show the dice, e.g. ["f90", "f91", "f92"]',
                                  lambda v: all(isinstance(item, str) for item in v)),
    },
    "buttons": {},
}
DRIVER_FIX = {
    "sensors": 'e.g. driver = "hc165" (gpio, hc165, mcp23017, mcp3008, ads1115, serial, mock)',
    "leds": 'e.g. driver = "neopixel" (neopixel, neopixel_spi, serial, mock)',
    "buttons": 'e.g. driver = "gpio" (gpio, mock)',
}
REQUIRED_SECTIONS = ("game", "sensors", "leds")


@dataclass(frozen=True)
class DriverConfig:
    """A hardware section: the driver's name, the daemon's own settings, and the driver's options."""

    section: str
    driver: str
    options: dict[str, Any]
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LoopConfig:
    """How often the loop scans and how long the board must hold still (milliseconds)."""

    scan_hz: float = 200.0
    debounce_ms: float = 15.0
    settle_ms: float = 400.0
    out_of_sync_ms: float = 3000.0
    blink_ms: float = 400.0


def section_values(problems: Problems, section: str, body: Mapping[str, Any] | None,
                   spec: Mapping[str, Setting]) -> dict[str, Any]:
    """Each key of ``spec`` checked (a bad one noted, its default used); other keys are noted as unknown.

    An absent section (``body`` None) takes the defaults: a required one is reported missing as a whole.
    """
    if body is None:
        return {key: setting.default for key, setting in spec.items()}
    for key in body:
        if key not in spec:
            problems.add(f"{section}.{key}", f"unknown key; [{section}] takes {', '.join(spec)}")
    values = {}
    for key, setting in spec.items():
        values[key] = setting.default
        if key not in body:
            if setting.required:
                problems.add(section, f"{key} is missing; {setting.fix}")
            continue
        value = body[key]
        wrong_kind = isinstance(value, bool) and bool not in setting.types  # True is an int to isinstance
        if wrong_kind or not isinstance(value, setting.types) or not setting.accepts(value):
            problems.add(f"{section}.{key}", f"{value!r} is not accepted; {setting.fix}")
        else:
            values[key] = value
    return values


def driver_section(problems: Problems, section: str, body: Mapping[str, Any]) -> DriverConfig | None:
    driver = body.get("driver")
    if not isinstance(driver, str) or not driver:
        where = f"{section}.driver" if "driver" in body else section
        problems.add(where, f"driver is missing or not a name; {DRIVER_FIX[section]}")
        return None
    own = DRIVER_SETTINGS[section]
    settings = section_values(problems, section, {k: v for k, v in body.items() if k in own}, own)
    options = {k: v for k, v in body.items() if k != "driver" and k not in own}
    return DriverConfig(section, driver, options, settings)
