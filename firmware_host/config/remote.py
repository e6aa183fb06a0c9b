"""The ``[remote]`` section: a game played through a broker, its address, names and secrets checked."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.config.problems import Problems
from firmware_host.remote.link import Broker
from firmware_host.seats import Seat


@dataclass(frozen=True)
class RemoteConfig:
    """A game played through a broker: where, under which game id, as whom."""

    broker: Broker
    game: str
    name: str
    #: The files holding a secret, by the key that names them ("password": this file): none may be readable
    #: by other users.
    secrets: dict[str, Path] = field(default_factory=dict)


def check_remote(problems: Problems, values: dict[str, Any], seats: tuple[Seat, ...],
                 base: Path) -> RemoteConfig | None:
    """The [remote] section: a broker address that can work, names fit for topics, a seat held elsewhere."""
    from firmware_host.remote.credentials import CredentialError, tls_context
    from firmware_host.remote.link import LinkError
    from firmware_host.remote.protocol import NAME

    found = True
    for key in ("game", "name"):
        if values[key] is not None and not NAME.fullmatch(values[key]):
            problems.add(f"remote.{key}", f"{values[key]!r} is not accepted; use 1-64 letters, digits, '-' or '_'")
            found = False
    if seats and not any(seat.remote for seat in seats):
        problems.add("game.seats", 'a remote game needs a seat held elsewhere: write it remote:NAME, e.g. '
                                   'seats = ["human", "remote:bob"]')
    elif values["name"] and any(seat.holder == values["name"] for seat in seats):
        problems.add("game.seats", f"remote:{values['name']} is this board's own name ([remote] name): "
                                   "write its seat human or computer")
    if values["broker"] is None or not found or values["game"] is None or values["name"] is None:
        return None
    files = {key: base / values[key] for key in ("ca_file", "cert_file", "key_file") if values[key]}
    password, secrets = _remote_password(problems, values, base)
    try:
        broker = Broker.parse(values["broker"], username=values["username"] or values["name"], password=password,
                              **files)
    except LinkError as exc:
        problems.add("remote.broker", str(exc))
        return None
    if files and not broker.tls:
        problems.add("remote.broker", "certificate files are for TLS: write the broker as mqtts://")
    elif broker.tls:
        try:
            tls_context(broker.ca_file, broker.cert_file, broker.key_file)
        except CredentialError as exc:
            for key, problem in exc.problems:
                problems.add(f"remote.{key}", problem)
    if broker.cert_file is not None:  # the client's private key: in key_file, else beside its certificate
        holder = "key_file" if broker.key_file else "cert_file"
        secrets[holder] = files[holder]
    return RemoteConfig(broker, values["game"], values["name"], secrets)


def _remote_password(problems: Problems, values: dict[str, Any], base: Path) -> tuple[str | None, dict[str, Path]]:
    """The broker's password, from ``password`` or read from ``password_file``, and the file it was in."""
    from firmware_host.remote.credentials import CredentialError, read_password

    if values["password_file"] is None:
        password = values["password"]
        return password, ({} if password is None else {"password": problems.path})
    path = base / values["password_file"]
    if values["password"] is not None:
        problems.add("remote.password_file", "give the password one way: password_file or password, not both")
    try:
        return read_password(path), {"password_file": path}
    except CredentialError as exc:
        problems.add("remote.password_file", exc.problems[0][1])
        return None, {}
