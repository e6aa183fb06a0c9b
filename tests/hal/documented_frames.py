"""The example frames of docs/serial-protocol.md, read from the page: both sides of the line check them."""

from __future__ import annotations

from pathlib import Path

PAGE = Path(__file__).parents[2] / "docs" / "serial-protocol.md"


def documented_frames() -> list[tuple[bytes, bytes]]:
    """(payload, bytes on the wire) of every example under "## Examples"."""
    block = PAGE.read_text(encoding="utf-8").split("## Examples", 1)[1].split("```")[1]
    frames, payload = [], None
    for line in block.splitlines():
        if "payload " in line:
            payload = bytes.fromhex(line.split("payload ", 1)[1])
        elif "on the wire:" in line:
            assert payload is not None, f"{PAGE}: wire bytes without a payload: {line}"
            frames.append((payload, bytes.fromhex(line.split("on the wire:", 1)[1])))
            payload = None
    return frames
