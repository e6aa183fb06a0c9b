"""gameboard.service run by real systemd, in a container booted from this machine's own system.

``BootedUnit`` starts systemd-nspawn over this machine's root (a read-only bind under a throwaway
overlay: nothing is written to the host) and boots systemd into a target that starts the unit: the
unit file and the drop-ins given, installed unchanged in /etc/systemd/system, so the container runs
exactly their sandbox.  Everything else comes from the unit's own lines: its ExecStart's program is
where this checkout is installed (a venv as the README's steps make, at /opt/gameboard), its
``--config`` is where the configuration given is put, and its User=, Group= and
SupplementaryGroups= are created by systemd-sysusers at boot.  journald forwards every log line to
the container's console, which the test reads.

The service's user cannot see /root or /home (``ProtectHome=yes``): the checkout and this venv's
packages are bound in under /srv, and the venv's interpreter is this one if it lives elsewhere, else
Debian's of the same version.  ``unavailable()`` says why a machine cannot boot the container (no
systemd-nspawn, not root, no such interpreter), ``booted()`` whether systemd came up in it (a sandbox
that forbids namespaces stops nspawn first); the tests skip with those words.
"""

from __future__ import annotations

import ctypes
import grp
import itertools
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from firmware_host.service_unit import ServiceUnit

PROJECT = Path(__file__).parents[2]
#: Where the container sees this checkout and this venv's packages.
CHECKOUT, PACKAGES = Path("/srv/gameboard-checkout"), Path("/srv/gameboard-packages")
#: Folders ProtectHome= hides from the service.
HIDDEN = (Path("/root"), Path("/home"), Path("/run/user"))
#: A console line journald forwards: "[  541.664321] gameboard[35]: black (computer) to move".
LOG_LINE = re.compile(r"^\[\s*[\d.]+\] (?P<ident>[^\[:\s]+)(?:\[\d+\])?: (?P<text>.*)$")
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
#: Seconds for systemd to start in the container: a guard against a hang, not a speed check.
BOOT_TIMEOUT_S = 60.0
PR_SET_PDEATHSIG = 1  # prctl(2)
_names = itertools.count()


def interpreter() -> Path | None:
    """A Python of this version outside the folders the service cannot see."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (Path(sys.base_prefix) / "bin" / version, Path("/usr/bin") / version):
        if candidate.exists() and not any(candidate.resolve().is_relative_to(folder) for folder in HIDDEN):
            return candidate
    return None


def unavailable() -> str | None:
    """Why this machine cannot boot the container, or None."""
    if sys.platform != "linux":
        return "systemd runs on Linux only"
    if shutil.which("systemd-nspawn") is None:
        return "systemd-nspawn is not installed (apt-get install systemd-container)"
    if not Path("/usr/lib/systemd/systemd").exists() and not Path("/lib/systemd/systemd").exists():
        return "systemd is not installed on this machine, whose system the container boots (apt-get install systemd)"
    if os.geteuid() != 0:
        return "booting a container with systemd-nspawn needs root"
    if interpreter() is None:
        return (f"no python{sys.version_info.major}.{sys.version_info.minor} outside /root and /home, which the "
                "unit's ProtectHome= hides from the service")
    return None


class BootedUnit:
    """The unit and its drop-ins (in order) under systemd, with ``config`` as its configuration and
    ``devices`` (host path: path in the container) bound in; a context manager."""

    def __init__(self, folder: Path, unit: Path, drop_ins: Iterable[Path] = (), *, config: str = "",
                 devices: dict[Path, str] | None = None) -> None:
        self.folder = folder
        self.unit = unit
        self.drop_ins = tuple(drop_ins)
        self.config = config
        self.devices = devices or {}
        self.settings = ServiceUnit.read(unit, *self.drop_ins)
        self.console: list[str] = []
        self._changed = threading.Condition()
        self._process: subprocess.Popen[str] | None = None

    # -- what the test reads ----------------------------------------------------------------

    def log(self, ident: str = "gameboard") -> list[str]:
        """The lines logged by ``ident`` (the service's program, "systemd" for systemd's own) so far."""
        with self._changed:
            return [found["text"] for found in map(LOG_LINE.match, self.console) if found and found["ident"] == ident]

    def journal(self) -> list[str]:
        """The console's log lines ("systemd[1]: ...", "gameboard[35]: ..."), without systemd's boot progress."""
        with self._changed:
            return [line for line in self.console if LOG_LINE.match(line)]

    def wait_for(self, pattern: str, ident: str = "gameboard", timeout: float = 30.0,
                 unless: str | None = None) -> re.Match[str]:
        """The first line of ``ident`` matching ``pattern``; fails with the log when none comes, or at once when
        a line matches ``unless``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                lines = self.log(ident)
                found = next((match for match in map(re.compile(pattern).search, lines) if match), None)
                if found is not None:
                    return found
                ended = self._process is None or self._process.poll() is not None
                if unless is not None and any(re.search(unless, line) for line in lines):
                    deadline = min(deadline, time.monotonic() + 1.0)  # the rest of a traceback, then fail
                assert not ended and time.monotonic() < deadline, (
                    f"no {ident} line matches {pattern!r}; the container's log:\n" + "\n".join(self.journal()[-60:]))
                self._changed.wait(0.2)

    def processes(self) -> dict[int, str]:
        """The container's processes: each one's pid on this machine and its command line."""
        assert self._process is not None
        parents = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                parents[int(stat.parent.name)] = int(stat.read_text().rpartition(")")[2].split()[1])
            except (OSError, ValueError):
                continue  # ended meanwhile
        found: dict[int, str] = {}
        inside = {self._process.pid}
        while inside:
            inside = {pid for pid, parent in parents.items() if parent in inside}
            for pid in inside:
                found[pid] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        return found

    # -- the container ----------------------------------------------------------------------

    def __enter__(self) -> BootedUnit:
        root = self.folder / "root"
        root.mkdir()
        binds = {**self._install(), **self._files()}
        name = f"gameboard-test-{os.getpid()}-{next(_names)}"
        nspawn = ["systemd-nspawn", "--quiet", f"--directory={root}", "--volatile=overlay", "--register=no",
                  "--keep-unit", "--link-journal=no", f"--machine={name}",
                  *(f"--bind-ro={source}:{target}" for source, target in binds.items()),
                  *(f"--bind={source}:{target}" for source, target in self.devices.items()),
                  # systemd enforces IPAddressDeny= and DevicePolicy= with cgroup BPF programs: bpf() and
                  # CAP_BPF, which nspawn withholds by default, and cgroup v2 in the container (the variable,
                  # on a host that still mounts v1 beside it).
                  "--system-call-filter=bpf", "--capability=CAP_BPF",
                  "--boot", "--", "--unit=gameboard-test.target"]
        # This machine's root, bound read-only in a mount namespace of our own (it goes with it), with a
        # private /run/systemd/nspawn: nspawn's leftovers there vanish with the namespace too.
        script = ('mount --bind / "$0" && mount -o remount,bind,ro "$0" && mkdir -p /run/systemd/nspawn && '
                  'mount -t tmpfs tmpfs /run/systemd/nspawn && exec "$@"')
        self._process = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "sh", "-c", script,
                                          str(root), *nspawn], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT, text=True, errors="replace",
                                         env={**os.environ, "SYSTEMD_NSPAWN_UNIFIED_HIERARCHY": "1"},
                                         preexec_fn=_end_with_parent)
        threading.Thread(target=self._read, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        process = self._process
        if process is None:
            return
        process.send_signal(signal.SIGTERM)  # nspawn powers the container off: systemd stops the service
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def booted(self) -> bool:
        """Whether systemd started in the container (else nspawn could not boot it: see the console)."""
        deadline = time.monotonic() + BOOT_TIMEOUT_S
        with self._changed:
            while not any("running in system mode" in line for line in self.console):
                if self._process is None or self._process.poll() is not None or time.monotonic() > deadline:
                    return False
                self._changed.wait(0.2)
            return True

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            with self._changed:
                self.console.append(ANSI.sub("", line.rstrip("\n")))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def _install(self) -> dict[Path, str]:
        """A venv at the folder of ExecStart's program, as the README's steps make it, running this checkout with
        this venv's packages: bound in under /srv, where the unit's ProtectHome= cannot hide them."""
        program = Path(self.settings.last("ExecStart").split()[0])
        venv = self.folder / "venv"
        python = interpreter()
        assert python is not None, unavailable()
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        (venv / "bin").mkdir(parents=True)
        (venv / "bin" / "python").symlink_to(python)
        (venv / "pyvenv.cfg").write_text(f"home = {python.parent}\ninclude-system-site-packages = false\n")
        site = venv / "lib" / version / "site-packages"
        site.mkdir(parents=True)
        (site / "gameboard-checkout.pth").write_text(f"{CHECKOUT}\nimport site; site.addsitedir({str(PACKAGES)!r})\n")
        script = venv / "bin" / program.name
        script.write_text(f"#!{program.parent}/python\nimport sys\nfrom firmware_host.cli import main\n"
                          "if __name__ == '__main__':\n    sys.exit(main())\n")
        script.chmod(0o755)
        return {venv: str(program.parent.parent), PROJECT: str(CHECKOUT),
                Path(sysconfig.get_path("purelib")): str(PACKAGES)}

    def _files(self) -> dict[Path, str]:
        """The unit, its drop-ins in their order, the configuration, the service's users and groups, the
        target that starts the unit, and journald's forwarding to the console."""
        units = Path("/etc/systemd/system")
        files = {self.unit: str(units / "gameboard.service")}
        for number, drop_in in enumerate(self.drop_ins):
            files[drop_in] = str(units / "gameboard.service.d" / f"{number:02d}-{drop_in.stem}.conf")
        made = self.folder / "made"
        made.mkdir()

        def make(name: str, text: str, target: str) -> None:
            (made / name).write_text(text)
            files[made / name] = target

        if self.config:
            make("gameboard.toml", self.config, str(self.settings.config_path()))
        user, group = self.settings.last("User") or "root", self.settings.last("Group")
        groups = [*([group] if group and group != user else []),
                  *(self.settings.last("SupplementaryGroups") or "").split()]
        missing = [name for name in groups if not _group_exists(name)]  # dialout: Debian's own
        make("sysusers.conf", "".join(f"g {name} -\n" for name in missing) + f"u {user} - - /var/lib/{user}\n"
             + "".join(f"m {user} {name}\n" for name in groups), "/etc/sysusers.d/gameboard-test.conf")
        make("gameboard-test.target", "[Unit]\nDescription=The unit under test\nWants=gameboard.service\n"
             "After=gameboard.service\n", str(units / "gameboard-test.target"))
        make("journald.conf", "[Journal]\nForwardToConsole=yes\nMaxLevelConsole=info\n",
             "/etc/systemd/journald.conf.d/gameboard-test.conf")
        return files


def _end_with_parent() -> None:
    """SIGTERM to nspawn (which powers the container off) when the test process dies without cleaning up."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False
