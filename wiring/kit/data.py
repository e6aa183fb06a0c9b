"""``kit.json``: how each board is built, read and checked once, with errors naming the key.

Lengths in the file are millimetres; angles are degrees counter-clockwise from east.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.errors import GameboardError

PATH = Path(__file__).with_name("kit.json")
ROUTES = ("serpentine", "shortest")


class KitError(GameboardError, ValueError):
    """A template or a plan that cannot be made as asked; the message says why and what to change."""


#: The directions a "free" LED may take: 16, none along a line drawn every 22.5 degrees.
FREE_ANGLES = tuple(11.25 + 22.5 * k for k in range(16))


@dataclass(frozen=True)
class Offset:
    """Where a place's LED sits from its sensor: a distance and a direction (None: "free", the
    direction of ``FREE_ANGLES`` farthest from the neighbouring holes, chosen by the layout)."""

    distance_mm: float
    angle: float | None

    def vector(self, angle: float | None = None) -> tuple[float, float]:
        """(dx, dy) in millimetres, y up as on the board, at the offset's angle (or ``angle`` when free)."""
        radians = math.radians(self.angle if self.angle is not None else angle)
        return self.distance_mm * math.cos(radians), self.distance_mm * math.sin(radians)


@dataclass(frozen=True)
class BoardKit:
    """One board's build data, defaults filled in."""

    board: str
    margin_mm: float
    clearance_mm: float
    sensor_hole_mm: float
    led_hole_mm: float
    led_offsets: dict[str, Offset]
    default_offset: Offset
    route: str
    slack: float
    ends_mm: float
    size_mm: float  # the outline's longer side when no --size or --spacing is given: one the clearance passes

    def led_offset(self, kind: str) -> Offset:
        return self.led_offsets.get(kind, self.default_offset)


@dataclass(frozen=True)
class FrontEnd:
    """A sensor front-end: chips of ``per_chip`` inputs, channel ``per_chip * chip + n`` being input n of chip chip.

    ``name`` is the configuration's ``[sensors] driver``; ``host`` what the chips answer to ("pi", or "pico" for
    the serial co-processor, whose chain depends on the sensors: 74HC165s for presence, multiplexers for analog).
    """

    name: str
    chip: str
    per_chip: int
    max_chips: int
    sensing: str
    input: str
    driver: str
    host: str = "pi"
    address: int | None = None
    whole_chips: bool = True

    def input_name(self, n: int) -> str:
        """The chip's own name for input ``n`` (D3, GPB1, CH5, ...)."""
        return self.input.format(n=n, bank="AB"[n // 8 % 2], bit=n % 8)


def _number(where: str, value: Any, low: float = 0.0) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not low <= value < math.inf:
        raise KitError(f"{PATH}: {where} must be a number of at least {low:g}, not {value!r}")
    return float(value)


def _offset(where: str, raw: Any) -> Offset:
    if not isinstance(raw, dict) or set(raw) != {"distance_mm", "angle"}:
        raise KitError(f'{PATH}: {where} must be {{"distance_mm": 6, "angle": 45}} (or "angle": "free"), not {raw!r}')
    angle = None if raw["angle"] == "free" else _number(f"{where}.angle", raw["angle"], -360)
    return Offset(_number(f"{where}.distance_mm", raw["distance_mm"]), angle)


@cache
def read_kit() -> dict[str, Any]:
    try:
        data = json.loads(PATH.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise KitError(f"{PATH}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict) or not {"defaults", "boards", "front_ends"} <= set(data):
        raise KitError(f'{PATH}: needs "defaults", "boards" and "front_ends"')
    return data


def board_kit(board: str) -> BoardKit:
    """The build data of ``board``: its entry in ``kit.json`` over the defaults."""
    data = read_kit()
    entry = {**data["defaults"], **data["boards"].get(board, {})}
    where = f'boards "{board}"'
    unknown = sorted(set(entry) - set(data["defaults"]) - {"about"})
    if unknown:
        raise KitError(f"{PATH}: {where}: unknown key {unknown[0]!r}; a board's keys are {', '.join(data['defaults'])}")
    default = _offset("defaults.led_offset", data["defaults"]["led_offset"])
    offsets_raw = entry["led_offset"] if board in data["boards"] and "led_offset" in data["boards"][board] else {}
    offsets = {kind: _offset(f"{where}.led_offset.{kind}", raw) for kind, raw in offsets_raw.items()}
    if entry["route"] not in ROUTES:
        raise KitError(f"{PATH}: {where}.route is {entry['route']!r}; use one of {', '.join(ROUTES)}")
    wire = entry["wire"]
    kit = BoardKit(board, _number(f"{where}.margin_mm", entry["margin_mm"]),
                   _number(f"{where}.clearance_mm", entry["clearance_mm"]),
                   _number(f"{where}.sensor_hole_mm", entry["sensor_hole_mm"], 0.1),
                   _number(f"{where}.led_hole_mm", entry["led_hole_mm"], 0.1),
                   offsets, default, entry["route"], _number(f"{where}.wire.slack", wire["slack"], 1.0),
                   _number(f"{where}.wire.ends_mm", wire["ends_mm"]), _number(f"{where}.size_mm", entry["size_mm"], 1))
    apart = (kit.sensor_hole_mm + kit.led_hole_mm) / 2
    for kind, offset in {**offsets, "(default)": default}.items():
        if offset.distance_mm < apart:
            raise KitError(f"{PATH}: {where}.led_offset.{kind}: an LED {offset.distance_mm:g} mm from its sensor "
                           f"overlaps it (the holes need {apart:g} mm between centres); raise distance_mm")
    return kit


def front_end_names() -> tuple[str, ...]:
    """The front-ends, by the configuration's ``[sensors] driver`` names."""
    return tuple(read_kit()["front_ends"])


def front_end(name: str, sensing: str = "presence") -> FrontEnd:
    """The chip chain of front-end ``name`` reading ``sensing`` sensors ("presence" or "analog")."""
    known = read_kit()["front_ends"]
    if name not in known:
        raise KitError(f"--front-end {name}: no such front-end; they are {', '.join(known)}")
    raw = known[name].get(sensing, known[name])
    if raw.get("sensing") != sensing:
        fits = [other for other in known if known[other].get(sensing, known[other]).get("sensing") == sensing]
        raise KitError(f"--front-end {name} reads {raw.get('sensing', 'other')} sensors, not {sensing} ones: choose "
                       f"--front-end {' or '.join(fits)}, or other --sensors")
    return FrontEnd(name, raw["chip"], int(raw["per_chip"]), int(raw["max_chips"]), raw["sensing"], raw["input"],
                    raw["driver"], raw.get("host", "pi"), raw.get("address"), raw.get("whole_chips", True))
