"""The systemd unit verifies cleanly, asks for what the daemon needs and no more; its web and remote-play
drop-ins open what those need; the unit is read as systemd reads it, and ``run --check`` says what a
configuration needs that the installed unit withholds; the example config loads."""

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
from firmware_host.service_unit import ServiceUnit, withheld

SYSTEMD = Path(__file__).parents[2] / "systemd"
UNIT = SYSTEMD / "gameboard.service"
WEB_DROP_IN = SYSTEMD / "gameboard-web.conf"
REMOTE_DROP_IN = SYSTEMD / "gameboard-remote.conf"
DROP_INS = {"unit": (), "unit+web": (WEB_DROP_IN,), "unit+remote": (REMOTE_DROP_IN,),
            "unit+web+remote": (WEB_DROP_IN, REMOTE_DROP_IN)}
INSTALLED_COMMAND = "/opt/gameboard/bin/gameboard"
EXPOSURE_GOAL = 2.5  # systemd-analyze security's scale: 0 (safe) to 10 (exposed)
needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")


def service_settings(*files: Path) -> dict[str, list[str]]:
    """Each [Service] key's values in order across the unit and its drop-ins, as systemd reads them."""
    return ServiceUnit.read(*files).settings


def last(settings: dict[str, list[str]], key: str) -> str | None:
    """The value in force: None when never set, "" when set empty (``CapabilityBoundingSet=``: nothing)."""
    values = settings.get(key)
    return None if values is None else values[-1] if values else ""


def installed(tmp_path: Path, drop_ins: tuple[Path, ...] = (), config: Path | None = None) -> Path:
    """The unit and its drop-ins in a folder as systemd finds them, ExecStart on this checkout's command (verify
    checks that it exists) and ``config`` if given."""
    def copy(source: Path, target: Path) -> None:
        text = source.read_text()
        if config is not None:
            text = text.replace("/etc/gameboard/gameboard.toml", str(config))
        target.write_text(text.replace(INSTALLED_COMMAND, str(Path(sys.executable).with_name("gameboard"))))

    assert INSTALLED_COMMAND in UNIT.read_text()
    copy(UNIT, tmp_path / "gameboard.service")
    if drop_ins:
        (tmp_path / "gameboard.service.d").mkdir()
    for drop_in in drop_ins:
        copy(drop_in, tmp_path / "gameboard.service.d" / f"{drop_in.stem.removeprefix('gameboard-')}.conf")
    return tmp_path / "gameboard.service"


def analyze(*args: str) -> str:
    result = subprocess.run(["systemd-analyze", *args], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


@needs_analyze
@pytest.mark.parametrize("drop_ins", DROP_INS.values(), ids=DROP_INS.keys())
def test_the_unit_verifies_without_a_single_complaint(tmp_path: Path, drop_ins: tuple[Path, ...]) -> None:
    result = subprocess.run(["systemd-analyze", "verify", str(installed(tmp_path, drop_ins))],
                            capture_output=True, text=True, timeout=60, check=False)
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


@needs_analyze
@pytest.mark.parametrize("drop_ins", DROP_INS.values(), ids=DROP_INS.keys())
def test_the_unit_rates_within_the_exposure_goal(tmp_path: Path, drop_ins: tuple[Path, ...]) -> None:
    report = analyze("security", "--offline=yes", str(installed(tmp_path, drop_ins)))
    rating = re.search(r"Overall exposure level for gameboard\.service: (\d+\.\d+)", report)
    assert rating is not None, report
    assert float(rating.group(1)) <= EXPOSURE_GOAL, report


@needs_analyze
def test_systemd_reads_the_web_drop_in_as_opening_the_network(tmp_path: Path) -> None:
    def exposed(with_web: bool) -> set[str]:
        folder = tmp_path / ("web" if with_web else "plain")
        folder.mkdir()
        checks = json.loads(analyze("security", "--offline=yes", "--json=short",
                                    str(installed(folder, (WEB_DROP_IN,) if with_web else ()))))
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


def test_the_remote_drop_in_opens_the_network_for_the_broker_and_leaves_the_command_alone() -> None:
    unit, remote = ServiceUnit.read(UNIT), ServiceUnit.read(UNIT, REMOTE_DROP_IN)
    assert remote.settings["ExecStart"] == unit.settings["ExecStart"]
    assert not remote.private_network and all(map(remote.allows_family, ("AF_UNIX", "AF_INET", "AF_INET6")))
    assert not unit.allows_family("AF_INET") and unit.allows_family("AF_UNIX")
    home = ("127.0.0.1", "::1", "192.168.1.20", "10.1.2.3", "fd00::7", "169.254.3.4")
    assert all(remote.allows_address(ipaddress.ip_address(address)) for address in home)
    assert not remote.allows_address(ipaddress.ip_address("203.0.113.7"))  # a broker elsewhere: its line to write
    [example] = re.findall(r"^#(IPAddressAllow=203\.0\.113\.7 .*)$", REMOTE_DROP_IN.read_text(), re.M)
    assert example.partition("=")[2].split() == ["203.0.113.7", "2001:db8::7"]


def test_the_unit_is_read_as_systemd_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "x.service"
    path.write_text("[Unit]\nRestrictAddressFamilies=AF_INET\n[Service]\n# a comment\n"
                    "RestrictAddressFamilies=AF_UNIX \\\n  AF_INET\nRestrictAddressFamilies=~AF_INET\n"
                    "IPAddressDeny=any\nIPAddressAllow=10.0.0.0/8\nIPAddressAllow=\nIPAddressAllow=localhost\n"
                    "ExecStart=/x run --config /srv/board.toml\n")
    unit = ServiceUnit.read(path)
    assert unit.allows_family("AF_UNIX") and not unit.allows_family("AF_INET")  # ~ takes it out of the allow list
    assert unit.allows_address(ipaddress.ip_address("127.0.0.9")) and unit.allows_address(ipaddress.ip_address("::1"))
    assert not unit.allows_address(ipaddress.ip_address("10.1.1.1"))  # the empty assignment cleared it
    assert unit.config_path() == Path("/srv/board.toml")
    path.write_text("[Service]\nRestrictAddressFamilies=~AF_INET6\nRestrictAddressFamilies=~AF_PACKET\n")
    deny_list = ServiceUnit.read(path)
    assert deny_list.allows_family("AF_INET") and not deny_list.allows_family("AF_PACKET")
    assert ServiceUnit.read(path).config_path() == Path("/etc/gameboard/gameboard.toml")


def test_the_installed_unit_takes_drop_ins_from_every_folder_by_name(tmp_path: Path) -> None:
    etc, lib = tmp_path / "etc", tmp_path / "lib"
    assert ServiceUnit.installed((etc, lib)) is None
    for folder in (etc, lib):
        (folder / "gameboard.service.d").mkdir(parents=True)
    (lib / "gameboard.service").write_text("[Service]\nPrivateNetwork=yes\n")
    (lib / "gameboard.service.d" / "a.conf").write_text("[Service]\nPrivateNetwork=no\n")
    (lib / "gameboard.service.d" / "b.conf").write_text("[Service]\nPrivateNetwork=no\n")
    (etc / "gameboard.service.d" / "b.conf").write_text("[Service]\nPrivateNetwork=yes\n")  # masks lib's b.conf
    unit = ServiceUnit.installed((etc, lib))
    assert unit.files == (lib / "gameboard.service", lib / "gameboard.service.d" / "a.conf",
                          etc / "gameboard.service.d" / "b.conf")
    assert unit.private_network


def remote_setup(tmp_path: Path, broker: str, *drop_ins: Path) -> tuple:
    """A configuration with remote play and the unit (with ``drop_ins``) installed to run it."""
    config = tmp_path / "gameboard.toml"
    config.parent.mkdir(exist_ok=True)
    config.write_text('[game]\nname = "squareoff"\nseats = ["human", "remote:bob"]\n[sensors]\ndriver = "mock"\n'
                      'board = "squareoff"\n[leds]\ndriver = "mock"\nboard = "squareoff"\n'
                      f'[remote]\nbroker = "{broker}"\ngame = "friday"\nname = "alice"\n')
    (tmp_path / "units").mkdir()
    return load_config(config), ServiceUnit.installed([installed(tmp_path / "units", drop_ins, config).parent])


def test_the_check_names_the_drop_in_remote_play_needs(tmp_path: Path) -> None:
    config, unit = remote_setup(tmp_path, "mqtts://broker.example.org")
    assert withheld(config, unit, resolve=lambda *_: ["203.0.113.7"], nameservers=["127.0.0.53"]) == (
        f"{config.path}: [remote] broker broker.example.org: gameboard.service gives the daemon no network "
        "(PrivateNetwork=yes, RestrictAddressFamilies=AF_UNIX); install the remote-play drop-in: sudo install -D -m "
        "0644 systemd/gameboard-remote.conf /etc/systemd/system/gameboard.service.d/remote.conf, with the broker's "
        "addresses in it (docs/daemon.md), then sudo systemctl daemon-reload && sudo systemctl restart gameboard")
    assert withheld(config, None) is None  # no unit installed: run by hand
    other = tmp_path / "other.toml"
    other.write_text(config.path.read_text())
    assert withheld(load_config(other), unit) is None  # not the configuration the service runs


def test_the_check_names_the_addresses_the_unit_keeps_out(tmp_path: Path) -> None:
    # The web drop-in alone: the network, but the docs' example broker (an address elsewhere) is kept out.
    config, unit = remote_setup(tmp_path, "mqtts://broker.example.org", WEB_DROP_IN)
    assert withheld(config, unit, resolve=lambda *_: ["203.0.113.7", "2001:db8::7"], nameservers=["1.1.1.1"]) == (
        f"{config.path}: [remote] broker broker.example.org: gameboard.service keeps the daemon from reaching "
        "1.1.1.1 (the name server), 203.0.113.7 or 2001:db8::7 (broker.example.org); add them to IPAddressAllow= in "
        "/etc/systemd/system/gameboard.service.d/remote.conf (docs/daemon.md), then sudo systemctl daemon-reload && "
        "sudo systemctl restart gameboard")
    # The router's name server is on the home network; an unresolvable name (offline) cannot be checked.
    assert withheld(config, unit, resolve=lambda *_: ["203.0.113.7"], nameservers=["192.168.1.1"]).endswith(
        "reaching 203.0.113.7 (broker.example.org); add it to IPAddressAllow= in /etc/systemd/system/gameboard."
        "service.d/remote.conf (docs/daemon.md), then sudo systemctl daemon-reload && sudo systemctl restart gameboard")

    def offline(*_: object) -> list[str]:
        raise OSError("no network")

    assert withheld(config, unit, resolve=offline, nameservers=["192.168.1.1"]) is None
    # The remote drop-in with the broker's address written in, as its comment shows.
    allowed = tmp_path / "broker.conf"
    allowed.write_text("[Service]\nIPAddressAllow=203.0.113.7\n")
    config, unit = remote_setup(tmp_path / "with", "mqtt://203.0.113.7:1883", REMOTE_DROP_IN, allowed)
    assert withheld(config, unit) is None
    config, unit = remote_setup(tmp_path / "lan", "mqtt://192.168.1.10", REMOTE_DROP_IN)
    assert withheld(config, unit) is None
