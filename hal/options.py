"""Reading a driver's options from the configuration, one checked key at a time.

Options come from a TOML table a person wrote, so each check says what is wrong with
which key and how to fix it (``DriverOptionError``); a key no driver reads is a typo
and is reported too, rather than silently ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hal.base import DriverOptionError

#: Marks an option that has no default.
REQUIRED: Any = object()

#: A GPIO pin as gpiozero names it: a BCM number (17) or a name ("GPIO17", "BOARD11").
Pin = int | str


class DriverOptions:
    """A driver's options, read key by key; ``finish()`` rejects the keys left unread."""

    def __init__(self, driver: str, options: Mapping[str, Any]) -> None:
        self.driver = driver
        self._options = dict(options)
        self._read: set[str] = set()

    def _given(self, key: str, default: Any, example: str) -> bool:
        """Whether the person gave ``key``; a missing key without a default is an error."""
        self._read.add(key)
        if key not in self._options and default is REQUIRED:
            raise DriverOptionError(key, f"the {self.driver} driver needs this option, e.g. {key} = {example}")
        return key in self._options

    def integer(self, key: str, default: Any = REQUIRED, *, low: int, high: int, example: str = "") -> int:
        """A whole number in ``low..high``."""
        if not self._given(key, default, example or str(low)):
            return default
        value = self._options[key]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise DriverOptionError(
                key, f"{value!r} is not a whole number from {low} to {high}; e.g. {key} = {example or low}"
            )
        return value

    def number(self, key: str, default: Any = REQUIRED, *, low: float, high: float, example: str = "") -> float:
        """A number in ``low..high``."""
        if not self._given(key, default, example or str(low)):
            return default
        value = self._options[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise DriverOptionError(
                key, f"{value!r} is not a number from {low} to {high}; e.g. {key} = {example or low}"
            )
        return float(value)

    def boolean(self, key: str, default: Any = REQUIRED) -> bool:
        if not self._given(key, default, "true"):
            return default
        value = self._options[key]
        if not isinstance(value, bool):
            raise DriverOptionError(key, f"{value!r} is not true or false; write {key} = true or {key} = false")
        return value

    def text(self, key: str, default: Any = REQUIRED, *, choices: tuple[str, ...] = (), example: str = "") -> str:
        """A string, one of ``choices`` when they are given."""
        if not self._given(key, default, f'"{choices[0] if choices else example}"'):
            return default
        value = self._options[key]
        if not isinstance(value, str) or (choices and value not in choices):
            allowed = f"one of {', '.join(repr(c) for c in choices)}" if choices else f'text, e.g. {key} = "{example}"'
            raise DriverOptionError(key, f"{value!r} is not {allowed}")
        return value

    def pin(self, key: str, default: Any = REQUIRED) -> Pin:
        """One GPIO pin; gpiozero checks the name itself when the device opens."""
        if not self._given(key, default, "17"):
            return default
        value = self._options[key]
        if not _is_pin(value):
            raise DriverOptionError(key, f"{value!r} is not a GPIO pin; give a BCM number or a name, e.g. {key} = 17")
        return value

    def pins(self, key: str, default: Any = REQUIRED, *, example: str = "[17, 27, 22]") -> list[Pin]:
        """A non-empty list of distinct GPIO pins."""
        if not self._given(key, default, example):
            return default
        value = self._options[key]
        if not isinstance(value, list) or not value or not all(_is_pin(p) for p in value):
            raise DriverOptionError(key, f"{value!r} is not a list of GPIO pins; e.g. {key} = {example}")
        self.distinct(key, value)
        return list(value)

    def integers(self, key: str, default: Any = REQUIRED, *, low: int, high: int, example: str) -> list[int]:
        """A non-empty list of distinct whole numbers in ``low..high``."""
        if not self._given(key, default, example):
            return default
        value = self._options[key]
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, int) and not isinstance(v, bool) and low <= v <= high for v in value)
        ):
            raise DriverOptionError(
                key, f"{value!r} is not a list of whole numbers from {low} to {high}; e.g. {key} = {example}"
            )
        self.distinct(key, value)
        return list(value)

    def pin_table(self, key: str, names: tuple[str, ...], *, example: str) -> dict[str, Pin]:
        """A non-empty table of name -> GPIO pin, names from ``names``, pins distinct."""
        self._given(key, REQUIRED, example)
        value = self._options[key]
        if not isinstance(value, dict) or not value or not all(_is_pin(pin) for pin in value.values()):
            raise DriverOptionError(key, f"{value!r} is not a table of name = pin; e.g. {key} = {example}")
        unknown = sorted(set(value) - set(names))
        if unknown:
            raise DriverOptionError(key, f"no {', '.join(unknown)} here; the names are: {', '.join(names)}")
        self.distinct(key, list(value.values()))
        return dict(value)

    def tables(self, key: str, default: Any = REQUIRED, *, example: str) -> list[dict[str, Any]]:
        """A non-empty list of tables (TOML ``[[section.key]]`` or inline ``[{...}, {...}]``)."""
        if not self._given(key, default, example):
            return default
        value = self._options[key]
        if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
            raise DriverOptionError(key, f"{value!r} is not a list of tables; e.g. {key} = {example}")
        return [dict(v) for v in value]

    def distinct(self, key: str, values: list[Any]) -> None:
        """Refuse a value listed twice (two channels on one pin, two chips at one address)."""
        twice = sorted({str(v) for v in values if values.count(v) > 1})
        if twice:
            raise DriverOptionError(key, f"{', '.join(twice)} listed more than once; each must appear once")

    def finish(self) -> None:
        """Reject the keys no check read: a typo must not pass as a default."""
        unknown = sorted(set(self._options) - self._read)
        if unknown:
            known = ", ".join(sorted(self._read)) or "none"
            raise DriverOptionError(unknown[0], f"the {self.driver} driver has no such option; its options: {known}")


def _is_pin(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool) and value >= 0) or (
        isinstance(value, str) and bool(value)
    )
