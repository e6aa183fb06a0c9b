"""Sealed hidden values: each board commits to the values it dealt its seats before play, and opens them.

A board that deals its own seats' hidden values (Pawns Crossing's tokens) could otherwise
declare any value it likes.  So, before its first move, it publishes a **seal** of each of its
tokens: the SHA-256 of ``"{token}:{value}:{salt}"``, the salt secret until opened
(``by/{name}/seals``, retained).  A declaration opens its token's seal (the reveal carries the
value and the salt), every receiver checks it before learning the value, and at the game's
end each board opens all its seals (``by/{name}/opened``, retained) for the others to check:
every opening, every value declared in play, and each colour's values as a whole.

The salts derive from the board's secret key of the game (``Journal.remote_key``) by
HMAC-SHA256, so a board that restarts opens exactly what it sealed.  docs/remote.md has the
format and a worked example.  A seal and its opening (``seal``, ``Opening``) are the protocol's,
since a move message carries the openings it reveals.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import IllegalMoveError, State
from engine.hidden import PUBLIC, facts, hides_values, revealed, seen_by
from firmware_host.remote.protocol import (
    PREFIX,
    SHA256_HEX,
    TOKEN,
    VERSION,
    Header,
    Opening,
    ProtocolError,
    _field,
    _object,
    keyed,
    read_openings,
    seal,
)


def seals_topic(game: str, by: str) -> str:
    return f"{PREFIX}/{game}/by/{by}/seals"


def opened_topic(game: str, by: str) -> str:
    return f"{PREFIX}/{game}/by/{by}/opened"


def salt(key: str | None, token: str) -> str:
    """The salt sealing ``token``'s value: HMAC-SHA256 of ``"seal:{token}"`` under the game's secret ``key``."""
    if key is None:
        raise ValueError("this game has no secret key to salt its hidden values with: is it a remote game?")
    return keyed(key, f"seal:{token}")


def openings(key: str | None, values: Mapping[str, int]) -> dict[str, Opening]:
    """The openings of ``values`` (token -> value) sealed under ``key``."""
    return {token: Opening(value, salt(key, token)) for token, value in values.items()}


def openings_json(found: Mapping[str, Opening]) -> dict[str, Any]:
    return {token: opening.json() for token, opening in sorted(found.items())}


@dataclass(frozen=True)
class Seals:
    """``by/{name}/seals``: a participant's seal of each token of the seats it holds, published before play."""

    by: str
    seals: dict[str, str]

    def payload(self) -> bytes:
        return json.dumps({"v": VERSION, "seals": dict(sorted(self.seals.items()))}).encode()

    @classmethod
    def parse(cls, by: str, payload: bytes) -> Seals:
        what = f"the seals of {by}"
        seals = _field(_object(payload, what), "seals", dict, what)
        for token, sealed in seals.items():
            if not TOKEN.fullmatch(token) or not isinstance(sealed, str) or not SHA256_HEX.fullmatch(sealed):
                raise ProtocolError(f"{what}: each token's name must map to 64 lowercase hex digits")
        return cls(by, seals)


@dataclass(frozen=True)
class Opened:
    """``by/{name}/opened``: every value a participant sealed, with its salt, published once the game is over."""

    by: str
    openings: dict[str, Opening]

    def payload(self) -> bytes:
        return json.dumps({"v": VERSION, "opened": openings_json(self.openings)}).encode()

    @classmethod
    def parse(cls, by: str, payload: bytes) -> Opened:
        what = f"the values {by} opened"
        return cls(by, read_openings(_object(payload, what).get("opened"), what))


def parse(by: str, kind: str, payload: bytes) -> Seals | Opened:
    """The message on ``by/{by}/{kind}``, ``kind`` "seals" or "opened"."""
    return Seals.parse(by, payload) if kind == "seals" else Opened.parse(by, payload)


# -- what a board seals, and what it checks ---------------------------------------------------------


def tokens_of(state: State, players: Collection[int]) -> frozenset[str]:
    """The tokens whose values ``players`` hold (and seal)."""
    return frozenset(token for player in players for token in state.token_values(player))  # type: ignore[attr-defined]


def sealing(state: State, players: Collection[int], key: str | None) -> dict[str, str]:
    """The seals of the values ``players`` hold in ``state`` (their own, dealt on this board)."""
    values = {token: state.values[token] for token in tokens_of(state, players)}  # type: ignore[attr-defined]
    return {token: seal(token, value, salt(key, token)) for token, value in values.items()}


def unsealed(state: State, header: Header, heard: Mapping[str, Seals], holder: str) -> str:
    """Why the moves of ``holder``'s seats cannot be checked yet ("" once they can): in a game that hides
    values, none is accepted before its holder's seals of exactly its tokens are heard."""
    if not hides_values(state):
        return ""
    seals = heard.get(holder)
    if seals is None:
        return f"waiting for {holder}'s seals (the hashes of its hidden values)"
    expected = tokens_of(state, header.held_by(holder))
    if set(seals.seals) != expected:
        wrong = sorted(set(seals.seals) ^ expected)
        return f"{holder}'s seals are not those of its tokens ({', '.join(wrong)}): its moves cannot be checked"
    return ""


def revealed_values(state: State, move_text: str, reveal: Mapping[str, Opening], seals: Seals | None) -> dict[str, int]:
    """The values a move (``move_text``, from ``seals.by``) reveals, each checked against its sender's seal: a
    declaration must open exactly its token's, any other move none.  A ValueError says what is wrong."""
    if not hides_values(state):
        if reveal:
            raise ValueError("this game hides no values: a move reveals none")
        return {}
    try:
        shown = set(revealed(state, state.parse_move(move_text)))
    except IllegalMoveError:
        return {}  # the checks that follow refuse it
    if set(reveal) != shown:
        wanted = f"its token {', '.join(sorted(shown))}'s value and salt" if shown else "nothing"
        raise ValueError(f"it reveals {', '.join(sorted(reveal)) or 'nothing'}; it must reveal {wanted}")
    if not reveal:
        return {}
    if seals is None:
        raise ValueError("its sender has published no seals")
    values = {}
    for token, opening in reveal.items():
        sealed = seals.seals.get(token)
        if sealed is None:
            raise ValueError(f"{token} was never sealed by {seals.by}")
        if not opening.opens(token, sealed):
            raise ValueError(f"{token}: the value {opening.value} does not open {seals.by}'s seal (not the value it "
                             "dealt)")
        values[token] = opening.value
    return values


def end_check(state: State, header: Header, heard: Mapping[str, Seals], opened: Mapping[str, Opened],
              me: str | None) -> str:
    """At the game's end, what the others' openings show: who is yet to open, every lie found, or that
    every value checks out.  ``state`` holds the values declared in play (learnt when they were)."""
    from engine.games.pawns_setup import colour_of, token_values

    if not hides_values(state) or not state.is_terminal():
        return ""
    public = Counter(token_values(state.game.board.equipment, len(header.seats)))  # type: ignore[attr-defined]
    shown = {token: entry["value"] for token, entry in seen_by(state, PUBLIC)["tokens"].items()
             if entry["value"] is not None}  # the tokens home
    shown.update({token: state.values[token] for token in facts(state, ())})  # type: ignore[attr-defined]
    waiting, lies = [], []
    for holder in sorted(set(header.seats) - {me}):
        tokens = tokens_of(state, header.held_by(holder))
        seals, theirs = heard.get(holder), opened.get(holder)
        if seals is None or theirs is None:
            waiting.append(holder)
            continue
        found = []
        if set(theirs.openings) != tokens:
            found.append(f"opened {len(theirs.openings)} values, not its {len(tokens)} tokens'")
        for token, opening in sorted(theirs.openings.items()):
            if token not in tokens:
                continue
            if not opening.opens(token, seals.seals.get(token, "")):
                found.append(f"{token}'s {opening.value} does not open its seal")
            elif token in shown and opening.value != shown[token]:
                found.append(f"{token} was shown in play as {shown[token]}, opened as {opening.value}")
        for colour in sorted({colour_of(token) for token in tokens}):
            dealt = Counter(opening.value for token, opening in theirs.openings.items() if colour_of(token) == colour)
            if dealt != public:
                found.append(f"{colour}'s values {sorted(dealt.elements())} are not the set "
                             f"{sorted(public.elements())}")
        if found:
            lies.append(f"{holder} cheated: {'; '.join(found)}")
    if lies or waiting:
        return "; ".join(lies + ([f"waiting for {', '.join(waiting)} to open their seals"] if waiting else []))
    return "every hidden value checks out against its seal"
