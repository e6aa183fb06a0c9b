"""Where a file can be written, found without writing it (the journal, calibrate's output, the mock's configuration)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from firmware_host.validation import cannot_write


@pytest.mark.parametrize(("path", "expected"), [
    ("/proc/nope/j.db", "/proc/nope/j.db cannot be made: no file can be written in /proc (No such file or directory)"),
    ("{tmp}", "{tmp} is a folder, not a file"),
    ("{tmp}/file/j.db", "{tmp}/file is a file, not a folder, so {tmp}/file/j.db cannot be made"),
])
def test_places_no_file_can_be_made(tmp_path: Path, path: str, expected: str) -> None:
    (tmp_path / "file").write_text("")
    assert cannot_write(Path(path.format(tmp=tmp_path)), service_folder=True) == expected.format(tmp=tmp_path)


def test_missing_folders_are_made_unless_refused(tmp_path: Path) -> None:
    assert cannot_write(tmp_path / "a" / "b" / "j.db") is None
    assert cannot_write(tmp_path / "a" / "j.db", make_folders=False) == f"the folder {tmp_path / 'a'} does not exist"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_journal_folder_the_service_will_make_passes_an_unwritable_folder_does_not(tmp_path: Path) -> None:
    locked = tmp_path / "lib"
    locked.mkdir(mode=0o555)
    assert cannot_write(locked / "gameboard" / "journal.sqlite3", service_folder=True) is None
    assert "may not write in" in cannot_write(locked / "gameboard" / "journal.sqlite3")
    assert "may not write in" in cannot_write(locked / "journal.sqlite3", service_folder=True)
