"""The checked configuration: what the daemon reads from it, and the hardware it opens."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from firmware_host.config.hardware import Hal, driver_problem
from firmware_host.config.problems import ConfigError, located
from firmware_host.config.remote import RemoteConfig
from firmware_host.config.settings import DriverConfig, LoopConfig
from firmware_host.config.voice import ESPEAK, VoiceConfig
from firmware_host.seats import Seat
from firmware_host.thinker import Thinking
from hal.base import DriverOptionError, HardwareError

if TYPE_CHECKING:
    from engine.core import Game, State
    from wiring.model import Wiring


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
    #: Whether and how the board speaks (``[voice]``).
    voice: VoiceConfig = VoiceConfig()

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
                raise ConfigError(located(self.path, self.lines, *driver_problem(section, exc))) from None

        if self.pin_factory is not None:
            try:
                use_pin_factory(self.pin_factory)
            except HardwareError as exc:
                raise ConfigError(located(self.path, self.lines, "gpio.pin_factory", str(exc))) from None
        sensors = opened(self.sensors, registry.open_sensors)
        leds = opened(self.leds, registry.open_leds)
        buttons = opened(self.buttons, registry.open_buttons) if self.buttons else None
        dice = RandomDice(self.dice_seed) if self.dice_mode == "daemon" else EnteredDice()
        return Hal(sensors, leds, buttons, dice)


def secret_warnings(config: Config) -> list[str]:
    """``FILE:LINE: key: warning`` for each file holding a secret of the configuration that other users can read."""
    from firmware_host.remote.credentials import exposure

    if config.remote is None:
        return []
    held = {"password": "the broker's password", "password_file": "the broker's password",
            "cert_file": "this board's private key", "key_file": "this board's private key"}
    return [located(config.path, config.lines, f"remote.{key}", f"{warning} (the service's files: "
                                                                  f"chown root:gameboard {path}; chmod 0640 {path})")
            for key, path in config.remote.secrets.items() if (warning := exposure(path, held[key]))]


def voice_warnings(config: Config) -> list[str]:
    """``FILE:LINE: key: warning`` when the voice is on but cannot speak: espeak-ng missing, or its voice unknown."""
    voice = config.voice
    if not voice.on:
        return []
    if shutil.which(ESPEAK) is None:
        return [located(config.path, config.lines, "voice.on",
                        f"{ESPEAK} is not installed, so the board stays silent; install it (sudo apt install "
                        f"{ESPEAK}) or write on = false")]
    try:  # speaks nothing: espeak-ng only loads the voice, and fails if there is none of that name
        known = subprocess.run([ESPEAK, "-q", "-v", voice.language, ""], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        known = True  # it cannot be asked now; the voice's own process will say why
    if not known:
        return [located(config.path, config.lines, "voice.language",
                        f"{ESPEAK} has no voice {voice.language!r}, so the board stays silent; name one that "
                        f"`{ESPEAK} --voices` lists, e.g. language = \"en\"")]
    return []
