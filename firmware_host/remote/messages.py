"""Every kind of message a participant hears, and the one door for what a peer sends.

``parse_message`` takes any topic and any bytes and returns a message whose every field has
its type and range, or raises ProtocolError.  It sits above the modules that define the
messages (``protocol``: header, moves, refusals, rewrites, presence; ``dice``; ``seals``),
so each of those builds on ``protocol`` alone and none needs to know the others.
"""

from __future__ import annotations

from typing import TypeAlias

from firmware_host.remote import seals
from firmware_host.remote.dice import DiceMessage
from firmware_host.remote.protocol import (
    MAX_SEQ,
    NAME,
    PREFIX,
    SEQ,
    Header,
    MoveMessage,
    Presence,
    ProtocolError,
    Refusal,
    Rewrite,
    short_topic,
)

#: Every kind of message a participant hears.
Message: TypeAlias = Header | MoveMessage | Refusal | Rewrite | Presence | DiceMessage | seals.Seals | seals.Opened


def parse_message(game: str, topic: str, payload: bytes) -> Message | None:
    """The message on ``topic`` of ``game``; None for an empty payload (a retained message cleared).
    A topic or payload that breaks the protocol is a ProtocolError, and nothing else is raised."""
    base = f"{PREFIX}/{game}/"
    if not topic.startswith(base):
        raise ProtocolError(f"topic {short_topic(topic)!r} is not under {base}")
    parts = topic[len(base):].split("/")
    if parts == ["header"]:
        return Header.parse(payload) if payload else None
    if len(parts) >= 3 and parts[0] == "by" and NAME.fullmatch(parts[1]):
        by, rest = parts[1], parts[2:]
        ply = int(rest[1]) if len(rest) == 2 and SEQ.fullmatch(rest[1]) and int(rest[1]) <= MAX_SEQ else None
        if rest[0] == "move" and ply is not None:
            return MoveMessage.parse(by, ply, payload) if payload else None
        if rest[0] == "rewrite" and ply is not None:
            return Rewrite.parse(by, ply, payload) if payload else None
        if rest[0] == "dice" and ply is not None:
            return DiceMessage.parse(by, ply, payload) if payload else None
        if rest == ["presence"]:
            if payload not in (b"", b"online", b"offline"):
                raise ProtocolError(f"the presence of {by} must be online or offline, not {payload[:20]!r}")
            return Presence(by, payload == b"online") if payload else None
        if rest == ["refused"]:
            return Refusal.parse(by, payload) if payload else None
        if rest in (["seals"], ["opened"]):
            return seals.parse(by, rest[0], payload) if payload else None
    raise ProtocolError(f"topic {short_topic(topic)!r} is not one of the protocol's")
