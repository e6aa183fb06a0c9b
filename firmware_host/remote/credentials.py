"""The files that log a participant in to the broker, read and checked before anything connects.

A password never comes from a command line, where ``ps`` shows it to every user of the
machine: it is read from the configuration file or from a file of its own.  The TLS
files are loaded with ``ssl`` itself, as the connection will load them, so a file that
would fail at the first connection (and restart the service in a loop) fails the check
instead, naming the file.  ``other_readers`` says who else could read a file holding a
secret, for the warning ``gameboard run`` gives.
"""

from __future__ import annotations

import grp
import os
import pwd
import ssl
import stat
from pathlib import Path

from engine.errors import GameboardError


class CredentialError(GameboardError, ValueError):
    """Files that cannot log in: each problem under the key that named its file."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        #: (key: "password_file", "ca_file", "cert_file" or "key_file"; the problem and its fix)
        self.problems = problems
        super().__init__("; ".join(f"{key}: {problem}" for key, problem in problems))


class _Passphrase(Exception):
    """A key that asks for a passphrase: nobody is there to type it when the service starts."""


def read_password(path: Path) -> str:
    """The password alone on the first line of ``path`` (its line end dropped)."""
    problem = _unreadable(path)
    if problem:
        raise CredentialError([("password_file", problem)])
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise CredentialError([("password_file", f"{path} is not UTF-8 text; write the password in it as text")]) \
            from None
    lines = text.rstrip("\r\n").splitlines()  # the last line's end, and empty lines after it, are no part of it
    if not lines or not lines[0]:
        raise CredentialError([("password_file", f"{path} is empty; write the broker's password in it, alone "
                                                 "on one line")])
    if len(lines) > 1:
        raise CredentialError([("password_file", f"{path} has {len(lines)} lines; write the password alone on "
                                                 "one line")])
    return lines[0]


def tls_context(ca_file: Path | None, cert_file: Path | None = None, key_file: Path | None = None) -> ssl.SSLContext:
    """The TLS context of a connection to the broker: it trusts ``ca_file`` (the system's authorities when
    None) and shows ``cert_file`` with ``key_file`` when given; every file problem raised at once."""
    problems = [(key, problem) for key, path in (("ca_file", ca_file), ("cert_file", cert_file),
                                                 ("key_file", key_file))
                if path is not None and (problem := _unreadable(path))]
    if key_file is not None and cert_file is None:
        problems.append(("key_file", "a key goes with its certificate: give cert_file too"))
    if problems:
        raise CredentialError(problems)
    try:  # a context that verifies the broker's certificate and name, as paho's default does
        context = ssl.create_default_context(cafile=None if ca_file is None else str(ca_file))
    except ssl.SSLError:
        problems.append(("ca_file", f"{ca_file} holds no PEM certificate; give the certificate of the authority "
                                    "that signed the broker's (-----BEGIN CERTIFICATE-----)"))
        context = ssl.create_default_context()
    if cert_file is not None:
        if not _holds_certificate(cert_file):
            problems.append(("cert_file", f"{cert_file} holds no PEM certificate; give this board's certificate "
                                          "(-----BEGIN CERTIFICATE-----)"))
        else:
            problems += _chain_problems(context, cert_file, key_file)
    if problems:
        raise CredentialError(problems)
    return context


def other_readers(path: Path) -> str | None:
    """Who besides the file's owner, this process's user and root may read ``path``, in words (None: nobody).

    Read from the file's own permission bits and group (not ACLs, nor the folders above it).
    """
    info = path.stat()
    if info.st_mode & stat.S_IROTH:
        return "every user"
    if not info.st_mode & stat.S_IRGRP:
        return None
    try:
        group = grp.getgrgid(info.st_gid)
    except KeyError:
        return f"the group {info.st_gid}"
    members = set(group.gr_mem) | {user.pw_name for user in pwd.getpwall() if user.pw_gid == info.st_gid}
    others = sorted(members - {_user_name(info.st_uid), _user_name(os.geteuid()), "root"})
    return f"the group {group.gr_name} ({', '.join(others)})" if others else None


def exposure(path: Path, what: str) -> str | None:
    """The warning for ``path``, holding ``what``, when other users can read it; None when they cannot."""
    try:
        readers = other_readers(path)
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:  # gone since it was read: the next start says so
        return None
    if readers is None:
        return None
    return f"{readers} can read {path} (mode {mode:04o}), which holds {what}; chmod 0600 {path}"


def _unreadable(path: Path) -> str | None:
    """Why ``path`` cannot be read as a file, with the fix; None when it can."""
    if path.is_dir():
        return f"{path} is a folder; give a file"
    try:
        with path.open("rb"):
            return None
    except FileNotFoundError:
        return f"{path} does not exist; give an existing file"
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror}); let the user {_user_name(os.geteuid())} read it"


def _holds_certificate(path: Path) -> bool:
    try:
        ssl.create_default_context(cafile=str(path))
    except ssl.SSLError:
        return False
    return True


def _chain_problems(context: ssl.SSLContext, cert_file: Path, key_file: Path | None) -> list[tuple[str, str]]:
    """Load the client certificate with its key into ``context``: what is wrong, under the key to fix."""
    key, holder = ("key_file", key_file) if key_file is not None else ("cert_file", cert_file)
    try:
        context.load_cert_chain(cert_file, key_file, password=_no_passphrase)
    except _Passphrase:
        return [(key, f"{holder} asks for a passphrase, which nobody types when the board starts; write the key "
                      f"without one: openssl pkey -in {holder} -out {holder}.plain")]
    except ssl.SSLError as exc:
        if exc.reason == "KEY_VALUES_MISMATCH":
            return [(key, f"{holder} is not the key of {cert_file}; give the key made with that certificate")]
        if key_file is None:
            return [(key, f"{cert_file} holds no private key; give the certificate's key as key_file")]
        return [(key, f"{key_file} holds no PEM private key; give the key of {cert_file} "
                      "(-----BEGIN PRIVATE KEY-----)")]
    return []


def _no_passphrase() -> bytes:
    raise _Passphrase


def _user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)
