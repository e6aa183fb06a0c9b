"""Fixtures of the remote-play tests: a real Mosquitto (skipped, saying why, where it is not installed)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

HERE = Path(__file__).parent


def helper(path: Path) -> ModuleType:
    """A test helper module by path, under a fixed name (tests import no siblings under importlib mode)."""
    name = f"gameboard_remote_tests_{path.parent.name}_{path.stem}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


broker = helper(HERE / "broker.py")


@pytest.fixture
def make_mosquitto(tmp_path: Path) -> Iterator[Callable[..., object]]:
    """Start a broker with the options of ``broker.Mosquitto``; each is stopped at the end of the test."""
    if broker.find_mosquitto() is None:
        pytest.skip("mosquitto is not installed: apt-get install mosquitto")
    started = []

    def make(**options: object) -> object:
        folder = tmp_path / f"broker{len(started)}"
        folder.mkdir()
        started.append(broker.Mosquitto(folder, **options).start())
        return started[-1]

    yield make
    for running in started:
        running.kill()


@pytest.fixture
def mosquitto(make_mosquitto: Callable[..., object]) -> object:
    """A broker on 127.0.0.1, anonymous, keeping nothing across a restart."""
    return make_mosquitto()


@pytest.fixture
def cable(mosquitto: object) -> Iterator[object]:
    """A cable to ``mosquitto`` that can be cut."""
    line = broker.Cable(mosquitto.port)
    yield line
    line.close()


@pytest.fixture
def broker_tools() -> ModuleType:
    """tests/remote/broker.py: password files, certificates."""
    return broker


@pytest.fixture
def tables() -> ModuleType:
    return helper(HERE.parent / "daemon" / "tables.py")


@pytest.fixture
def hands() -> ModuleType:
    return helper(HERE.parent / "daemon" / "hands.py")


@pytest.fixture
def hostile() -> ModuleType:
    """tests/remote/hostile.py: what a hostile peer sends, and a game of three participants to send it to."""
    return helper(HERE / "hostile.py")


@pytest.fixture
def spy(mosquitto: object) -> Iterator[object]:
    """A bare client on ``mosquitto`` hearing everything of the game "g1" (tests/remote/peers.py)."""
    from tests.remote.peers import Spy

    client = Spy(mosquitto.port)
    yield client
    client.close()
