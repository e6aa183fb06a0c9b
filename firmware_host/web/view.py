"""The parts of the page that come from the daemon's snapshot, the same in the simulator and the mirror."""

from __future__ import annotations

from typing import Any

from firmware_host.daemon import FAULT_HEADS


def snapshot_view(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The status line, dice, moves, LED legend and faults of a daemon's snapshot, as the page shows them."""
    return {
        "dice": snapshot["dice"],
        "status": snapshot["status_text"] + (f" - {snapshot['note']}" if snapshot["note"] else ""),
        "log": snapshot["history"],
        "legend": snapshot["legend"],
        # The banner: what is wrong, in the words of the status line, as long as it lasts.
        "faults": [{"kind": kind, "head": FAULT_HEADS[kind], "problem": problem}
                   for kind, problem in snapshot["faults"].items()],
    }
