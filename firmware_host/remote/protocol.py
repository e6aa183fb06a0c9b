"""The remote-play protocol, version 3: topics, messages and the hashes (docs/remote.md, docs/protocol.md).

Everything of a game lives under ``gameboard/v3/{game}``:

- ``header``: retained; the game, its options, who holds each seat, and the hash of
  the public starting position.  Written by the game's host.
- ``by/{participant}/move/{seq}``: retained, QoS 1; the move that made ply ``seq``
  (counted from 1), with its chained hash (which covers the previous move's, so it
  binds the whole history before it) and the hidden values it reveals.  Published by
  the participant holding the seat that made it.
- ``by/{participant}/dice/{seq}``: retained; its commitment to the roll of ply ``seq``, then
  its secret (``firmware_host.remote.dice``).
- ``by/{participant}/presence``: retained; "online", or "offline" as its last will.
- ``by/{participant}/refused``: a move that participant refused, and why.
- ``by/{participant}/rewrite/{seq}``: retained; the evidence that the holder of ply ``seq``'s seat
  published another move for it after this participant had applied one: both copies.
- ``by/{participant}/seals``, ``by/{participant}/opened``: retained; the seals of the hidden values
  it dealt, published before play, and their openings at the game's end (``seals``).

A participant writes only under its own ``by/{name}/``, so a broker's ACLs can hold
every participant to its own seats (docs/mosquitto/gameboard.acl).
Payloads are JSON objects; anything else is refused with the reason, never guessed at.
Each message's ``parse`` checks every field's type and range or raises ProtocolError;
``firmware_host.remote.messages`` picks the message a topic holds.  The dice and the seals
build their messages on this module, which knows neither (a move's reveal, ``Opening``, is here).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any

from engine.core import EngineError, State
from engine.errors import GameboardError
from engine.public import public_text
from engine.registry import game_class

VERSION = 3
PREFIX = f"gameboard/v{VERSION}"
#: Game ids and participant names: what is safe in a topic, a file name and a Mosquitto ACL.
NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The largest payload read; a move message is about 200 bytes.
MAX_PAYLOAD = 64 * 1024
#: The highest ply a message may name (a four-player Over-Pass lasts some 4,200).
MAX_SEQ = 1_000_000
#: A ply in a topic: ASCII digits, no leading zero (``str.isdigit`` takes "²"), at most MAX_SEQ.
SEQ = re.compile(r"[1-9][0-9]{0,6}")
#: A SHA-256 or HMAC-SHA256 in lowercase hex (64 digits): dice commitments and secrets, seals and salts.
SHA256_HEX = re.compile(r"[0-9a-f]{64}")
#: A token's name as the games write it ("red-a"): what a reveal may name.
TOKEN = re.compile(r"[a-z]{1,16}-[a-z]{1,4}")
#: The largest hidden value a message may carry (Pawns Crossing's are 0-4).
MAX_VALUE = 99
#: The longest move text read (the longest of the engine's notations is under 30 characters).
MAX_MOVE_TEXT = 256
#: The longest hash read (a position hash is 16 hex digits).
MAX_HASH = 128
#: The longest reason a refusal may give, shown in the status (this board's stay under 3,000 characters, a
#: move text of 256 quoted with escapes).
MAX_REASON = 4096
#: How deep a payload's JSON may nest (a header's options nest two deep).
MAX_DEPTH = 100
#: How much of a topic a message about it quotes (a topic may be 64 KiB).
SHOWN_TOPIC = 120
#: How a game's dice are rolled (the header's "dice"): fair dice through the broker, or real dice entered by
#: hand, which every seat must agree to.
FAIR, BY_HAND = "fair", "by hand"


class ProtocolError(GameboardError, ValueError):
    """A topic, name or message that does not follow the protocol; the message says what is wrong."""


def check_name(text: object, what: str) -> str:
    if not isinstance(text, str) or not NAME.fullmatch(text):
        raise ProtocolError(f"{what} {text!r} must be 1-64 letters, digits, '-' or '_'")
    return text


def header_topic(game: str) -> str:
    return f"{PREFIX}/{game}/header"


def move_topic(game: str, by: str, seq: int) -> str:
    return f"{PREFIX}/{game}/by/{by}/move/{seq}"


def rewrite_topic(game: str, by: str, seq: int) -> str:
    return f"{PREFIX}/{game}/by/{by}/rewrite/{seq}"


def presence_topic(game: str, by: str) -> str:
    return f"{PREFIX}/{game}/by/{by}/presence"


def refused_topic(game: str, by: str) -> str:
    return f"{PREFIX}/{game}/by/{by}/refused"


def position_hash(state: State) -> str:
    """The hash of the public position (its canonical text, docs/protocol.md): equal on every participant
    that followed the same moves, whatever program it runs."""
    return _digest(public_text(state))


def chained_hash(previous: str, seq: int, move: str, position: str) -> str:
    """The hash a move message carries: it binds the history before the move (``previous``, the chained hash
    of ply ``seq - 1``, or the header's ``setup`` for ply 1), the move and the ``position_hash`` after it."""
    return _digest(f"{previous}\n{seq}\n{move}\n{position}")


def keyed(key: str, label: str) -> str:
    """A secret of this board's: HMAC-SHA256 of ``label`` under its game's ``key`` (``Journal.remote_key``), in
    hex.  A board that restarts derives the same, so it can open what it committed to."""
    return hmac.new(bytes.fromhex(key), label.encode(), hashlib.sha256).hexdigest()


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _object(payload: bytes, what: str) -> dict[str, Any]:
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"{what}: {len(payload)} bytes, more than {MAX_PAYLOAD}")
    if _depth(payload) > MAX_DEPTH:  # json would recurse until Python's stack runs out
        raise ProtocolError(f"{what} is not JSON (nested more than {MAX_DEPTH} deep)")
    try:
        data = json.loads(payload, parse_constant=_no_constant)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProtocolError(f"{what} is not JSON ({exc})") from None
    except ValueError:  # int() refuses more than sys.get_int_max_str_digits() digits
        raise ProtocolError(f"{what} is not JSON (a number of more than {sys.get_int_max_str_digits()} "
                            "digits)") from None
    if not isinstance(data, dict):
        raise ProtocolError(f"{what} must be a JSON object")
    if data.get("v") != VERSION or type(data["v"]) is not int:
        raise ProtocolError(f"{what} is protocol version {data.get('v')!r}; this board speaks {VERSION}")
    return data


def _depth(payload: bytes) -> int:
    """How deep the brackets of ``payload`` nest, strings included: an upper bound of its JSON's depth."""
    if payload.count(b"[") + payload.count(b"{") <= MAX_DEPTH:  # every message the boards write
        return 0
    depth = deepest = 0
    for byte in payload:
        if byte in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif byte in b"]}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> None:
    raise json.JSONDecodeError(f"{name} is not JSON", name, 0)


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise ProtocolError(f'{what}: "{key}" is missing or of the wrong kind')
    return value


def _seq(data: dict[str, Any], what: str) -> int:
    seq = _field(data, "seq", int, what)
    if not 1 <= seq <= MAX_SEQ:
        raise ProtocolError(f'{what}: "seq" {seq} is not a ply from 1 to {MAX_SEQ}')
    return seq


def topic_seq(data: dict[str, Any], seq: int, what: str) -> None:
    """Check that the payload's ``seq`` is the one its topic names."""
    if _seq(data, what) != seq:
        raise ProtocolError(f"{what}: its seq {data['seq']} is not its topic's")


def _move_text(data: dict[str, Any], what: str) -> str:
    move = _field(data, "move", str, what)
    if len(move) > MAX_MOVE_TEXT:
        raise ProtocolError(f'{what}: "move" has {len(move)} characters, more than {MAX_MOVE_TEXT}')
    return move


def _hash(data: dict[str, Any], what: str) -> str:
    digest = _field(data, "hash", str, what)
    if len(digest) > MAX_HASH:
        raise ProtocolError(f'{what}: "hash" has {len(digest)} characters, more than {MAX_HASH}')
    return digest


def _reveal(data: dict[str, Any], what: str) -> dict[str, Opening]:
    """A move's ``"reveal"``: the openings of its sender's seals (``firmware_host.remote.seals`` checks them)."""
    return read_openings(data["reveal"], f'{what}: "reveal"') if "reveal" in data else {}


def seal(token: str, value: int, salt: str) -> str:
    """The seal of ``token`` holding ``value``: SHA-256 of ``"{token}:{value}:{salt}"``, in hex."""
    return hashlib.sha256(f"{token}:{value}:{salt}".encode()).hexdigest()


@dataclass(frozen=True)
class Opening:
    """A token's value and the salt that sealed it: anyone can check it against the seal."""

    value: int
    salt: str

    def opens(self, token: str, sealed: str) -> bool:
        return hmac.compare_digest(seal(token, self.value, self.salt), sealed)

    def json(self) -> dict[str, Any]:
        return {"value": self.value, "salt": self.salt}


def read_openings(raw: object, what: str) -> dict[str, Opening]:
    """Token -> opening from a message's JSON (a move's ``"reveal"``, the ``"opened"`` at the end); anything
    else is a ProtocolError saying what.  The one place a reveal's shape is checked."""
    if not isinstance(raw, dict):
        raise ProtocolError(f'{what} must map tokens to {{"value": N, "salt": HEX}}')
    found = {}
    for token, entry in raw.items():
        if not TOKEN.fullmatch(token):
            raise ProtocolError(f"{what}: {token[:40]!r} is not a token's name")
        if not isinstance(entry, dict) or set(entry) != {"value", "salt"}:
            raise ProtocolError(f'{what}: {token} must be {{"value": N, "salt": HEX}}')
        value, salted = entry["value"], entry["salt"]
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_VALUE:
            raise ProtocolError(f"{what}: {token}'s value must be a whole number 0-{MAX_VALUE}")
        if not isinstance(salted, str) or not SHA256_HEX.fullmatch(salted):
            raise ProtocolError(f"{what}: {token}'s salt must be 64 lowercase hex digits")
        found[token] = Opening(value, salted)
    return found


def short_topic(topic: str) -> str:
    """``topic`` cut short, to be quoted in a message."""
    return topic if len(topic) <= SHOWN_TOPIC else f"{topic[:SHOWN_TOPIC]}..."


@dataclass(frozen=True)
class Header:
    """A game as its host set it up: the same on every participant, or they cannot play together."""

    game: str
    options: dict[str, Any]
    #: The participant holding each seat, in player order.
    seats: tuple[str, ...]
    host: str
    #: ``position_hash`` of the starting position.
    setup: str
    #: FAIR or BY_HAND.
    dice: str = FAIR

    def held_by(self, name: str) -> tuple[int, ...]:
        return tuple(player for player, holder in enumerate(self.seats) if holder == name)

    def payload(self) -> bytes:
        return json.dumps({"v": VERSION, "game": self.game, "options": self.options, "seats": list(self.seats),
                           "host": self.host, "setup": self.setup, "dice": self.dice}, sort_keys=True).encode()

    @classmethod
    def parse(cls, payload: bytes) -> Header:
        what = "the game header"
        data = _object(payload, what)
        seats = _field(data, "seats", list, what)
        for holder in seats:
            check_name(holder, "a seat's holder")
        dice = _field(data, "dice", str, what)
        if dice not in (FAIR, BY_HAND):
            raise ProtocolError(f'{what}: "dice" {dice!r} must be "{FAIR}" or "{BY_HAND}"')
        return cls(_field(data, "game", str, what), _field(data, "options", dict, what), tuple(seats),
                   check_name(_field(data, "host", str, what), "the host"), _field(data, "setup", str, what), dice)

    def differences(self, other: Header) -> list[str]:
        """How ``other`` differs in what makes the game, in words ("options {...} against {...}"): options are
        compared as the game resolves them, so a header leaving out an option at its default is the same game."""
        compared = {name: (getattr(self, name), getattr(other, name))
                    for name in ("game", "options", "seats", "setup", "dice")}
        compared["options"] = (resolved_options(self.game, self.options), resolved_options(other.game, other.options))
        return [f"{name} {theirs!r} against {mine!r}" for name, (mine, theirs) in compared.items() if mine != theirs]


def resolved_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` as the game ``game`` resolves them, its defaults filled in; as written if it cannot (an
    unknown game or option: the difference then shows what was written)."""
    try:
        return dict(game_class(game)(**options).options)
    except (EngineError, ModuleNotFoundError):
        return options


@dataclass(frozen=True)
class MoveMessage:
    """The move that made ply ``seq`` of the game, from the participant ``by``."""

    seq: int
    move: str
    by: str
    hash: str
    #: The hidden values the move shows everyone, each opening its seal (token -> value and salt).
    reveal: dict[str, Opening] = field(default_factory=dict)

    def payload(self) -> bytes:
        data: dict[str, Any] = {"v": VERSION, "seq": self.seq, "move": self.move, "hash": self.hash}
        if self.reveal:
            data["reveal"] = {token: opening.json() for token, opening in self.reveal.items()}
        return json.dumps(data, sort_keys=True).encode()

    @classmethod
    def parse(cls, by: str, seq: int, payload: bytes) -> MoveMessage:
        what = f"move {seq} from {by}"
        data = _object(payload, what)
        topic_seq(data, seq, what)
        return cls(seq, _move_text(data, what), by, _hash(data, what), _reveal(data, what))


@dataclass(frozen=True)
class Refusal:
    """A participant's report of a move it would not apply."""

    by: str
    seq: int
    move: str
    reason: str

    def payload(self) -> bytes:
        return json.dumps({"v": VERSION, "seq": self.seq, "move": self.move, "reason": self.reason}).encode()

    @classmethod
    def parse(cls, by: str, payload: bytes) -> Refusal:
        what = f"a refusal from {by}"
        data = _object(payload, what)
        reason = _field(data, "reason", str, what)
        if len(reason) > MAX_REASON:
            raise ProtocolError(f'{what}: "reason" has {len(reason)} characters, more than {MAX_REASON}')
        return cls(by, _seq(data, what), _move_text(data, what), reason)


@dataclass(frozen=True)
class Rewrite:
    """``reporter``'s evidence that ``applied.by`` published two moves for ply ``applied.seq``: the first,
    which ``reporter`` applied, and ``refused``, the later copy it refuses."""

    reporter: str
    applied: MoveMessage
    refused: MoveMessage

    def payload(self) -> bytes:
        return json.dumps({"v": VERSION, "seq": self.applied.seq, "by": self.applied.by,
                           "applied": _copy(self.applied), "refused": _copy(self.refused)}, sort_keys=True).encode()

    @classmethod
    def parse(cls, reporter: str, seq: int, payload: bytes) -> Rewrite:
        what = f"a rewrite of move {seq} reported by {reporter}"
        data = _object(payload, what)
        topic_seq(data, seq, what)
        by = check_name(_field(data, "by", str, what), f"{what}: the rewriter")
        applied, refused = (_field(data, key, dict, what) for key in ("applied", "refused"))
        return cls(reporter, *(MoveMessage.parse(by, seq, json.dumps({"v": VERSION, "seq": seq, **copy}).encode())
                               for copy in (applied, refused)))


def _copy(message: MoveMessage) -> dict[str, Any]:
    """A move message's content, without its version and seq (those of the message holding it)."""
    return {key: value for key, value in json.loads(message.payload()).items() if key not in ("v", "seq")}


@dataclass(frozen=True)
class Presence:
    by: str
    online: bool

