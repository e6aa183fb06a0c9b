"""The systemd unit verifies cleanly and asks for what the daemon needs; the example config loads."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.config import load_config

SYSTEMD = Path(__file__).parents[2] / "systemd"
INSTALLED_COMMAND = "/opt/gameboard/bin/gameboard"


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(SYSTEMD / "gameboard.service")
    return parser


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_unit_verifies_without_a_single_complaint(tmp_path: Path) -> None:
    # verify checks that ExecStart exists: point it at this checkout's command instead of /opt.
    text = (SYSTEMD / "gameboard.service").read_text()
    assert INSTALLED_COMMAND in text
    installed = tmp_path / "gameboard.service"
    installed.write_text(text.replace(INSTALLED_COMMAND, str(Path(sys.executable).with_name("gameboard"))))
    result = subprocess.run(["systemd-analyze", "verify", str(installed)], capture_output=True, text=True,
                            timeout=60, check=False)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_the_unit_is_a_hardened_notify_service_with_a_watchdog() -> None:
    service = unit()["Service"]
    assert service["Type"] == "notify" and service["Restart"] == "on-failure"
    assert int(service["WatchdogSec"]) > 0
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "spi", "i2c", "dialout"}
    assert service["User"] == "gameboard" and service["StateDirectory"] == "gameboard"
    assert service["ConfigurationDirectory"] == "gameboard"
    hardening = {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes",
                 "DevicePolicy": "closed"}
    assert {key: service[key] for key in hardening} == hardening
    assert "PrivateDevices" not in service and "ProcSubset" not in service  # they hide the hardware
    assert service["ExecStart"].split()[:4] == [INSTALLED_COMMAND, "run", "--config", "/etc/gameboard/gameboard.toml"]


def test_the_example_configuration_loads() -> None:
    config = load_config(SYSTEMD / "gameboard.toml")
    assert config.game_name == "overpass" and config.sensors.driver == "serial"
    assert config.journal_path == Path("/var/lib/gameboard/journal.sqlite3")
    assert config.wiring_path == SYSTEMD / "wiring.toml"
