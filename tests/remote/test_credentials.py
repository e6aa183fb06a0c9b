"""The secrets of remote play, for real: a password never on a command line (real ``sim`` and ``watch``
processes logging in to a real Mosquitto, their /proc/PID/cmdline read), the files holding a secret
private (``run`` warns), and TLS files loaded before anything connects (made by openssl)."""

from __future__ import annotations

import grp
import os
import pwd
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware_host.cli import main

DOCS = Path(__file__).parents[2] / "docs" / "mosquitto"
USERS = {"alice": "pw-alice", "bob": "pw-bob", "carol": "pw-carol"}
START_TIMEOUT_S = 60.0

CONFIG = """\
[game]
name = "squareoff"
seats = ["human", "remote:bob"]

[sensors]
driver = "mock"
board = "squareoff"

[leds]
driver = "mock"
board = "squareoff"

[journal]
path = "{journal}"

[remote]
broker = "{broker}"
game = "friday"
name = "alice"
{login}
"""

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None,
                                   reason="openssl is not installed (apt-get install openssl): no certificates")


class Command:
    """A ``gameboard`` process, its output lines read as they come."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", *args], stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, env=env)
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.said: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.rstrip())

    def wait_for(self, start: str) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while not any(line.startswith(start) for line in self.said):
            assert self.process.poll() is None or not self.lines.empty(), f"ended: {self.said}"
            try:
                self.said.append(self.lines.get(timeout=max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                raise AssertionError(f"no {start!r} in {START_TIMEOUT_S:g} s: {self.said}") from None

    def arguments(self) -> list[bytes]:
        """What ``ps`` shows of this process: its command line."""
        return Path(f"/proc/{self.process.pid}/cmdline").read_bytes().split(b"\0")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def private_file(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)
    return path


def test_sim_and_watch_log_in_with_password_files_and_no_password_is_on_their_command_lines(
        tmp_path, make_mosquitto, broker_tools) -> None:
    # The documented broker: no anonymous client, each user held to its own topics by the documented ACLs.
    mosquitto = make_mosquitto(password_file=broker_tools.passwords(tmp_path, USERS), acl_file=DOCS / "gameboard.acl")
    address = f"mqtt://127.0.0.1:{mosquitto.port}/friday"
    files = {user: private_file(tmp_path / f"{user}.password", f"{password}\n") for user, password in USERS.items()}
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    arguments = {
        "alice": ["sim", "hexover", "--seats", "human", "remote:bob", "--join", address, "--name", "alice",
                  "--journal", str(tmp_path / "alice.sqlite3")],
        "bob": ["sim", "--join", address, "--name", "bob", "--journal", str(tmp_path / "bob.sqlite3")],
        "carol": ["watch", address, "--name", "carol"],
    }
    commands = {user: Command([*args, "--password-file", str(files[user]), "--port", str(broker_tools.free_port())],
                              env) for user, args in arguments.items()}
    try:
        # bob and carol open their pages only once they read the header alice wrote: all three logged in.
        for command in commands.values():
            command.wait_for("gameboard: open ")
        for user, command in commands.items():
            shown = command.arguments()
            assert str(files[user]).encode() in shown
            assert [password for password in USERS.values() if any(password.encode() in arg for arg in shown)] == []
    finally:
        for command in commands.values():
            command.stop()
    assert "u'carol'" in mosquitto.log() and "not authorised" not in mosquitto.log()


@pytest.mark.parametrize("arguments", [
    ["sim", "--join", "mqtt://127.0.0.1/friday", "--name", "carol", "--password", "pw-carol"],
    ["watch", "mqtt://127.0.0.1/friday", "--name", "carol", "--password=pw-carol"],
    ["watch", "mqtt://127.0.0.1/friday", "--password"],
])
def test_a_password_on_the_command_line_is_refused_naming_the_password_file(capsys, arguments) -> None:
    with pytest.raises(SystemExit) as ended:
        main(arguments)
    assert ended.value.code == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert error == (f"gameboard {arguments[0]}: error: --password: a password on the command line is shown to every "
                     "user of this machine by `ps`; write it alone in a file only you can read (chmod 600 FILE) and "
                     "give --password-file FILE")


@pytest.mark.parametrize("command", ["sim", "watch"])
def test_a_password_in_the_address_is_refused_and_not_repeated(capsys, tmp_path, command) -> None:
    address = "mqtt://carol:pw-carol@127.0.0.1/friday"
    arguments = ["sim", "--join", address, "--journal", str(tmp_path / "j.sqlite3")] if command == "sim" else [
        "watch", address]
    assert main([*arguments, "--name", "carol"]) == 2
    error = capsys.readouterr().err
    assert error == ("gameboard: error: broker 'mqtt://carol:***@127.0.0.1': a password in the address is shown "
                     "wherever the address is (`ps`, logs); take it out and give it apart: [remote] password_file "
                     "or password in the configuration, --password-file FILE on a command line\n")


def test_a_password_file_needs_a_user_to_go_with(capsys, tmp_path) -> None:
    password = private_file(tmp_path / "pw", "secret\n")
    assert main(["watch", "mqtt://127.0.0.1/friday", "--password-file", str(password)]) == 2
    assert capsys.readouterr().err == "gameboard: error: --password-file needs a user: give --name (or --username)\n"


def write_config(folder: Path, login: str, broker: str = "mqtt://127.0.0.1") -> Path:
    path = folder / "gameboard.toml"
    path.write_text(CONFIG.format(journal=folder / "journal.sqlite3", broker=broker, login=login), encoding="utf-8")
    return path


def checked(path: Path, capsys) -> list[str]:
    """``run --check`` of ``path`` passing, and its warnings."""
    assert main(["run", "--check", "--config", str(path)]) == 0
    return capsys.readouterr().err.splitlines()


def test_run_warns_when_other_users_can_read_the_configuration_holding_the_password(tmp_path, capsys) -> None:
    path = write_config(tmp_path, 'password = "pw-alice"')
    path.chmod(0o644)  # as the README's install steps once made it
    assert checked(path, capsys) == [
        f"gameboard: warning: {path}:20: remote.password: every user can read {path} (mode 0644), which holds the "
        f"broker's password; chmod 0600 {path} (the service's files: chown root:gameboard {path}; chmod 0640 {path})"]
    path.chmod(0o600)
    assert checked(path, capsys) == []


def test_run_warns_when_other_users_can_read_the_password_file(tmp_path, capsys) -> None:
    path = write_config(tmp_path, 'password_file = "broker.password"')
    secret = private_file(tmp_path / "broker.password", "pw-alice\n")
    path.chmod(0o644)  # holds no secret
    assert checked(path, capsys) == []
    secret.chmod(0o604)
    assert checked(path, capsys) == [
        f"gameboard: warning: {path}:20: remote.password_file: every user can read {secret} (mode 0604), which holds "
        f"the broker's password; chmod 0600 {secret} (the service's files: chown root:gameboard {secret}; "
        f"chmod 0640 {secret})"]


def group_with(others: bool) -> grp.struct_group | None:
    """A group this process may give its files to whose members are (``others``) or are not only root and this
    process's user: the service's root:gameboard 0640, or a group shared with other users."""
    me = pwd.getpwuid(os.geteuid()).pw_name
    mine = None if os.geteuid() == 0 else set(os.getgroups()) | {os.getegid()}
    for group in grp.getgrall():
        members = set(group.gr_mem) | {user.pw_name for user in pwd.getpwall() if user.pw_gid == group.gr_gid}
        if (mine is None or group.gr_gid in mine) and bool(members - {me, "root"}) == others:
            return group
    return None


@pytest.mark.parametrize("others", [False, True])
def test_a_file_readable_by_its_group_is_private_only_if_the_group_holds_nobody_else(tmp_path, capsys,
                                                                                     others: bool) -> None:
    group = group_with(others)
    if group is None:
        pytest.skip(f"no group {'shared with' if others else 'without'} other users for this user to test with")
    path = write_config(tmp_path, 'password = "pw-alice"')
    os.chown(path, -1, group.gr_gid)
    path.chmod(0o640)
    warnings = checked(path, capsys)
    if others:
        assert len(warnings) == 1 and f"remote.password: the group {group.gr_name} (" in warnings[0]
    else:
        assert warnings == []


@needs_openssl
def test_run_warns_when_other_users_can_read_this_boards_private_key(tmp_path, capsys, broker_tools) -> None:
    made = broker_tools.certificates(tmp_path)
    path = write_config(tmp_path, f'ca_file = "{made.ca}"\ncert_file = "{made.client}"\nkey_file = "{made.client_key}"',
                        broker="mqtts://127.0.0.1")
    made.client_key.chmod(0o644)
    key = made.client_key
    assert checked(path, capsys) == [
        f"gameboard: warning: {path}:22: remote.key_file: every user can read {key} (mode 0644), which holds this "
        f"board's private key; chmod 0600 {key} (the service's files: chown root:gameboard {key}; chmod 0640 {key})"]
    made.client_key.chmod(0o600)
    assert checked(path, capsys) == []


@needs_openssl
@pytest.mark.parametrize("check", [True, False])
def test_run_refuses_a_tls_file_that_would_fail_to_connect_before_starting(tmp_path, capsys, broker_tools,
                                                                           check: bool) -> None:
    made = broker_tools.certificates(tmp_path)
    path = write_config(tmp_path, f'ca_file = "{made.server_key}"', broker="mqtts://127.0.0.1")
    assert main(["run", *(["--check"] if check else []), "--config", str(path)]) == 2
    assert capsys.readouterr().err == (f"gameboard: error: {path}:20: remote.ca_file: {made.server_key} holds no PEM "
                                       "certificate; give the certificate of the authority that signed the broker's "
                                       "(-----BEGIN CERTIFICATE-----)\n")


@needs_openssl
@pytest.mark.parametrize("command", ["sim", "watch"])
def test_sim_and_watch_refuse_a_bad_authority_file_in_one_line(capsys, tmp_path, broker_tools, command) -> None:
    made = broker_tools.certificates(tmp_path)
    address = "mqtts://127.0.0.1:1/friday"
    arguments = ["sim", "--join", address, "--name", "bob", "--journal", str(tmp_path / "j.sqlite3")] \
        if command == "sim" else ["watch", address, "--port", str(broker_tools.free_port())]  # watch binds it first
    for ca_file, problem in ((tmp_path / "nothing.crt", "does not exist; give an existing file"),
                             (tmp_path, "is a folder; give a file"),
                             (made.client_key, "holds no PEM certificate; give the certificate of the authority that "
                                               "signed the broker's (-----BEGIN CERTIFICATE-----)")):
        assert main([*arguments, "--ca-file", str(ca_file), "--wait", "0.1"]) == 2
        assert capsys.readouterr().err == f"gameboard: error: --ca-file: {ca_file} {problem}\n"
    if command == "watch":  # a good authority goes on to connect (once is enough: giving up takes a second)
        assert main([*arguments, "--ca-file", str(made.ca), "--wait", "0.1"]) == 2
        assert capsys.readouterr().err.endswith("(the broker mqtts://127.0.0.1:1 cannot be reached; trying again)\n")


def without_root_powers() -> list[str]:
    """The command prefix that runs a command unable to read what its user may not: root, as it runs the tests
    here, reads every file unless it gives up the capabilities that let it."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("the tests run as root, and setpriv (util-linux), to run a command without root's powers over "
                    "files, is not installed")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"]


@needs_openssl
def test_a_key_the_boards_user_cannot_read_is_named_with_that_user(tmp_path, broker_tools) -> None:
    prefix = without_root_powers()
    made = broker_tools.certificates(tmp_path)
    made.client_key.chmod(0o000)
    path = write_config(tmp_path, f'ca_file = "{made.ca}"\ncert_file = "{made.client}"\nkey_file = "{made.client_key}"',
                        broker="mqtts://127.0.0.1")
    ran = subprocess.run([*prefix, sys.executable, "-m", "firmware_host.cli", "run", "--check", "--config", str(path)],
                         capture_output=True, text=True, cwd=Path(__file__).parents[2])
    user = pwd.getpwuid(os.geteuid()).pw_name
    assert (ran.returncode, ran.stderr) == (2, f"gameboard: error: {path}:22: remote.key_file: {made.client_key} "
                                               f"cannot be read (Permission denied); let the user {user} read it\n")
