"""Fixtures for the engine's tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def clock_at_every_position(monkeypatch):
    """The removal puzzles' search looks at the clock at every position, not every few thousand: a hint given
    no time then runs out of it, though a way on may be only a short dive away."""
    monkeypatch.setattr("engine.solvers.removal.CHECK_EVERY", 1)
