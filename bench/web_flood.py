"""The page under a flood of half-open connections; prints figures, asserts nothing.

    .venv/bin/python bench/web_flood.py [--command run sim] [--connections 1030] [--nofile 256]
                                        [--seconds 15] [--sustain]

For each command (``gameboard run --mock squareoff --web`` and ``gameboard sim squareoff``,
both on ``--listen 0.0.0.0``) started with ``RLIMIT_NOFILE`` lowered to ``--nofile``, this
opens ``--connections`` connections that send ``GET / HTTP/1.1`` and nothing more (with
``--sustain``, each one the server closes is opened again at once), and meanwhile asks for
the page once a second as a visitor with the token would.  Reported:

- the sockets the server holds (from /proc/PID/fd), at most and at the end;
- how long the visitor waited for its page (or that it got none);
- how many of the half-open connections the server closed, and when the last one was;
- the server's CPU time over the flood (a Raspberry Pi 4 takes about five times as long);
- the lines and bytes the server wrote to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

COMMAND = str(Path(sys.executable).with_name("gameboard"))
HALF_REQUEST = b"GET / HTTP/1.1\r\n"


@dataclass
class Figures:
    held: list[int] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)
    failures: int = 0
    closed_at: list[float] = field(default_factory=list)
    reopened: int = 0
    cpu: float = 0.0
    seconds: float = 0.0


def server_sockets(pid: int) -> int:
    """The sockets process ``pid`` holds open (its listener among them)."""
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            count += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
        except OSError:
            pass  # closed meanwhile
    return count


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` and its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(command: str, nofile: int, folder: Path) -> tuple[subprocess.Popen, int, str, Path]:
    """The server process, its port, its token and its stderr's file, once it prints its address."""
    def lowered() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    args = {"run": ["run", "--mock", "squareoff", "--web"],
            "sim": ["sim", "squareoff", "--journal", str(folder / "sim.sqlite3")]}[command]
    log = folder / f"{command}.log"
    with socket.socket() as probe:  # a port free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with log.open("w") as stderr:
        process = subprocess.Popen([COMMAND, *args, "--listen", "0.0.0.0", "--port", str(port)], stdout=subprocess.PIPE,
                                   stderr=stderr, text=True, preexec_fn=lowered,
                                   env=dict(os.environ, XDG_STATE_HOME=str(folder)))
    while "gameboard: open" not in (line := process.stdout.readline()):
        if not line:
            raise SystemExit(f"{command} stopped: {log.read_text()}")
    return process, port, re.search(r"token=(\S+)", line).group(1), log


async def half_open(port: int, figures: Figures, started: float, sustain: bool) -> None:
    """One connection that never finishes its request, until the server closes it (then again, if sustained)."""
    while True:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(HALF_REQUEST)
            await reader.read()  # b"" once the server closes it
            writer.close()
        except OSError:
            pass
        figures.closed_at.append(time.monotonic() - started)
        if not sustain:
            return
        figures.reopened += 1


def visit(port: int, token: str, figures: Figures) -> None:
    """Ask for the page as a visitor would, on a thread of its own (not behind the flood's tasks); its wait,
    or a failure after 60 s."""
    began = time.monotonic()
    visitor = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        visitor.request("GET", f"/?token={token}")
        if visitor.getresponse().status != 200:
            raise OSError("not served")
        figures.waits.append(time.monotonic() - began)
    except OSError:
        figures.failures += 1
    finally:
        visitor.close()


async def flood(process: subprocess.Popen, port: int, token: str, connections: int, seconds: float,
                sustain: bool) -> Figures:
    figures = Figures()
    started, cpu = time.monotonic(), cpu_seconds(process.pid)
    attackers = [asyncio.create_task(half_open(port, figures, started, sustain)) for _ in range(connections)]
    visitors = []
    while time.monotonic() - started < seconds:
        visitors.append(asyncio.create_task(asyncio.to_thread(visit, port, token, figures)))
        for _ in range(10):
            figures.held.append(server_sockets(process.pid))
            await asyncio.sleep(0.1)
    await asyncio.gather(*visitors)
    for attacker in attackers:
        attacker.cancel()
    await asyncio.gather(*attackers, return_exceptions=True)
    figures.held.append(server_sockets(process.pid))
    figures.cpu, figures.seconds = cpu_seconds(process.pid) - cpu, time.monotonic() - started
    return figures


def report(command: str, connections: int, nofile: int, figures: Figures, log: Path, sustain: bool) -> None:
    text = log.read_text(errors="replace")
    waits = sorted(figures.waits)
    print(f"{command}: {connections} half-open connections{' (sustained)' if sustain else ''}, "
          f"RLIMIT_NOFILE {nofile}")
    print(f"  sockets the server held: at most {max(figures.held)}, at the end {figures.held[-1]}")
    if waits:
        print(f"  a visitor's page: {len(waits)} of {len(waits) + figures.failures} served, wait median "
              f"{statistics.median(waits):.3f} s, worst {waits[-1]:.3f} s")
    else:
        print(f"  a visitor's page: none of {figures.failures} served within 60 s")
    closed = sorted(figures.closed_at)
    if sustain:
        print(f"  half-open connections closed by the server: {len(closed)} ({figures.reopened} reopened)")
    else:
        last = f", the last after {closed[-1]:.1f} s" if len(closed) == connections else ""
        print(f"  half-open connections closed by the server: {len(closed)} of {connections}{last}")
    print(f"  the server's CPU: {figures.cpu:.1f} s in {figures.seconds:.0f} s")
    print(f"  stderr: {len(text.splitlines())} lines, {len(text.encode())} bytes")
    for line in [line for line in text.splitlines() if not line.startswith(("gameboard", "black"))][:4]:
        print(f"    {line[:150]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--command", nargs="+", choices=["run", "sim"], default=["run", "sim"])
    parser.add_argument("--connections", type=int, default=1030)
    parser.add_argument("--nofile", type=int, default=256, help="the server's RLIMIT_NOFILE")
    parser.add_argument("--seconds", type=float, default=15.0, help="how long the flood lasts")
    parser.add_argument("--sustain", action="store_true", help="open again each connection the server closes")
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # this side holds every connection open
    for command in args.command:
        with tempfile.TemporaryDirectory() as folder:
            process, port, token, log = start(command, args.nofile, Path(folder))
            try:
                figures = asyncio.run(flood(process, port, token, args.connections, args.seconds, args.sustain))
            finally:
                process.terminate()
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            report(command, args.connections, args.nofile, figures, log, args.sustain)


if __name__ == "__main__":
    main()
