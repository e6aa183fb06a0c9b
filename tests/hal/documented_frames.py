"""The example frames of docs/serial-protocol.md, read from the page: both sides of the line check them
(the firmware's under MicroPython too, so plain file reading)."""

PAGE = __file__.rsplit("/", 3)[0] + "/docs/serial-protocol.md"


def documented_frames() -> list:
    """(payload, bytes on the wire) of every example under "## Examples"."""
    with open(PAGE) as page:
        block = page.read().split("## Examples", 1)[1].split("```")[1]
    frames, payload = [], None
    for line in block.splitlines():
        if "payload " in line:
            payload = bytes.fromhex(line.split("payload ", 1)[1])
        elif "on the wire:" in line:
            assert payload is not None, PAGE + ": wire bytes without a payload: " + line
            frames.append((payload, bytes.fromhex(line.split("on the wire:", 1)[1])))
            payload = None
    return frames
