"""Fixtures of the daemon tests: the toy game registered like any other, and a config writer."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from engine import registry

HELPERS = Path(__file__).parent


def helper(name: str) -> ModuleType:
    """tests/daemon/NAME.py under a fixed module name (tests import no siblings under importlib mode)."""
    module_name = f"gameboard_daemon_tests_{name}"
    if module_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(module_name, HELPERS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The toy game's module, registered as the game "toy"."""
    module = helper("toy")
    monkeypatch.setitem(registry.GAMES, "toy", f"{module.__name__}:ToyGame")
    return module


@pytest.fixture
def hands() -> ModuleType:
    """The person at the mock board (tests/daemon/hands.py)."""
    return helper("hands")


@pytest.fixture
def tables() -> ModuleType:
    """Mock boards with a game and a daemon on them (tests/daemon/tables.py)."""
    return helper("tables")


@pytest.fixture
def write_config(tmp_path: Path, toy: ModuleType) -> Callable[[str], Path]:
    """Write a configuration file's text to a temporary folder and return its path."""
    def write(text: str) -> Path:
        path = tmp_path / "gameboard.toml"
        path.write_text(text, encoding="utf-8")
        return path
    return write
