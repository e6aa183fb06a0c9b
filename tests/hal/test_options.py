"""Driver options read key by key: each wrong value names its key and the fix."""

from __future__ import annotations

import math

import pytest

from hal.base import DriverOptionError
from hal.options import DriverOptions


def read(**options: object) -> DriverOptions:
    return DriverOptions("test", options)


@pytest.mark.parametrize(
    ("check", "message"),
    [
        (lambda r: r.integer("n", low=1, high=4), "the test driver needs this option, e.g. n = 1"),
        (lambda r: read(n=True).integer("n", low=0, high=4), "True is not a whole number from 0 to 4"),
        (lambda r: read(n=2.0).integer("n", low=0, high=4), "2.0 is not a whole number"),
        (lambda r: read(x=math.nan).number("x", low=0, high=1), "nan is not a number from 0 to 1"),
        (lambda r: read(on="yes").boolean("on"), "'yes' is not true or false; write on = true or on = false"),
        (lambda r: read(mode="x").text("mode", choices=("a", "b")), "'x' is not one of 'a', 'b'"),
        (lambda r: read(pin=-3).pin("pin"), "-3 is not a GPIO pin"),
        (lambda r: read(pins="17").pins("pins"), "'17' is not a list of GPIO pins"),
        (lambda r: read(ids=[1, 1, 2, 2]).integers("ids", low=0, high=9, example="[1]"), "1, 2 listed more than once"),
        (lambda r: read(strips={"length": 3}).tables("strips", example="[{ length = 3 }]"), "is not a list of tables"),
    ],
)
def test_a_wrong_value_names_the_key_and_the_fix(check, message):
    with pytest.raises(DriverOptionError, match=message):
        check(read())


def test_defaults_are_not_checked_and_given_values_are_returned():
    options = read(n=3, x=0.5, on=False, pins=["GPIO5", 6])
    assert options.integer("n", low=1, high=4) == 3
    assert options.number("x", low=0, high=1) == 0.5
    assert options.boolean("on", True) is False
    assert options.pins("pins") == ["GPIO5", 6]
    assert options.text("port", None) is None
    options.finish()


def test_finish_rejects_a_key_nothing_read():
    options = read(length=3, lenght=4)
    options.integer("length", low=1, high=9)
    with pytest.raises(DriverOptionError, match="lenght: the test driver has no such option; its options: length"):
        options.finish()
