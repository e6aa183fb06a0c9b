"""Fixtures of the daemon tests: the toy game registered like any other, and a config writer."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from engine import registry

TOY_MODULE = "gameboard_daemon_tests_toy"


def _load_toy() -> ModuleType:
    """tests/daemon/toy.py under a fixed module name, so the registry can import it by name."""
    if TOY_MODULE not in sys.modules:
        spec = importlib.util.spec_from_file_location(TOY_MODULE, Path(__file__).with_name("toy.py"))
        module = importlib.util.module_from_spec(spec)
        sys.modules[TOY_MODULE] = module
        spec.loader.exec_module(module)
    return sys.modules[TOY_MODULE]


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The toy game's module, registered as the game "toy"."""
    module = _load_toy()
    monkeypatch.setitem(registry.GAMES, "toy", f"{TOY_MODULE}:ToyGame")
    return module


@pytest.fixture
def write_config(tmp_path: Path, toy: ModuleType) -> Callable[[str], Path]:
    """Write a configuration file's text to a temporary folder and return its path."""
    def write(text: str) -> Path:
        path = tmp_path / "gameboard.toml"
        path.write_text(text, encoding="utf-8")
        return path
    return write
