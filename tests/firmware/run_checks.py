"""The firmware's checks under MicroPython: ``micropython tests/firmware/run_checks.py [--firmware DIR] [NAME...]``
(DIR: another firmware tree than the repository's ``firmware``).

Prints one JSON line a check, {"check": name, "outcome": "passed" | "failed" | "skipped",
"detail": the traceback or the reason}, then {"done": count}; test_firmware_checks.py reads them.
"""

import io
import json
import os
import sys

HERE = (__file__ if __file__.startswith("/") else os.getcwd() + "/" + __file__).rsplit("/", 1)[0]
ROOT = HERE.rsplit("/", 2)[0]
arguments = sys.argv[1:]
firmware = ROOT + "/firmware"
if arguments[:1] == ["--firmware"]:
    firmware, arguments = arguments[1], arguments[2:]
sys.path[:0] = [firmware, ROOT + "/hal/pico_offchip", ROOT]

import pico_clock  # noqa: E402


def report(name: str, outcome: str, detail: str = "") -> None:
    print(json.dumps({"check": name, "outcome": outcome, "detail": detail}))


def traceback_of(exc: BaseException) -> str:
    text = io.StringIO()
    sys.print_exception(exc, text)  # MicroPython's traceback.print_exc
    return text.getvalue()


try:
    from tests.firmware.checks import CHECKS, Skip
except Exception as exc:  # noqa: BLE001  (a module MicroPython refuses is the finding)
    report("import tests.firmware.checks", "failed", traceback_of(exc))
    sys.exit(1)

wanted = arguments
ran = 0
for function in CHECKS:
    name = function.__name__
    if wanted and name not in wanted:
        continue
    try:
        function()
    except Skip as exc:
        report(name, "skipped", str(exc))
    except Exception as exc:  # noqa: BLE001  (every failure is reported, and the next check runs)
        report(name, "failed", traceback_of(exc))
    else:
        report(name, "passed")
    finally:
        pico_clock.start_at(pico_clock.ticks_ms())  # a check that stopped the clock leaves it running
    ran += 1
print(json.dumps({"done": ran}))
