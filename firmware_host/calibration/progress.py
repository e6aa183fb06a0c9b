"""What a calibration has found so far, kept on disk after every step.

Ctrl-C, a crash or a power cut loses at most the step under way: rerunning
``gameboard calibrate`` reads this file and continues.  It sits next to the wiring
file being made and is removed once that file is written.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from engine.errors import GameboardError
from wiring.files import write_atomically

#: A channel's readings for one class, or for the empty board: [median, lowest, highest].
Sample = list[float]


class ProgressFileError(GameboardError, ValueError):
    """A progress file that does not belong to this calibration; the message says what to do."""


@dataclass
class Progress:
    """The calibration's findings, JSON-ready.  Channel numbers are kept as strings (JSON keys)."""

    board: str
    sensing: str
    channels: int
    strips: list[int]
    classes: list[str]
    empty: dict[str, Sample] = field(default_factory=dict)
    excluded: list[int] = field(default_factory=list)
    mapped: dict[str, int] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    leds: dict[str, list[list[int]]] = field(default_factory=dict)
    leds_done: int = 0
    spare_leds: list[list[int]] = field(default_factory=list)
    strips_checked: list[int] = field(default_factory=list)
    readings: dict[str, dict[str, Sample]] = field(default_factory=dict)
    #: The locations a ``--redo`` run asks for, in the board's order; none: the whole board.
    redo: list[str] = field(default_factory=list)
    #: Channels whose calibration comes unchanged from the file being replaced (a redo of a few locations).
    kept: list[int] = field(default_factory=list)
    class_skipped: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def used_channels(self) -> dict[int, str]:
        return {channel: location for location, channel in self.mapped.items()}

    def note(self, text: str) -> None:
        """Keep a finding for the final report (once)."""
        if text not in self.notes:
            self.notes.append(text)


def progress_path(wiring_path: Path) -> Path:
    return wiring_path.with_name(wiring_path.name + ".progress.json")


def kept_note(path: Path) -> str:
    """What a stopped calibration says: where its progress waits, or that there is none yet."""
    if path.exists():
        return f"progress kept in {path}: run the same command to continue"
    return "nothing was found yet, so nothing is kept: run the same command to start again"


def load_progress(path: Path, fresh: Progress) -> Progress:
    """The progress saved at ``path``, or ``fresh`` when there is none.

    Saved progress for another board or other hardware would map the wrong
    channels, and progress of other ``--redo`` locations would leave this run's unasked:
    both are refused with the way out.
    """
    if not path.exists():
        return fresh
    try:
        saved = Progress(**json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError) as exc:
        raise ProgressFileError(f"{path}: cannot resume from this progress file ({exc});"
                                " delete it to start over") from None
    for key in ("board", "sensing", "channels", "strips", "classes"):
        if getattr(saved, key) != getattr(fresh, key):
            raise ProgressFileError(
                f"{path}: saved progress is for {key} = {getattr(saved, key)!r}, this run has {getattr(fresh, key)!r};"
                " delete the file to start over, or run with the same board and hardware")
    if saved.redo != fresh.redo:
        raise ProgressFileError(
            f"{path}: a calibration {_of(saved.redo)} was stopped here, and this one is {_of(fresh.redo)}: carry that"
            f" one on by running it again ({_option(saved.redo)}), or delete the file to start this one")
    return saved


def _of(redo: list[str]) -> str:
    return f"of {', '.join(redo)} (--redo)" if redo else "of the whole board"


def _option(redo: list[str]) -> str:
    return f"--redo {','.join(redo)}" if redo else "without --redo"


def save_progress(path: Path, progress: Progress) -> None:
    write_atomically(path, json.dumps(asdict(progress), indent=1) + "\n")
