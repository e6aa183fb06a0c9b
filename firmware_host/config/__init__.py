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

    [voice]                         # the board speaks through espeak-ng; omitted: silent
    on = true
    language = "en"
    volume = 100

    [remote]                        # a game with a friend elsewhere (docs/remote.md); seats like "remote:bob"
    broker = "mqtts://broker.example:8883"
    game = "friday"
    name = "alice"
    password_file = "broker.password"   # alice's broker password; or password = "...", making this file secret

Its parts, by job: ``problems`` (each mistake at its line, ``key_lines``), ``settings`` (the
sections' keys and their checks), ``remote`` (the ``[remote]`` section), ``voice`` (the ``[voice]``
section), ``hardware`` (the driver sections checked, the ``Hal`` they open into),
``model`` (the checked ``Config``, and the warnings of a file that runs) and ``reading`` (the file read and every section checked).
"""

from firmware_host.config.hardware import Hal
from firmware_host.config.model import Config, secret_warnings, voice_warnings
from firmware_host.config.problems import ConfigError, Problems, key_lines
from firmware_host.config.reading import load_config, parse_config, read_config
from firmware_host.config.remote import RemoteConfig
from firmware_host.config.settings import DriverConfig, LoopConfig
from firmware_host.config.voice import VoiceConfig

__all__ = ["Config", "ConfigError", "DriverConfig", "Hal", "LoopConfig", "Problems", "RemoteConfig", "VoiceConfig",
           "key_lines", "load_config", "parse_config", "read_config", "secret_warnings", "voice_warnings"]
