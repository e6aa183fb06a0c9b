"""The kit's part data (``parts.toml``), read once: what the parts are and the pins the default configuration uses."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

PARTS_FILE = Path(__file__).with_name("parts.toml")


@cache
def part_data() -> dict[str, Any]:
    """The whole of ``parts.toml``."""
    with PARTS_FILE.open("rb") as file:
        return tomllib.load(file)


def sensor_choices() -> tuple[str, ...]:
    return tuple(part_data()["sensors"])


def sensing(sensors: str) -> str:
    """What ``sensors`` ("reed", "hall", "hall-analog") tell: "presence" or "analog"."""
    return part_data()["sensors"][sensors]["kind"]
