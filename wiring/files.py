"""The wiring file: TOML a person can read and edit, written atomically with a backup.

One line per location keeps hand edits and diffs small; ``format`` versions the
layout.  Every problem is reported as ``FILE:LINE: problem; fix`` (docs/wiring.md
describes the layout).
"""

from __future__ import annotations

import math
import os
import re
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from engine.boards import BoardFileError, load_board
from engine.errors import GameboardError
from wiring.check import Problem, check_wiring
from wiring.model import ChannelCalibration, ClassBand, Wiring

FORMAT = 1
SENSING_KINDS = ("presence", "analog")
TOP_KEYS = ("format", "board", "sensors", "leds", "piece_classes", "locations", "calibration")


class WiringFileError(GameboardError, ValueError):
    """A wiring file that cannot be used; the message lists every problem with its line."""

    def __init__(self, path: Path | str, problems: list[Problem]) -> None:
        self.path = Path(path)
        self.problems = problems
        super().__init__("\n".join(problem.render(path) for problem in problems))


class LineIndex:
    """The line where each key of a TOML text is written, so problems can point at it.

    Tracks ``[table]`` headers and ``key =`` line starts; that covers the layout we
    write and what a person is likely to add by hand.
    """

    _HEADER = re.compile(r"^\s*\[([^\[\]]+)\]\s*(#.*)?$")
    _KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=""")

    def __init__(self, text: str) -> None:
        self._lines: dict[tuple[str, ...], int] = {}
        table: tuple[str, ...] = ()
        for number, line in enumerate(text.splitlines(), 1):
            if header := self._HEADER.match(line):
                table = self._split(header.group(1))
                self._lines.setdefault(table, number)
            elif key := self._KEY.match(line):
                self._lines.setdefault(table + self._split(key.group(1)), number)

    _PART = re.compile(r"""\s*("[^"]*"|'[^']*'|[^.\s]+)\s*""")

    @classmethod
    def _split(cls, dotted: str) -> tuple[str, ...]:
        """The parts of a dotted key; a quoted part such as "t1.1" may hold dots."""
        return tuple(part.strip("\"'") for part in cls._PART.findall(dotted))

    def __call__(self, *path: str) -> int:
        """The line of ``path``, or of its nearest written parent (1 when none is)."""
        for end in range(len(path), 0, -1):
            if path[:end] in self._lines:
                return self._lines[path[:end]]
        return 1


@dataclass
class WiringSource:
    """A wiring as read from a file, with the problems found while reading it."""

    path: Path
    wiring: Wiring
    line_of: LineIndex
    problems: list[Problem]

    def all_problems(self) -> list[Problem]:
        """The reading problems, plus every check against the board once it is known."""
        if not self.wiring.board:  # already reported as missing
            return self.problems
        try:
            board = load_board(self.wiring.board)
        except BoardFileError as exc:
            return self.problems + [Problem(self.line_of("board"), f"{exc}; set board = \"NAME\"")]
        found = self.problems + check_wiring(self.wiring, board, self.line_of)
        return sorted(found, key=lambda p: p.line)


def read_wiring(path: Path | str) -> WiringSource:
    """Read a wiring file, collecting (not raising) problems with its entries.

    Raises ``WiringFileError`` only when nothing can be read: no file, or broken TOML.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not a text file"
        raise WiringFileError(path, [Problem(0, f"cannot read the wiring file ({reason});"
                                                " give the path of a file written by `gameboard calibrate`")]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise WiringFileError(path, [_syntax_problem(str(exc))]) from None
    reader = _Reader(LineIndex(text))
    wiring = reader.wiring(data)
    return WiringSource(path, wiring, reader.line_of, reader.problems)


def load_wiring(path: Path | str) -> Wiring:
    """The wiring in ``path``, checked against its board; raises with every problem found."""
    source = read_wiring(path)
    problems = source.all_problems()
    if problems:
        raise WiringFileError(source.path, problems)
    return source.wiring


def _syntax_problem(message: str) -> Problem:
    found = re.search(r"\(at line (\d+), column (\d+)\)", message)
    line = int(found.group(1)) if found else 1
    reason = re.sub(r"\s*\(at .*\)$", "", message)
    fix = ("each location and each channel may appear only once: remove the duplicate line"
           if "overwrite" in reason.lower() else "fix the TOML syntax there (see docs/wiring.md for the layout)")
    return Problem(line, f"not valid TOML: {reason}; {fix}")


class _Reader:
    """Turns parsed TOML into a ``Wiring``, noting a problem for each entry it must skip."""

    def __init__(self, line_of: LineIndex) -> None:
        self.line_of = line_of
        self.problems: list[Problem] = []

    def note(self, path: tuple[str, ...], message: str) -> None:
        self.problems.append(Problem(self.line_of(*path), message))

    def wiring(self, data: dict) -> Wiring:
        for key in data:
            if key not in TOP_KEYS:
                self.note((key,), f"unknown key {key!r}; the file holds {', '.join(TOP_KEYS)}")
        version = data.get("format")
        if version != FORMAT:
            self.note(("format",), f"format = {version!r} is not one this gameboard reads; it reads format = {FORMAT}"
                      if version is not None else f"missing `format = {FORMAT}` at the top")
        board = data.get("board")
        if not isinstance(board, str):
            self.note(("board",), "missing `board = \"NAME\"`: the board this wiring belongs to")
            board = ""
        sensors = self.table(data, "sensors")
        kind = sensors.get("kind", "presence")
        if kind not in SENSING_KINDS:
            self.note(("sensors", "kind"), f"kind = {kind!r}; use \"presence\" or \"analog\"")
            kind = "presence"
        count = sensors.get("channels", 0)
        if not _is_int(count) or count < 0:
            self.note(("sensors", "channels"), f"channels = {count!r}; give how many channels the sensors read")
            count = 0
        strips = self.table(data, "leds").get("strips", [])
        if not isinstance(strips, list) or not all(_is_int(n) and n > 0 for n in strips):
            self.note(("leds", "strips"),
                      f"strips = {strips!r}; give the LED count of each strip, e.g. strips = [120, 81]")
            strips = []
        channels, leds = self.locations(self.table(data, "locations"))
        return Wiring(board=board, sensing=kind, channels=channels, leds=leds, strip_lengths=tuple(strips),
                      calibration=self.calibration(self.table(data, "calibration")),
                      piece_classes=self.piece_classes(self.table(data, "piece_classes")), sensor_channels=count)

    def table(self, data: dict, key: str) -> dict:
        value = data.get(key, {})
        if isinstance(value, dict):
            return value
        self.note((key,), f"{key} must be a table: write it as [{key}]")
        return {}

    def locations(self, table: dict) -> tuple[dict[int, str], dict[str, tuple[tuple[int, int], ...]]]:
        channels: dict[int, str] = {}
        leds: dict[str, tuple[tuple[int, int], ...]] = {}
        for location, entry in table.items():
            path = ("locations", location)
            if not isinstance(entry, dict):
                self.note(path, f"write {location} as `{location} = {{ channel = N, leds = [[strip, index]] }}`")
                continue
            for key in entry:
                if key not in ("channel", "leds"):
                    self.note(path, f"{location}: unknown key {key!r}; a location has `channel` and `leds`")
            channel = entry.get("channel")
            if _is_int(channel) and channel >= 0:
                if channel in channels:
                    self.note(path, f"{location}: channel {channel} already reads {channels[channel]}"
                                    f" (line {self.line_of('locations', channels[channel])});"
                                    " each channel reads one location")
                else:
                    channels[channel] = location
            else:
                self.note(path, f"{location}: channel = {channel!r}; give the sensor channel number (0 or more)")
            pairs = entry.get("leds", [])
            if isinstance(pairs, list) and all(_is_pair(pair) for pair in pairs):
                leds[location] = tuple((strip, index) for strip, index in pairs)
            else:
                self.note(path, f"{location}: leds = {pairs!r}; give a list of [strip, index] pairs, e.g. [[0, 12]]")
        return channels, leds

    def calibration(self, table: dict) -> dict[int, ChannelCalibration]:
        found = {}
        for key, entry in table.items():
            path = ("calibration", key)
            if not key.isdigit() or not isinstance(entry, dict):
                self.note(path, f"calibration {key!r}: write `CHANNEL = {{ baseline = X, CLASS = [low, high] }}`")
                continue
            baseline = entry.get("baseline")
            if not _is_number(baseline):
                self.note(path, f"channel {key}: baseline = {baseline!r}; give the reading with the board empty")
                continue
            bands = []
            for name, band in entry.items():
                if name == "baseline":
                    continue
                if isinstance(band, list) and len(band) == 2 and all(map(_is_number, band)):
                    bands.append(ClassBand(name, float(band[0]), float(band[1])))
                else:
                    self.note(path, f"channel {key}: {name} = {band!r}; give the class's readings as [low, high]")
            found[int(key)] = ChannelCalibration(float(baseline), tuple(bands))
        return found

    def piece_classes(self, table: dict) -> dict[str, str]:
        found = {}
        for piece, name in table.items():
            if isinstance(name, str) and name and name != "baseline":
                found[piece] = name
            else:
                self.note(("piece_classes", piece), f"{piece} = {name!r}; give the class name its magnet reads,"
                                                     " e.g. \"north\" (not \"baseline\")")
        return found


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_pair(value: object) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(map(_is_int, value))


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value)


def render_wiring(wiring: Wiring, note: str = "") -> str:
    """The wiring as the TOML text we write: commented, one line per location and channel."""
    lines = [f"# Wiring of the {wiring.board} board: the sensor channel under each location, the LEDs over it",
             "# and, for analog Hall sensors, each channel's calibration.  Check hand edits with",
             "# `gameboard wiring check FILE`; docs/wiring.md describes every key."]
    lines += [f"# {text}" for text in note.splitlines()]
    lines += ["", f"format = {FORMAT}", f"board = {_toml(wiring.board)}", "", "[sensors]",
              f"kind = {_toml(wiring.sensing)}"
              "  # \"presence\" (reed switch, digital Hall) or \"analog\" (Hall through an ADC)",
              f"channels = {wiring.sensor_channels}  # channels the sensors read; spare ones stay unmapped",
              "", "[leds]", f"strips = {_toml(list(wiring.strip_lengths))}  # LEDs on each strip, strip 0 first"]
    if wiring.piece_classes:
        lines += ["", "[piece_classes]  # piece code -> the class its magnet reads on an analog sensor"]
        lines += [f"{_key(piece)} = {_toml(name)}" for piece, name in wiring.piece_classes.items()]
    lines += ["", "[locations]  # location = { channel = sensor channel, leds = [[strip, index], ...] }"]
    channel_of = wiring.channel_of
    for location in dict.fromkeys([*wiring.leds, *wiring.channels.values()]):
        fields = [f"channel = {channel_of[location]}"] if location in channel_of else []
        if location in wiring.leds:
            fields.append(f"leds = {_toml([list(led) for led in wiring.leds[location]])}")
        lines.append(f"{_key(location)} = {{ {', '.join(fields)} }}")
    if wiring.calibration:
        lines += ["", "[calibration]  # channel = { baseline = empty reading, CLASS = [low, high], ... }"]
        for channel, calibration in sorted(wiring.calibration.items()):
            fields = [f"baseline = {_toml(calibration.baseline)}"]
            fields += [f"{_key(b.name)} = {_toml([b.low, b.high])}" for b in calibration.bands]
            lines.append(f"{channel} = {{ {', '.join(fields)} }}")
    return "\n".join(lines) + "\n"


def _toml(value: object) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, float):
        return ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(round(value, 2))
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return str(value)


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else _toml(name)


def save_wiring(path: Path | str, wiring: Wiring, note: str = "") -> Path | None:
    """Write ``wiring`` to ``path`` atomically, first keeping the previous file as ``PATH.bak``.

    A power cut leaves either the old file or the new one, never half of one.
    Returns the backup's path, or None when there was no previous file.
    """
    path = Path(path)
    backup = path.with_name(path.name + ".bak") if path.exists() else None
    try:
        if backup is not None:
            _replace_atomically(backup, lambda tmp: shutil.copy2(path, tmp))
        write_atomically(path, render_wiring(wiring, note))
    except OSError as exc:
        raise WiringFileError(path, [Problem(0, f"cannot write the wiring file ({exc.strerror});"
                                                " choose a writable path")]) from None
    return backup


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that readers see the old or the new file, never half."""
    _replace_atomically(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def _replace_atomically(path: Path, fill: Callable[[Path], object]) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    fill(tmp)
    with open(tmp, "rb+") as handle:
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
