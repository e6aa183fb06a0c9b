"""Fixtures for the engine's tests."""

from __future__ import annotations

import itertools

import pytest


@pytest.fixture
def clock_at_every_position(monkeypatch):
    """The removal puzzles' search looks at the clock at every position, not every few thousand: a hint given
    no time then runs out of it, though a way on may be only a short dive away."""
    monkeypatch.setattr("engine.solvers.removal.CHECK_EVERY", 1)


@pytest.fixture
def a_second_per_position(monkeypatch, clock_at_every_position):
    """The search's clock moves on a second each time it is read, once a position: a time limit of N seconds
    is about N positions, the same on every machine however loaded."""
    ticks = itertools.count()
    monkeypatch.setattr("engine.solvers.CLOCK", lambda: float(next(ticks)))
