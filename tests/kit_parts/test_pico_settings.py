"""`board route --front-end serial --pico FILE`: the Pico's settings for the plan, read by the firmware's own parser,
report the chips, channels and strips the wiring file written beside them expects."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tests.firmware.pico  # noqa: F401  (puts the firmware and its machine shim on the path)
from firmware_host.cli import main
from gameboard_fw.settings import parse
from wiring.files import load_wiring


@pytest.mark.parametrize(("board", "sensors", "front_end"), [("overpass", "hall", "hc165"),
                                                              ("hexover", "hall-analog", "hall_mux")])
def test_the_picos_settings_are_the_plans(tmp_path: Path, capsys, board: str, sensors: str, front_end: str) -> None:
    wiring_file, settings_file = tmp_path / "wiring.toml", tmp_path / "gameboard.json"
    assert main(["board", "route", board, "--sensors", sensors, "--front-end", "serial", "-o", str(wiring_file),
                 "--pico", str(settings_file)]) == 0
    assert capsys.readouterr().out.endswith(f"wrote {wiring_file}\nwrote {settings_file}\n")
    settings = parse(settings_file.read_text(), str(settings_file))
    wiring = load_wiring(wiring_file)
    assert settings.front_end["front_end"] == front_end
    assert settings.front_end["channels"] == wiring.sensor_channels
    assert [strip["leds"] for strip in settings.strips] == list(wiring.strip_lengths)
    assert settings.line == {"port": "usb"}


def test_pico_settings_are_refused_for_a_chain_the_pi_reads(tmp_path: Path, capsys) -> None:
    assert main(["board", "route", "squareoff", "--pico", str(tmp_path / "gameboard.json")]) == 2
    assert "--pico writes the Pico co-processor's settings, and --front-end hc165 is read by the Pi" in \
        capsys.readouterr().err
    assert not (tmp_path / "gameboard.json").exists()


def test_the_guides_pico_settings_are_what_route_writes(tmp_path: Path, capsys) -> None:
    guide = (Path(__file__).parents[2] / "docs" / "build.md").read_text()
    shown = json.loads(guide.split("```json\n")[1].split("```")[0])
    assert main(["board", "route", "overpass", "--sensors", "hall", "--front-end", "serial",
                 "--pico", str(tmp_path / "gameboard.json")]) == 0
    assert shown == json.loads((tmp_path / "gameboard.json").read_text())
