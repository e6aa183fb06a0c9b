"""What the installed gameboard.service lets the daemon reach, and what a configuration needs beyond it.

The unit shuts the network (``PrivateNetwork=yes``, Unix sockets only); remote play needs the
remote-play drop-in (systemd/gameboard-remote.conf) with the broker's addresses in it.  Without it
``run --check`` would say ok and the service would die at its first socket, so the check reads the
unit and its drop-ins from systemd's folders, merged as systemd merges them, rather than asking
``systemctl show``: files are there on any machine, before a daemon-reload, and in a test.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from firmware_host.config import Config
from firmware_host.remote.link import INSTALL_REMOTE

UNIT_NAME = "gameboard.service"
#: systemd's folders of system units, the first found wins (systemd.unit(5), "Unit File Load Path").
UNIT_FOLDERS = tuple(Path(folder) for folder in ("/etc/systemd/system", "/run/systemd/system",
                                                 "/usr/local/lib/systemd/system", "/usr/lib/systemd/system",
                                                 "/lib/systemd/system"))
#: The configuration file of an ExecStart= without --config (firmware_host.commands.run.default_config).
DEFAULT_CONFIG = Path("/etc/gameboard/gameboard.toml")
#: The prefixes of IPAddressAllow=/IPAddressDeny='s names (systemd.resource-control(5)).
ADDRESS_NAMES = {"any": ("0.0.0.0/0", "::/0"), "localhost": ("127.0.0.0/8", "::1/128"),
                 "link-local": ("169.254.0.0/16", "fe80::/64"), "multicast": ("224.0.0.0/4", "ff00::/8")}
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


@dataclass(frozen=True)
class ServiceUnit:
    """A unit's [Service] settings with its drop-ins applied: each key's values in order, an empty
    assignment clearing those before it (``ExecStart=`` before a new ``ExecStart=``)."""

    files: tuple[Path, ...]
    settings: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, *files: Path) -> ServiceUnit:
        settings: dict[str, list[str]] = {}
        for path in files:
            section = ""
            for line in _logical_lines(path.read_text(encoding="utf-8")):
                if line.startswith("["):
                    section = line.strip("[]")
                elif section == "Service" and "=" in line:
                    key, _, value = (part.strip() for part in line.partition("="))
                    settings[key] = [*settings.get(key, []), value] if value else []
        return cls(tuple(files), settings)

    @classmethod
    def installed(cls, folders: Iterable[Path] = UNIT_FOLDERS) -> ServiceUnit | None:
        """gameboard.service as systemd would load it from ``folders``; None when it is not installed."""
        folders = tuple(folders)
        unit = next((folder / UNIT_NAME for folder in folders if (folder / UNIT_NAME).is_file()), None)
        if unit is None:
            return None
        drop_ins: dict[str, Path] = {}  # by file name: a folder earlier in the path masks a later one's
        for folder in folders:
            for path in sorted((folder / f"{UNIT_NAME}.d").glob("*.conf")):
                drop_ins.setdefault(path.name, path)
        try:
            return cls.read(unit, *(drop_ins[name] for name in sorted(drop_ins)))
        except (OSError, UnicodeDecodeError):
            return None  # unreadable here: nothing to say about it

    def last(self, key: str) -> str | None:
        """The value in force: None when never set, "" when set empty."""
        values = self.settings.get(key)
        return None if values is None else values[-1] if values else ""

    def config_path(self) -> Path:
        """The configuration file the service's ExecStart= runs with."""
        words = (self.last("ExecStart") or "").split()
        return Path(words[words.index("--config") + 1]) if "--config" in words[:-1] else DEFAULT_CONFIG

    @property
    def private_network(self) -> bool:
        return (self.last("PrivateNetwork") or "no").lower() in ("yes", "true", "on", "1")

    def allows_family(self, family: str) -> bool:
        """Whether socket(``family``) is let through RestrictAddressFamilies=, read as systemd reads it: the first
        assignment makes an allow list (or, with ``~``, a deny list), later ones add to it or take from it."""
        families: set[str] | None = None
        allow_list = False
        for value in self.settings.get("RestrictAddressFamilies", []):
            if value == "none":
                families, allow_list = None, True
                continue
            invert = value.startswith("~")
            if families is None:
                families, allow_list = set(), not invert
            if invert != allow_list:
                families |= set(value.removeprefix("~").split())
            else:
                families -= set(value.removeprefix("~").split())
        return (family in (families or set())) == allow_list

    def allows_address(self, address: Address) -> bool:
        """IPAddressAllow= wins over IPAddressDeny=; an address in neither list is let through."""
        def listed(key: str) -> bool:
            return any(address in network for network in _networks(self.settings.get(key, [])))
        return listed("IPAddressAllow") or not listed("IPAddressDeny")


def withheld(config: Config, unit: ServiceUnit | None, *,
             resolve: Callable[[str, int], list[str]] | None = None,
             nameservers: Iterable[str] | None = None) -> str | None:
    """What ``config`` needs that ``unit`` (the installed service) withholds, with the fix; None when it withholds
    nothing it needs, is not installed, or runs another configuration.  ``resolve`` gives the broker's addresses
    (default: the system's resolver), ``nameservers`` the resolver's (default: /etc/resolv.conf's)."""
    if unit is None or config.remote is None or unit.config_path().resolve() != config.path.resolve():
        return None
    broker = config.remote.broker
    where = f"{config.path}: [remote] broker {broker.host}"
    # AF_INET even for an IPv6 broker: paho-mqtt wakes its network thread through a TCP socket pair on 127.0.0.1.
    if unit.private_network or not unit.allows_family("AF_INET"):
        return (f"{where}: {UNIT_NAME} gives the daemon no network ({_network_words(unit)}); install the "
                f"remote-play drop-in: {INSTALL_REMOTE}, with the broker's addresses in it (docs/daemon.md), "
                "then sudo systemctl daemon-reload && sudo systemctl restart gameboard")

    def reachable(text: str) -> bool:
        address = ipaddress.ip_address(text.split("%")[0])
        return unit.allows_family(f"AF_INET{'' if address.version == 4 else '6'}") and unit.allows_address(address)

    blocked = [] if reachable("127.0.0.1") else ["127.0.0.1 (paho-mqtt's socket pair)"]
    if not _is_address(broker.host):
        servers = list(_nameservers() if nameservers is None else nameservers) or ["127.0.0.1"]  # glibc's default
        if not any(map(reachable, servers)):
            blocked.append(f"{' or '.join(servers)} (the name server)")
    addresses = _addresses(broker.host, broker.port, resolve or _resolve)
    # No answer now (offline): the broker's addresses cannot be checked, and its name may resolve later.
    if addresses is not None and not any(map(reachable, addresses)):
        blocked.append(f"{' or '.join(addresses)} ({broker.host})")
    if not blocked:
        return None
    return (f"{where}: {UNIT_NAME} keeps the daemon from reaching {', '.join(blocked)}; add "
            f"{'them' if len(blocked) > 1 else 'it'} to IPAddressAllow= in "
            "/etc/systemd/system/gameboard.service.d/remote.conf (docs/daemon.md), then "
            "sudo systemctl daemon-reload && sudo systemctl restart gameboard")


def _logical_lines(text: str) -> Iterable[str]:
    """Lines without comments, a line ending in a backslash joined to the next (systemd.syntax(7))."""
    pending = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith(("#", ";"))):
            continue
        if pending and line.startswith(("#", ";")):
            continue  # a comment inside a continued line is skipped
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        yield pending + line
        pending = ""
    if pending:
        yield pending.rstrip()


def _networks(values: Iterable[str]) -> list[Network]:
    """The prefixes of IPAddressAllow= or IPAddressDeny= values; systemd ignores a word that is none."""
    networks: list[Network] = []
    for word in (word for value in values for word in value.split()):
        for prefix in ADDRESS_NAMES.get(word, (word,)):
            try:
                networks.append(ipaddress.ip_network(prefix, strict=False))
            except ValueError:
                continue
    return networks


def _network_words(unit: ServiceUnit) -> str:
    words = []
    if unit.private_network:
        words.append("PrivateNetwork=yes")
    families = unit.settings.get("RestrictAddressFamilies")
    if families:
        words.append(f"RestrictAddressFamilies={' '.join(families)}")
    return ", ".join(words)


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


def _addresses(host: str, port: int, resolve: Callable[[str, int], list[str]]) -> list[str] | None:
    if _is_address(host):
        return [host]
    try:
        return resolve(host, port) or None
    except OSError:
        return None


def _resolve(host: str, port: int) -> list[str]:
    return list(dict.fromkeys(str(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)))


def _nameservers(resolv_conf: Path = Path("/etc/resolv.conf")) -> list[str]:
    try:
        lines = resolv_conf.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    return [words[1] for words in (line.split() for line in lines)
            if len(words) >= 2 and words[0] == "nameserver" and _is_address(words[1].split("%")[0])]
