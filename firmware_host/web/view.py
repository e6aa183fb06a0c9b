"""The parts of the page that come from the daemon's snapshot, the same in the simulator and the mirror."""

from __future__ import annotations

from typing import Any

from firmware_host.words import FAULT_HEADS
from hal.base import SensorHealth

#: The parts of the page a read-only page (the mirror, a spectator's) leaves empty: no form, no hands.
READ_ONLY_VIEW: dict[str, Any] = {"games": [], "options": {}, "buttons": [], "dice_entry": False, "hand": [],
                                  "hand_hint": "", "clicks": {}, "tray": [], "noise": False}


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
        "remote": remote_words(snapshot),
        "sensor_errors": sensor_words(snapshot),
        "speech": snapshot["speech"],  # the moment the board's voice speaks of (static/speech.js)
    }


def sensor_words(snapshot: dict[str, Any]) -> str:
    """What went wrong on the way from the sensors since the start ("sensors: crc 2, lost 1"), "" if nothing."""
    counts = SensorHealth(errors=snapshot["sensors"]["errors"]).error_words()
    return f"sensors: {counts} since the start" if counts else ""


def remote_words(snapshot: dict[str, Any]) -> str:
    """A remote game in a line: "remote game friday on mqtt://host:1883 as bob (white: alice, black: bob):
    connected; alice online"; "" for a game on this board alone."""
    remote = snapshot["remote"]
    if remote is None:
        return ""
    link = "connected" if remote["connected"] else remote["problem"] or "connecting"
    others = "; ".join(f"{name} {'online' if online else 'offline'}" for name, online in
                       sorted(remote["online"].items()) if name != remote["name"])
    seats = ", ".join(f"{seat['name']}: {seat['holder'] or remote['name']}" for seat in snapshot["seats"])
    return (f"remote game {remote['game']} on {remote['broker']} as {remote['name']} ({seats}): {link}"
            + (f"; {others}" if others else "") + DICE_WORDS[remote["dice"]])


#: How a remote game's dice are rolled, in the remote line ("" for a game without dice).
DICE_WORDS = {"": "", "fair": "; fair dice: every seat rolls them together through the broker (no board's own dice "
                             "are read)", "by hand": "; dice by hand, as every seat agreed"}
