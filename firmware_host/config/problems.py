"""A configuration file's problems, each at its line: ``FILE:LINE: key: problem; fix``, all in one ``ConfigError``.

tomllib forgets where a key was written, so ``key_lines`` finds each key's line in the text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import Path

from engine.errors import GameboardError


class ConfigError(GameboardError, ValueError):
    """A configuration file that cannot be used: the message names the file, line, key and fix."""



class Problems:
    """The problems found in one configuration file, reported together as one ConfigError.

    Each is ``FILE:LINE: key: problem; fix``, in the file's order; ``lines`` (from
    ``key_lines``) finds the line.  Problems of other files (the wiring) come last.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: dict[str, int] = {}
        #: (line to sort by, message)
        self.found: list[tuple[float, str]] = []
        #: The sections that had a problem: later checks that need them skip.
        self.sections: set[str] = set()

    def add(self, key: str, problem: str) -> None:
        """A problem of ``key`` ("section.key", or a section), at the nearest line known for it."""
        self.found.append((_line(self.lines, key) or 0, located(self.path, self.lines, key, problem)))
        self.sections.add(key.split(".")[0])

    def add_file(self, problem: str) -> None:
        """A problem of the file as a whole: ``FILE: problem``."""
        self.found.append((0, f"{self.path}: {problem}"))

    def add_lines(self, text: str) -> None:
        """Problems already written as ``FILE:LINE: problem`` lines (another file's, such as the wiring)."""
        self.found.extend((math.inf, message) for message in text.splitlines())

    def raise_if_any(self) -> None:
        if self.found:
            raise ConfigError("\n".join(message for _, message in sorted(self.found, key=lambda found: found[0])))


def _line(lines: Mapping[str, int], key: str) -> int | None:
    """The line of the key, else of its section (None when neither is written)."""
    return lines.get(key) or lines.get(key.split(".")[0])


def located(path: Path, lines: Mapping[str, int], key: str, problem: str) -> str:
    """``FILE:LINE: key: problem``, with the nearest line known for the key or its section."""
    line = _line(lines, key)
    return f"{path}:{line}: {key}: {problem}" if line else f"{path}: {key}: {problem}"


_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"""^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=""")
_INLINE_KEY = re.compile(r"""([A-Za-z0-9_-]+|"[^"]*")\s*=""")


def key_lines(text: str) -> dict[str, int]:
    """Where each section and key is written: "section" and "section.key" -> line number.

    tomllib forgets positions, so this reads the few shapes a configuration file
    uses (headers, ``key = value``, keys of a one-line inline table) and skips the
    inside of multi-line strings.
    """
    lines: dict[str, int] = {}
    section = ""
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if in_string:
            if line.count(in_string) % 2:
                in_string = None
            continue
        header = _HEADER.match(line)
        if header:
            section = _dotted(header.group(1))
            lines.setdefault(section, number)
            continue
        key = _KEY.match(line)
        if not key:
            continue
        dotted = ".".join(filter(None, (section, _dotted(key.group(1)))))
        lines.setdefault(dotted, number)
        rest = line[key.end():]
        for quote in ('"""', "'''"):
            if rest.count(quote) % 2:
                in_string = quote
        if rest.lstrip().startswith("{"):
            for inner in _INLINE_KEY.finditer(rest):
                lines.setdefault(f"{dotted}.{_dotted(inner.group(1))}", number)
    return lines


def _dotted(raw: str) -> str:
    """A written key path without quotes and spaces (configuration keys hold no dots of their own)."""
    return ".".join(part.strip().strip("\"'") for part in raw.split("."))
