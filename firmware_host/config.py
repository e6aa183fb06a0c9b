"""The daemon's one TOML configuration file, read and checked before any hardware opens.

A person edits this file on the Pi, so every mistake is reported as
``FILE:LINE: section.key: problem; fix``, all of a file's mistakes in one ``ConfigError``,
never a traceback.  Keys of ``[sensors]``, ``[leds]`` and ``[buttons]`` other than the
ones listed in ``DRIVER_SETTINGS`` are the driver's own options: ``hal.registry`` checks
them as opening the driver would, without opening it.  ``firmware_host.validation``
adds what lies outside the file (the wiring file, the journal's place).

Example (``systemd/gameboard.toml`` is the documented one)::

    [game]
    name = "overpass"
    options = { players = 2 }
    seats = ["human", "computer:hard"]   # omitted: every seat human

    [board]
    wiring = "wiring.toml"          # relative to this file; omitted: the mock's straight wiring

    [sensors]
    driver = "hc165"
    chips = 26

    [leds]
    driver = "neopixel"
    brightness = 0.4
    current_budget_ma = 2500

    [dice]
    mode = "daemon"                 # or "entered": the players roll real dice and enter them

    [loop]
    scan_hz = 200

    [computer]
    speed = "auto"                  # or this machine's speed as a multiple of a Raspberry Pi 4's, e.g. 1.0

    [journal]
    path = "/var/lib/gameboard/journal.sqlite3"

    [gpio]
    pin_factory = "lgpio"           # omitted: gpiozero's own choice

    [remote]                        # a game with a friend elsewhere (docs/remote.md); seats like "remote:bob"
    broker = "mqtts://broker.example:8883"
    game = "friday"
    name = "alice"
    password_file = "broker.password"   # alice's broker password; or password = "...", making this file secret
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.ai.levels import HINT_SECONDS
from engine.errors import GameboardError
from firmware_host.remote.link import Broker
from firmware_host.seats import Seat, parse_seats
from firmware_host.thinker import Thinking
from hal.base import DriverOptionError, HardwareError

if TYPE_CHECKING:
    from engine.core import Game, State
    from hal.base import ButtonPanel, DiceSource, LedSink, SensorArray
    from wiring.model import Wiring


class ConfigError(GameboardError, ValueError):
    """A configuration file that cannot be used: the message names the file, line, key and fix."""


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
class RemoteConfig:
    """A game played through a broker: where, under which game id, as whom."""

    broker: Broker
    game: str
    name: str
    #: The files holding a secret, by the key that names them ("password": this file): none may be readable
    #: by other users.
    secrets: dict[str, Path] = field(default_factory=dict)


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


class Hal(NamedTuple):
    """The opened hardware the daemon runs on."""

    sensors: SensorArray
    leds: LedSink
    buttons: ButtonPanel | None
    dice: DiceSource

    def close(self) -> None:
        """Release every part (LEDs dark)."""
        for part in (self.leds, self.sensors, self.buttons):
            if part is not None:
                part.close()


@dataclass(frozen=True)
class Config:
    """A checked configuration file; paths are absolute (relative ones are read from the file's folder)."""

    path: Path
    game_name: str
    game_options: dict[str, Any]
    #: Who plays each seat, in player order (every seat human when none are given).
    seats: tuple[Seat, ...]
    hints: bool
    wiring_path: Path | None
    sensors: DriverConfig
    leds: DriverConfig
    buttons: DriverConfig | None
    dice_mode: str
    dice_seed: int | None
    loop: LoopConfig
    journal_path: Path
    #: gpiozero's pin factory by name ("lgpio", "rpigpio", "pigpio", ...); None: gpiozero's own choice.
    pin_factory: str | None
    #: The broker and the game when some seats are held elsewhere; None for a game on this board alone.
    remote: RemoteConfig | None
    #: Dotted key ("leds.brightness") or section ("leds") -> its line in the file.
    lines: dict[str, int]
    #: How fast the computer thinks (its speed measured when None).
    thinking: Thinking = Thinking()

    @property
    def brightness(self) -> float:
        return self.leds.settings["brightness"]

    @property
    def current_budget_ma(self) -> float:
        return self.leds.settings["current_budget_ma"]

    @property
    def ma_per_led(self) -> float:
        return self.leds.settings["ma_per_led"]

    def game(self) -> Game:
        """The configured game with its options."""
        from engine.registry import game_class
        return game_class(self.game_name)(**self.game_options)

    def new_game(self) -> State:
        """The initial state of the configured game."""
        return self.game().new_initial_state()

    @property
    def wiring_source(self) -> str:
        """The wiring in words: its file, or the board's straight wiring."""
        return str(self.wiring_path) if self.wiring_path else f"the straight wiring of {self.game().board.name}"

    def load_wiring(self) -> Wiring:
        """The wiring file, or the board's straight wiring (channel i under location i) if none is set."""
        if self.wiring_path is None:
            from wiring.model import straight_wiring
            return straight_wiring(self.game().board)
        from wiring.files import load_wiring
        return load_wiring(self.wiring_path)

    def open_hal(self) -> Hal:
        """Open the sensors, LEDs, buttons and dice; a driver or pin library that fails names its line here."""
        from hal import registry
        from hal.dice import EnteredDice, RandomDice
        from hal.pins import use_pin_factory

        def opened(section: DriverConfig, opener: Callable[[str, Mapping[str, Any]], Any]) -> Any:
            try:
                return opener(section.driver, section.options)
            except DriverOptionError as exc:
                raise ConfigError(_located(self.path, self.lines, *_driver_problem(section, exc))) from None

        if self.pin_factory is not None:
            try:
                use_pin_factory(self.pin_factory)
            except HardwareError as exc:
                raise ConfigError(_located(self.path, self.lines, "gpio.pin_factory", str(exc))) from None
        sensors = opened(self.sensors, registry.open_sensors)
        leds = opened(self.leds, registry.open_leds)
        buttons = opened(self.buttons, registry.open_buttons) if self.buttons else None
        dice = RandomDice(self.dice_seed) if self.dice_mode == "daemon" else EnteredDice()
        return Hal(sensors, leds, buttons, dice)


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read and check a configuration file; raises one ConfigError listing every problem, each with its line."""
    problems = Problems(Path(path))
    config = read_config(problems)
    problems.raise_if_any()
    assert config is not None
    return config


class Problems:
    """The problems found in one configuration file, reported together as one ConfigError.

    Each is ``FILE:LINE: key: problem; fix``, in the file's order; ``lines`` (from
    ``key_lines``) finds the line.  Problems of other files (the wiring) come last.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: dict[str, int] = {}
        #: (line to sort by, message)
        self.found: list[tuple[float, str]] = []
        #: The sections that had a problem: later checks that need them skip.
        self.sections: set[str] = set()

    def add(self, key: str, problem: str) -> None:
        """A problem of ``key`` ("section.key", or a section), at the nearest line known for it."""
        self.found.append((_line(self.lines, key) or 0, _located(self.path, self.lines, key, problem)))
        self.sections.add(key.split(".")[0])

    def add_file(self, problem: str) -> None:
        """A problem of the file as a whole: ``FILE: problem``."""
        self.found.append((0, f"{self.path}: {problem}"))

    def add_lines(self, text: str) -> None:
        """Problems already written as ``FILE:LINE: problem`` lines (another file's, such as the wiring)."""
        self.found.extend((math.inf, message) for message in text.splitlines())

    def raise_if_any(self) -> None:
        if self.found:
            raise ConfigError("\n".join(message for _, message in sorted(self.found, key=lambda found: found[0])))


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
    values = {name: _section_values(problems, name, sections.get(name), spec) for name, spec in SECTIONS.items()}
    drivers = {name: _driver_section(problems, name, sections[name]) for name in DRIVER_SETTINGS if name in sections}
    game = values["game"]
    board = _check_game(problems, game["name"], game["options"]) if game["name"] else None
    seats = _check_seats(problems, game["name"], game["options"], game["seats"]) if board else ()
    for driver in drivers.values():
        if driver is not None:
            _check_driver(problems, driver, board)
    if values["gpio"]["pin_factory"] is not None:
        _check_pin_factory(problems, values["gpio"]["pin_factory"])
    remote = _check_remote(problems, values["remote"], seats, path.parent) if "remote" in sections else None
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
        lines=problems.lines,
        thinking=Thinking(None if values["computer"]["speed"] == "auto" else float(values["computer"]["speed"]),
                          hint_seconds=float(values["computer"]["hint_seconds"])),
    )


def _default_journal(base: Path) -> Path:
    """systemd's StateDirectory when run as the service, else beside the configuration file."""
    state = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    return (Path(state) if state else base) / "journal.sqlite3"


def _section_values(problems: Problems, section: str, body: Mapping[str, Any] | None,
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


def _driver_section(problems: Problems, section: str, body: Mapping[str, Any]) -> DriverConfig | None:
    driver = body.get("driver")
    if not isinstance(driver, str) or not driver:
        where = f"{section}.driver" if "driver" in body else section
        problems.add(where, f"driver is missing or not a name; {DRIVER_FIX[section]}")
        return None
    own = DRIVER_SETTINGS[section]
    settings = _section_values(problems, section, {k: v for k, v in body.items() if k in own}, own)
    options = {k: v for k, v in body.items() if k != "driver" and k not in own}
    return DriverConfig(section, driver, options, settings)


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


def _check_remote(problems: Problems, values: dict[str, Any], seats: tuple[Seat, ...],
                  base: Path) -> RemoteConfig | None:
    """The [remote] section: a broker address that can work, names fit for topics, a seat held elsewhere."""
    from firmware_host.remote.credentials import CredentialError, tls_context
    from firmware_host.remote.link import LinkError
    from firmware_host.remote.protocol import NAME

    found = True
    for key in ("game", "name"):
        if values[key] is not None and not NAME.fullmatch(values[key]):
            problems.add(f"remote.{key}", f"{values[key]!r} is not accepted; use 1-64 letters, digits, '-' or '_'")
            found = False
    if seats and not any(seat.remote for seat in seats):
        problems.add("game.seats", 'a remote game needs a seat held elsewhere: write it remote:NAME, e.g. '
                                   'seats = ["human", "remote:bob"]')
    elif values["name"] and any(seat.holder == values["name"] for seat in seats):
        problems.add("game.seats", f"remote:{values['name']} is this board's own name ([remote] name): "
                                   "write its seat human or computer")
    if values["broker"] is None or not found or values["game"] is None or values["name"] is None:
        return None
    files = {key: base / values[key] for key in ("ca_file", "cert_file", "key_file") if values[key]}
    password, secrets = _remote_password(problems, values, base)
    try:
        broker = Broker.parse(values["broker"], username=values["username"] or values["name"], password=password,
                              **files)
    except LinkError as exc:
        problems.add("remote.broker", str(exc))
        return None
    if files and not broker.tls:
        problems.add("remote.broker", "certificate files are for TLS: write the broker as mqtts://")
    elif broker.tls:
        try:
            tls_context(broker.ca_file, broker.cert_file, broker.key_file)
        except CredentialError as exc:
            for key, problem in exc.problems:
                problems.add(f"remote.{key}", problem)
    if broker.cert_file is not None:  # the client's private key: in key_file, else beside its certificate
        holder = "key_file" if broker.key_file else "cert_file"
        secrets[holder] = files[holder]
    return RemoteConfig(broker, values["game"], values["name"], secrets)


def _remote_password(problems: Problems, values: dict[str, Any], base: Path) -> tuple[str | None, dict[str, Path]]:
    """The broker's password, from ``password`` or read from ``password_file``, and the file it was in."""
    from firmware_host.remote.credentials import CredentialError, read_password

    if values["password_file"] is None:
        password = values["password"]
        return password, ({} if password is None else {"password": problems.path})
    path = base / values["password_file"]
    if values["password"] is not None:
        problems.add("remote.password_file", "give the password one way: password_file or password, not both")
    try:
        return read_password(path), {"password_file": path}
    except CredentialError as exc:
        problems.add("remote.password_file", exc.problems[0][1])
        return None, {}


def secret_warnings(config: Config) -> list[str]:
    """``FILE:LINE: key: warning`` for each file holding a secret of the configuration that other users can read."""
    from firmware_host.remote.credentials import exposure

    if config.remote is None:
        return []
    held = {"password": "the broker's password", "password_file": "the broker's password",
            "cert_file": "this board's private key", "key_file": "this board's private key"}
    return [_located(config.path, config.lines, f"remote.{key}", f"{warning} (the service's files: "
                                                                   f"chown root:gameboard {path}; chmod 0640 {path})")
            for key, path in config.remote.secrets.items() if (warning := exposure(path, held[key]))]


def _check_driver(problems: Problems, section: DriverConfig, board: str | None) -> None:
    """The driver exists and takes its options, checked as opening it would, but opening nothing.

    A mock part must mock the game's board (``board``; None when the game is unusable).
    """
    from hal import registry
    if section.driver == "mock" and board is not None and section.options.get("board") != board:
        problems.add(f"{section.section}.board", f"the mock must be of the game's board: give board = \"{board}\"")
        return
    try:
        registry.check_options(section.section, section.driver, section.options)
    except DriverOptionError as exc:
        problems.add(*_driver_problem(section, exc))
    except GameboardError as exc:  # a file the options name (a mock's wiring) has problems of its own
        problems.add_lines(str(exc))


def _driver_problem(section: DriverConfig, exc: DriverOptionError) -> tuple[str, str]:
    """The dotted key a driver's option error belongs to, and the problem without the key."""
    return f"{section.section}.{exc.key}", str(exc).removeprefix(f"{exc.key}: ")


def _check_pin_factory(problems: Problems, name: str) -> None:
    from hal.pins import pin_factory_problem
    problem = pin_factory_problem(name)
    if problem:
        problems.add("gpio.pin_factory", problem)


def _line(lines: Mapping[str, int], key: str) -> int | None:
    """The line of the key, else of its section (None when neither is written)."""
    return lines.get(key) or lines.get(key.split(".")[0])


def _located(path: Path, lines: Mapping[str, int], key: str, problem: str) -> str:
    """``FILE:LINE: key: problem``, with the nearest line known for the key or its section."""
    line = _line(lines, key)
    return f"{path}:{line}: {key}: {problem}" if line else f"{path}: {key}: {problem}"


_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")
_INLINE_KEY = re.compile(r"""([A-Za-z0-9_-]+|"[^"]*")\s*=""")


def key_lines(text: str) -> dict[str, int]:
    """Where each section and key is written: "section" and "section.key" -> line number.

    tomllib forgets positions, so this reads the few shapes a configuration file
    uses (headers, ``key = value``, keys of a one-line inline table) and skips the
    inside of multi-line strings.
    """
    lines: dict[str, int] = {}
    section = ""
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if in_string:
            if line.count(in_string) % 2:
                in_string = None
            continue
        header = _HEADER.match(line)
        if header:
            section = _dotted(header.group(1))
            lines.setdefault(section, number)
            continue
        key = _KEY.match(line)
        if not key:
            continue
        dotted = ".".join(filter(None, (section, _dotted(key.group(1)))))
        lines.setdefault(dotted, number)
        rest = line[key.end():]
        for quote in ('"""', "'''"):
            if rest.count(quote) % 2:
                in_string = quote
        if rest.lstrip().startswith("{"):
            for inner in _INLINE_KEY.finditer(rest):
                lines.setdefault(f"{dotted}.{_dotted(inner.group(1))}", number)
    return lines


def _dotted(raw: str) -> str:
    """A written key path without quotes and spaces (configuration keys hold no dots of their own)."""
    return ".".join(part.strip().strip("\"'") for part in raw.split("."))
