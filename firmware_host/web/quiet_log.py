"""The page's server log, one line per kind of trouble a minute, however often it happens.

A failure that repeats for every connection (out of file descriptors, a malformed
request, a connection that never finished its request) must not write a line each
time: a flood of a thousand connections once wrote 566,513 tracebacks (228 MB) in a
minute, into the journal of a Raspberry Pi.  Each kind of message, its first line as
written, passes once an interval; the next one to pass says how many were held back.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

#: The loggers of the page's server: uvicorn's, asyncio's (its event loop's errors), websockets', and ours.
PAGE_LOGGERS = ("uvicorn", "asyncio", "websockets", "firmware_host.web")
#: Kinds of message remembered at once.
MOST_KINDS = 256


@dataclass
class _Kind:
    passed_at: float
    held: int = 0


class Collapse(logging.Filter):
    """Passes each kind of record (logger, level, first line of its text) once per ``interval`` seconds."""

    def __init__(self, interval: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self.clock = clock
        self._kinds: dict[tuple[str, int, str], _Kind] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg).partition("\n")[0])
        now = self.clock()
        kind = self._kinds.get(key)
        if kind is not None and now - kind.passed_at < self.interval:
            kind.held += 1
            return False
        if kind is not None and kind.held:
            record.msg = f"{record.msg} ({kind.held} more like this in the last {now - kind.passed_at:.0f} s)"
        if len(self._kinds) >= MOST_KINDS:  # messages that vary in their first line: forget the quiet ones
            self._kinds = {key: kind for key, kind in self._kinds.items() if now - kind.passed_at < self.interval}
        self._kinds[key] = _Kind(passed_at=now)
        return True


def quiet_page_log() -> None:
    """Send the page's loggers to stderr through one collapsing handler (once per process)."""
    for name in PAGE_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(handler, _PageHandler) for handler in logger.handlers):
            logger.addHandler(_PageHandler())
            logger.propagate = False


class _PageHandler(logging.StreamHandler):
    """The stderr of the moment (as logging's last resort writes), each kind of record once a minute;
    the handlers of the page's loggers share one filter."""

    collapse = Collapse()

    def __init__(self) -> None:
        logging.Handler.__init__(self)  # not StreamHandler's: the stream is a property
        self.setFormatter(logging.Formatter("page %(levelname)s: %(message)s"))
        self.addFilter(self.collapse)

    @property
    def stream(self):  # type: ignore[override]
        return sys.stderr
