"""docs/build.md stays true: its magnet table is the formula's, its configurations pass the check, its
schematics are what the command draws now."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.kit.magnets import axial_field_mt
from firmware_host.validation import checked_config

ROOT = Path(__file__).parents[2]
GUIDE = (ROOT / "docs" / "build.md").read_text()
MAGNET_ROW = re.compile(r"^\| (\d+) x (\d+) mm (N\d+)[^|]*((?:\| \d+ mT )+)\|$", re.MULTILINE)


def test_the_magnet_table_is_the_formulas() -> None:
    distances = [int(d) for d in re.findall(r"(\d+) mm", GUIDE.split("| magnet |")[1].splitlines()[0])]
    rows = MAGNET_ROW.findall(GUIDE)
    assert len(rows) == 4 and distances == [3, 5, 8, 10, 12, 15]
    for diameter, thickness, grade, cells in rows:
        printed = [int(value) for value in re.findall(r"(\d+) mT", cells)]
        assert printed == [round(axial_field_mt(grade, int(diameter), int(thickness), d)) for d in distances]


@pytest.mark.parametrize("number", [0, 1])
def test_the_worked_configurations_pass_the_check(number: int, tmp_path: Path) -> None:
    blocks = [block for block in re.findall(r"```toml\n(.*?)```", GUIDE, re.DOTALL) if block.startswith("[game]")]
    assert len(blocks) == 2
    path = tmp_path / "gameboard.toml"
    path.write_text(blocks[number])
    config = checked_config(path, wiring=False, journal=False)
    assert config.game().name == ("squareoff", "overpass")[number]


@pytest.mark.parametrize(("name", "arguments"), [
    ("squareoff-hc165.svg", ["squareoff", "--front-end", "hc165"]),
    ("overpass-serial.svg", ["overpass", "--sensors", "hall", "--front-end", "serial"]),
])
def test_the_guides_schematics_are_current(name: str, arguments: list[str], tmp_path: Path) -> None:
    out = tmp_path / name
    assert main(["board", "schematic", *arguments, "-o", str(out)]) == 0
    assert (ROOT / "docs" / "build" / name).read_text() == out.read_text(), \
        f"docs/build/{name} is stale: gameboard board schematic {' '.join(arguments)} -o docs/build/{name}"
