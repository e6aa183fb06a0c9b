"""The systemd unit verifies cleanly, asks for what the daemon needs and no more; its web drop-in opens
what ``run --web`` needs; the example config loads."""

from __future__ import annotations

import ipaddress
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.cli import build_parser
from firmware_host.config import load_config

SYSTEMD = Path(__file__).parents[2] / "systemd"
UNIT = SYSTEMD / "gameboard.service"
WEB_DROP_IN = SYSTEMD / "gameboard-web.conf"
INSTALLED_COMMAND = "/opt/gameboard/bin/gameboard"
EXPOSURE_GOAL = 2.5  # systemd-analyze security's scale: 0 (safe) to 10 (exposed)
needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")


def service_settings(*files: Path) -> dict[str, list[str]]:
    """Each [Service] key's values in order across the unit and its drop-ins, an empty assignment
    clearing the earlier ones, as systemd reads them (``ExecStart=`` before a new ``ExecStart=``)."""
    settings: dict[str, list[str]] = {}
    section = ""
    for path in files:
        for line in path.read_text().splitlines():
            line = line.strip()
            if line.startswith("["):
                section = line.strip("[]")
            elif line and not line.startswith(("#", ";")) and section == "Service":
                key, _, value = line.partition("=")
                settings[key] = settings.get(key, []) + [value] if value else []
    return settings


def last(settings: dict[str, list[str]], key: str) -> str | None:
    """The value in force: None when never set, "" when set empty (``CapabilityBoundingSet=``: nothing)."""
    values = settings.get(key)
    return None if values is None else values[-1] if values else ""


def installed(tmp_path: Path, with_web: bool) -> Path:
    """The unit (and the web drop-in) in a folder as systemd finds them, ExecStart on this checkout's command:
    verify checks that it exists."""
    def copy(source: Path, target: Path) -> None:
        text = source.read_text()
        assert INSTALLED_COMMAND in text
        target.write_text(text.replace(INSTALLED_COMMAND, str(Path(sys.executable).with_name("gameboard"))))

    copy(UNIT, tmp_path / "gameboard.service")
    if with_web:
        (tmp_path / "gameboard.service.d").mkdir()
        copy(WEB_DROP_IN, tmp_path / "gameboard.service.d" / "web.conf")
    return tmp_path / "gameboard.service"


def analyze(*args: str) -> str:
    result = subprocess.run(["systemd-analyze", *args], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


@needs_analyze
@pytest.mark.parametrize("with_web", [False, True], ids=["unit", "unit+web"])
def test_the_unit_verifies_without_a_single_complaint(tmp_path: Path, with_web: bool) -> None:
    result = subprocess.run(["systemd-analyze", "verify", str(installed(tmp_path, with_web))],
                            capture_output=True, text=True, timeout=60, check=False)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


@needs_analyze
@pytest.mark.parametrize("with_web", [False, True], ids=["unit", "unit+web"])
def test_the_unit_rates_within_the_exposure_goal(tmp_path: Path, with_web: bool) -> None:
    report = analyze("security", "--offline=yes", str(installed(tmp_path, with_web)))
    rating = re.search(r"Overall exposure level for gameboard\.service: (\d+\.\d+)", report)
    assert rating is not None, report
    assert float(rating.group(1)) <= EXPOSURE_GOAL, report


@needs_analyze
def test_systemd_reads_the_web_drop_in_as_opening_the_network(tmp_path: Path) -> None:
    def exposed(with_web: bool) -> set[str]:
        folder = tmp_path / ("web" if with_web else "plain")
        folder.mkdir()
        checks = json.loads(analyze("security", "--offline=yes", "--json=short", str(installed(folder, with_web))))
        return {check["name"] for check in checks if check["exposure"]}

    network = {"PrivateNetwork=", "RestrictAddressFamilies=~AF_(INET|INET6)"}
    assert network & exposed(with_web=False) == set()
    assert network <= exposed(with_web=True)


def test_the_web_drop_in_gives_run_web_its_command_and_its_network() -> None:
    base = service_settings(UNIT)
    web = service_settings(UNIT, WEB_DROP_IN)
    [command] = web["ExecStart"]
    args = build_parser().parse_args(command.split()[1:])
    assert (args.command, args.web) == ("run", True)
    assert command.split()[:4] == base["ExecStart"][0].split()[:4]  # the same program and configuration
    family = {4: "AF_INET", 6: "AF_INET6"}[ipaddress.ip_address(args.listen).version]
    families = set(" ".join(web["RestrictAddressFamilies"]).split())
    assert family in families and "AF_UNIX" in families  # AF_UNIX: systemd's notify socket
    assert last(web, "PrivateNetwork") == "no"
    assert "localhost" in last(web, "IPAddressAllow").split()  # the page on the Pi itself
    # Without the drop-in the unit keeps the network shut.
    assert base["RestrictAddressFamilies"] == ["AF_UNIX"] and last(base, "PrivateNetwork") == "yes"


def test_the_unit_is_a_hardened_notify_service_with_a_watchdog() -> None:
    service = service_settings(UNIT)
    assert last(service, "Type") == "notify" and last(service, "Restart") == "on-failure"
    assert int(last(service, "WatchdogSec")) > 0
    assert set(last(service, "SupplementaryGroups").split()) == {"gpio", "spi", "i2c", "dialout"}
    assert last(service, "User") == "gameboard" and last(service, "StateDirectory") == "gameboard"
    assert last(service, "ConfigurationDirectory") == "gameboard"
    hardening = {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes",
                 "DevicePolicy": "closed", "CapabilityBoundingSet": "", "ProtectProc": "invisible",
                 "PrivateNetwork": "yes"}
    assert {key: last(service, key) for key in hardening} == hardening
    # The devices of every driver the service runs; /dev/serial0 is ttyS0 on a Pi 3 or 4.
    assert set(service["DeviceAllow"]) == {f"char-{kind} rw" for kind in
                                           ("gpiochip", "spi", "i2c", "ttyACM", "ttyUSB", "ttyAMA", "ttyS")}
    # PrivateDevices= hides those devices; ProcSubset=pid hides /proc/cpuinfo and /proc/device-tree,
    # which gpiozero and Blinka read to know the Pi (see the unit's comments).
    assert "PrivateDevices" not in service and "ProcSubset" not in service
    assert last(service, "ExecStart").split()[:4] == [INSTALLED_COMMAND, "run", "--config",
                                                      "/etc/gameboard/gameboard.toml"]


def test_lgpio_gets_a_writable_folder_for_its_notification_pipes() -> None:
    service = service_settings(UNIT)
    runtime = f"%t/{last(service, 'RuntimeDirectory')}"  # /run/gameboard, writable under ProtectSystem=strict
    assert last(service, "WorkingDirectory") == runtime
    assert f"LG_WD={runtime}" in service["Environment"]


def test_the_udev_rules_give_each_device_group_its_devices() -> None:
    rules = (SYSTEMD / "60-gameboard-devices.rules").read_text()
    granted = set(re.findall(r'GROUP="([^"]+)", MODE="0660"', rules))
    groups = set(last(service_settings(UNIT), "SupplementaryGroups").split())
    assert granted == groups - {"dialout"}  # Debian's own rules give serial ports to dialout


def test_the_example_configuration_loads() -> None:
    config = load_config(SYSTEMD / "gameboard.toml")
    assert config.game_name == "overpass" and config.sensors.driver == "serial"
    assert config.journal_path == Path("/var/lib/gameboard/journal.sqlite3")
    assert config.wiring_path == SYSTEMD / "wiring.toml"
