"""The loop's pace under systemd: a step at the scan rate, the watchdog fed, the status line told."""

from __future__ import annotations

import time
from collections.abc import Callable

from firmware_host.notify import Notifier


def paced(step: Callable[[], None], status_text: Callable[[], str], notifier: Notifier, scan_hz: float,
          stopped: Callable[[], bool]) -> None:
    """Call ``step`` at ``scan_hz`` until ``stopped()``; the status line is sent when it changes, at most once a
    second (it would flood the log at the scan rate).  A late step is not caught up: the next one starts then."""
    period = 1.0 / scan_hz
    feed_every = notifier.watchdog_interval
    fed = status_sent = time.monotonic()
    status = ""
    deadline = time.monotonic()
    while not stopped():
        step()
        now = time.monotonic()
        if feed_every is not None and now - fed >= feed_every:
            notifier.watchdog()
            fed = now
        if now - status_sent >= 1.0 and (text := status_text()) != status:
            notifier.status(text)
            status, status_sent = text, now
        deadline = max(deadline + period, now)
        time.sleep(max(0.0, deadline - time.monotonic()))
