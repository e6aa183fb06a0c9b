"""The import arrows run one way: every module's imports, read with ``ast``, keep to the layers.

engine/ is at the bottom; wiring/ stands on it; hal/ on both; firmware_host/ on all three, its
command line (firmware_host/commands/) on top, where no other module of the board's reaches but the
dispatcher; bench/ and tests/ use all of those and never each other.  Every import counts for the
arrows: at the top, inside a function, under ``TYPE_CHECKING``.  Cycles are counted over the imports
made as a module loads (at the top and under ``TYPE_CHECKING``): two modules that name each other there
cannot be read, typed or tested apart, even when the cycle is hidden from the interpreter.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "wiring", "hal", "firmware_host", "bench", "tests")
#: The layers of the board's software each must not import.
FORBIDDEN = {
    "engine": ("wiring", "hal", "firmware_host"),  # the rules know no hardware
    "wiring": ("hal", "firmware_host"),  # the maps are data, below the drivers that read them
    "hal": ("firmware_host",),  # drivers know nothing of the daemon
}
#: The layers on top: each is imported by itself alone (benchmarks and tests share only what is below them).
TOP = ("bench", "tests")
COMMANDS = "firmware_host.commands"
#: The layers whose modules must leave the command line to it (bench/ and tests/ may drive it).
BELOW_COMMANDS = ("engine", "wiring", "hal", "firmware_host")
#: The one module outside the command line that imports it: the dispatcher.
DISPATCHER = "firmware_host.cli"


@dataclass(frozen=True)
class Import:
    """One import statement's target among our modules."""

    importer: str
    line: int
    target: str
    at_load: bool  # made as the importer loads (at the top, under TYPE_CHECKING), not inside a function

    def __str__(self) -> str:
        path = modules()[self.importer].relative_to(ROOT) if self.importer in modules() else self.importer
        return f"{path}:{self.line}: {self.importer} -> {self.target}"


@cache
def modules() -> dict[str, Path]:
    """Every module of ours by its dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def nearest(name: str, known: Collection[str]) -> str | None:
    """The module in ``known`` that importing ``name`` loads last: itself, or its nearest package there."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def import_statements(body: list[ast.stmt], in_function: bool = False) -> Iterator[tuple[ast.stmt, bool]]:
    """Each import among ``body`` and the statements nested in it, and whether it is inside a function."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, in_function
            continue
        inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            for block in getattr(node, field, ()):
                # An except clause or a match case holds statements; every other block is one.
                yield from import_statements(block.body if hasattr(block, "pattern") or
                                             isinstance(block, ast.ExceptHandler) else [block], inner)


def imports_of(module: str, source: str | bytes, is_package: bool, known: Collection[str]) -> Iterator[Import]:
    """The imports in ``source`` (of ``module``) that reach another module in ``known``, each with its line."""
    package = module if is_package else module.rpartition(".")[0]
    for node, in_function in import_statements(ast.parse(source).body):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            assert isinstance(node, ast.ImportFrom)
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # ``from package import module`` loads that module; ``from module import name``, the module.
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        for target in dict.fromkeys(filter(None, (nearest(name, known) for name in names))):
            if target != module:
                yield Import(module, node.lineno, target, not in_function)


@cache
def every_import() -> tuple[Import, ...]:
    return tuple(found for module, path in modules().items()
                 for found in imports_of(module, path.read_bytes(), path.name == "__init__.py", modules()))


def broken_arrow(found: Import) -> str | None:
    """Why ``found`` goes against the layers, or None when it does not."""
    below, above = found.importer.partition(".")[0], found.target.partition(".")[0]
    if above in FORBIDDEN.get(below, ()) or (above in TOP and above != below):
        return f"{below} must not import {above}: what both need goes below them"
    commands = found.target == COMMANDS or found.target.startswith(COMMANDS + ".")
    inside = found.importer == COMMANDS or found.importer.startswith(COMMANDS + ".")
    if commands and not inside and below in BELOW_COMMANDS and found.importer != DISPATCHER:
        return f"only the command line and {DISPATCHER} import {COMMANDS}: move what both need out of it"
    return None


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    found = []
    for root in sorted(edges):
        if root in index:
            continue
        index[root] = lowest[root] = len(index)
        stack.append(root)
        work = [(root, iter(sorted(edges[root])))]
        while work:
            module, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = lowest[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(sorted(edges.get(target, ())))))
                    break
                if target in stack:
                    lowest[module] = min(lowest[module], index[target])
            else:
                work.pop()
                if work:
                    lowest[work[-1][0]] = min(lowest[work[-1][0]], lowest[module])
                if lowest[module] == index[module]:
                    component = stack[stack.index(module):]
                    del stack[stack.index(module):]
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_reader_finds_each_kind_of_import_with_its_line() -> None:
    source = """from __future__ import annotations
import engine.games.overpass
from typing import TYPE_CHECKING
from . import model
from .model import Wiring
if TYPE_CHECKING:
    from hal.base import LedSink
try:
    import wiring.files
except ImportError:
    from .files import save_wiring
class Later:
    def method(self):
        from firmware_host import commands
"""
    known = {"engine", "engine.games", "engine.games.overpass", "wiring", "wiring.model", "wiring.files",
             "wiring.check", "hal.base", "firmware_host", "firmware_host.commands"}
    found = {(each.line, each.target, each.at_load) for each in imports_of("wiring.check", source, False, known)}
    assert found == {(2, "engine.games.overpass", True), (4, "wiring.model", True), (5, "wiring.model", True),
                     (7, "hal.base", True), (9, "wiring.files", True), (11, "wiring.files", True),
                     (14, "firmware_host.commands", False)}


def test_each_rule_names_the_arrow_it_breaks() -> None:
    def why(importer: str, target: str) -> str | None:
        return broken_arrow(Import(importer, 1, target, True))

    assert why("wiring.files", "hal.base") == "wiring must not import hal: what both need goes below them"
    assert why("engine.core", "firmware_host.daemon").startswith("engine must not import firmware_host")
    assert why("bench.search", "tests.engine.positions").startswith("bench must not import tests")
    assert why("engine.ai.speed", "bench.search").startswith("engine must not import bench")
    assert why("firmware_host.sim", "tests.sim.clicks").startswith("firmware_host must not import tests")
    assert why("tests.engine.test_squareoff_openspiel", "bench.morris").startswith("tests must not import bench")
    assert why("firmware_host.sim", "firmware_host.commands.games").startswith("only the command line and")
    assert [why("firmware_host.cli", "firmware_host.commands.run"), why("tests.sim.test_web", "firmware_host.commands"),
            why("firmware_host.commands.leds", "firmware_host.commands.calibrate"), why("hal.mock", "wiring.model")] \
        == [None] * 4
    assert cycles({"a": {"b"}, "b": {"c", "d"}, "c": {"a"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}) \
        == [["d", "e"], ["a", "b", "c"]]


def test_every_import_keeps_to_the_layers_and_no_modules_import_each_other_in_a_cycle() -> None:
    """One test for both, so the modules are parsed once (about 0.6 s of CPU, most of this test's time)."""
    found = every_import()
    broken = [f"{each}: {why}" for each in found if (why := broken_arrow(each))]
    edges: dict[str, set[str]] = {module: set() for module in modules()}
    first: dict[tuple[str, str], Import] = {}
    for each in found:
        if each.at_load:
            edges[each.importer].add(each.target)
            first.setdefault((each.importer, each.target), each)
    components = cycles(edges)
    looped = [", ".join(component) + ":\n" + "\n".join(
                  f"  {each}" for (importer, target), each in sorted(first.items())
                  if importer in component and target in component)
              for component in components]
    assert not (broken or looped), "\n".join(
        (["imports against the layers:", *broken] if broken else [])
        + (["modules that import each other in a cycle:", *looped] if looped else []))
