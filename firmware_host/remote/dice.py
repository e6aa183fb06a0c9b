"""Fair dice in a remote game: no participant chooses a roll, and everyone checks it (docs/remote.md, "Dice").

Before the roll of ply ``seq``, every participant holding a seat commits to a secret (a
retained ``by/{name}/dice/{seq}`` message with its commitment, a SHA-256), and reveals
the secret on the same topic only once it holds every other holder's commitment: nobody
can choose a secret knowing another's.  The roll derives from every secret together with
the chained hash of the history before it (``derive``); the holder of the seat that rolls
publishes it as the move of ply ``seq``, and every board and spectator derives it too:
a roll that is not the derived one, a secret that does not open its commitment, a
commitment changed once heard, are refused and shown.

A board's secrets derive from its remote game's key (``Journal.remote_key``) with HMAC:
a board that restarts between committing and revealing reveals what it committed to.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, Protocol

from engine.core import Game, Move, State
from engine.errors import GameboardError
from firmware_host.remote.protocol import (
    BY_HAND,
    FAIR,
    PREFIX,
    VERSION,
    Header,
    MoveMessage,
    ProtocolError,
    Refusal,
    _field,
    _object,
    SHA256_HEX,
    keyed,
    refused_topic,
    topic_seq,
)

if TYPE_CHECKING:
    from firmware_host.remote.moves import Chain

#: The largest denominator an outcome's probability is read with (6 dice of 6 faces: 46,656).
MAX_DENOMINATOR = 10**6


def dice_topic(game: str, by: str, seq: int) -> str:
    return f"{PREFIX}/{game}/by/{by}/dice/{seq}"


@dataclass(frozen=True)
class DiceMessage:
    """``by``'s part in the roll of ply ``seq``: its commitment, and its secret once revealed ("" before)."""

    seq: int
    by: str
    commit: str
    secret: str = ""

    def payload(self) -> bytes:
        data = {"v": VERSION, "seq": self.seq, "commit": self.commit}
        if self.secret:
            data["secret"] = self.secret
        return json.dumps(data, sort_keys=True).encode()

    @classmethod
    def parse(cls, by: str, seq: int, payload: bytes) -> DiceMessage:
        what = f"the dice of {by} for roll {seq}"
        data = _object(payload, what)
        topic_seq(data, seq, what)
        commit, secret = _field(data, "commit", str, what), data.get("secret", "")
        hexes = (commit, secret) if isinstance(secret, str) and secret else (commit,)
        if not isinstance(secret, str) or not all(SHA256_HEX.fullmatch(text) for text in hexes):
            raise ProtocolError(f'{what}: "commit" and "secret" must be 64 lowercase hex digits')
        return cls(seq, by, commit, secret)

    def opens(self, game: str) -> bool:
        """Whether the secret is the one committed to."""
        return commitment(game, self.by, self.seq, self.secret) == self.commit


def secret_for(key: str, seq: int) -> str:
    """This board's secret for the roll of ply ``seq``: HMAC-SHA256 of "dice SEQ" under its game's key."""
    return keyed(key, f"dice {seq}")


def commitment(game: str, by: str, seq: int, secret: str) -> str:
    """SHA-256 of "GAME:NAME:SEQ:SECRET": binds the secret to its game, its participant and its roll."""
    return hashlib.sha256(f"{game}:{by}:{seq}:{secret}".encode()).hexdigest()


def weights(outcomes: Sequence[tuple[Move, float]]) -> tuple[list[tuple[str, int]], int]:
    """The outcomes by their notation in code-point order, each with its probability times the least common
    denominator of the probabilities, and that denominator (Over-Pass's 21 rolls: 1 or 2 of 36)."""
    exact = [(str(move), Fraction(p).limit_denominator(MAX_DENOMINATOR)) for move, p in outcomes]
    total = lcm(*(p.denominator for _, p in exact))
    table = sorted((text, int(p * total)) for text, p in exact)
    if sum(weight for _, weight in table) != total:
        raise ValueError(f"the outcomes' probabilities add up to {sum(p for _, p in exact)}, not 1")
    return table, total


def derive(before: str, seq: int, secrets: Sequence[str], outcomes: Sequence[tuple[Move, float]]) -> str:
    """The roll of ply ``seq``: SHA-256 of "BEFORE:SEQ:SECRET1:SECRET2..." (``before``: the chained hash of the
    history before it), a big-endian number modulo the outcomes' denominator, picks the outcome whose running
    sum of weights first exceeds it."""
    digest = hashlib.sha256(":".join([before, str(seq), *secrets]).encode()).digest()
    table, total = weights(outcomes)
    left = int.from_bytes(digest, "big") % total
    for text, weight in table:
        if left < weight:
            return text
        left -= weight
    raise AssertionError("the weights add up to their total")


def has_dice(state: State) -> bool:
    """Whether ``state``'s game has chance nodes (it tells its outcomes)."""
    return type(state).chance_outcomes is not State.chance_outcomes


#: How a board or a page asks for dice by hand, for a message about dice that differ from the header's.
DICE_FIX = ('agree on the dice: [dice] mode = "entered" on a board, --entered-dice on a page, asks for dice by hand, '
            "and every seat must ask for the same")


def agree(header: Header, game: Game, game_id: str, by_hand: bool) -> None:
    """Refuse to join ``game_id`` (of ``game``) unless this participant asks for the dice its host's header says
    (a game without dice takes either)."""
    if not has_dice(game.new_initial_state()):
        return
    if header.dice == BY_HAND and not by_hand:
        raise GameboardError(f"the game {game_id} rolls its dice by hand, entered at each board, as its host chose: "
                             "join with --entered-dice to agree to it, or play a game with fair dice")
    if header.dice == FAIR and by_hand:
        raise GameboardError(f"the game {game_id} rolls fair dice through the broker: leave --entered-dice out "
                             "(dice entered by hand need every seat to agree when the game is set up)")


class Publisher(Protocol):
    """The link of a participant to its game on the broker (``link.Link``), as the dice use it."""

    game: str

    def publish(self, topic: str, payload: bytes, *, retain: bool) -> None: ...


class Party(Protocol):
    """What the dice need of the participant taking part (a ``participant.Participant``, which holds what it
    heard and publishes): its name and header, the dice heard and its own, its notes and its link."""

    name: str
    header: Header
    dice_heard: dict[tuple[int, str], list[DiceMessage]]
    dice_outbox: dict[int, DiceMessage]
    notes: deque[str]

    @property
    def link(self) -> Publisher: ...

    def publish_dice(self, message: DiceMessage) -> None: ...


class FairDice:
    """The fair rolls of one game as one participant takes part (``key``: its game's secret key; None: a
    spectator, which only checks)."""

    def __init__(self, participant: Party, key: str | None) -> None:
        self.participant = participant
        self.game = participant.link.game
        self.key = key if participant.header.held_by(participant.name) else None
        #: Every seat's holder, once each, in the header's order: the order the secrets are joined in.
        self.holders = tuple(dict.fromkeys(participant.header.seats))
        #: The rolls derived, by ply and the chained hash before it.
        self._rolled: dict[tuple[int, str], str] = {}
        self._refused: set[DiceMessage] = set()

    def own(self, key: str, seq: int, revealed: bool) -> DiceMessage:
        """This participant's commitment to roll ``seq``, with its secret if ``revealed``."""
        name, secret = self.participant.name, secret_for(key, seq)
        return DiceMessage(seq, name, commitment(self.game, name, seq, secret), secret if revealed else "")

    def reopen(self, state: State) -> None:
        """Every roll of ``state``'s history, revealed again: published again at each reconnect."""
        if self.key is None:
            return
        plies = len(state.history)
        popped = [state.pop() for _ in range(plies)]
        try:
            while popped:
                if state.is_chance_node():
                    self.participant.dice_outbox[len(state.history) + 1] = self.own(self.key, len(state.history) + 1,
                                                                                    True)
                state.push(popped.pop())
        finally:
            while popped:
                state.push(popped.pop())

    def roll(self, state: State, chain: Chain) -> str | None:
        """The roll of the chance node ``state`` (whose history ``chain`` covers) is at, once every holder's
        secret is in and checked; None before.  A participant holding a seat commits, then reveals once it
        holds every commitment."""
        seq, basis = len(state.history) + 1, chain.head
        if (seq, basis) in self._rolled:
            return self._rolled[seq, basis]
        me = self.participant.name if self.key is not None else None
        others = {holder: self._held(seq, holder) for holder in self.holders if holder != me}
        secrets = {holder: part.secret for holder, part in others.items() if part is not None and part.secret}
        if me is not None and self.key is not None:
            secrets[me] = self._take_part(self.key, seq, all(part is not None for part in others.values()))
        if not all(secrets.get(holder) for holder in self.holders):
            return None
        rolled = derive(basis, seq, [secrets[holder] for holder in self.holders], state.chance_outcomes())
        self._rolled[seq, basis] = rolled
        return rolled

    def _take_part(self, key: str, seq: int, all_committed: bool) -> str:
        """Commit to roll ``seq`` (once), reveal once ``all_committed`` (every other holder did); the secret
        revealed, "" before."""
        mine = self.participant.dice_outbox.get(seq)
        if mine is None:
            self.participant.publish_dice(mine := self.own(key, seq, False))
        if not mine.secret and all_committed:
            self.participant.publish_dice(mine := self.own(key, seq, True))
        return mine.secret

    def _held(self, seq: int, holder: str) -> DiceMessage | None:
        """``holder``'s part in roll ``seq`` as first committed, with its secret once one opens it; what
        else was heard is refused (a changed commitment, a secret that does not open it)."""
        heard = self.participant.dice_heard.get((seq, holder), [])
        if not heard:
            return None
        held = DiceMessage(seq, holder, heard[0].commit)
        for message in heard:
            if message.commit != held.commit:
                self._refuse(message, f"it changes {holder}'s commitment {held.commit[:16]}... once heard")
            elif message.secret and not message.opens(self.game):
                self._refuse(message, f"{holder}'s secret does not open its commitment")
            elif message.secret:
                held = message
        return held

    def _refuse(self, message: DiceMessage, reason: str) -> None:
        if message in self._refused:
            return
        self._refused.add(message)
        participant = self.participant
        participant.notes.append(f"refused {message.by}'s dice for roll {message.seq}: {reason}")
        refusal = Refusal(participant.name, message.seq, f"dice of {message.by}", reason)
        participant.link.publish(refused_topic(self.game, participant.name), refusal.payload(), retain=False)

    def wrong(self, state: State, chain: Chain, message: MoveMessage) -> str:
        """Why ``message`` is not the roll the dice gave at ``state`` ("" when it is)."""
        rolled = self.roll(state, chain)
        return "" if message.move == rolled else f"{message.move!r} is not the roll the fair dice gave ({rolled})"

    def waiting(self, state: State) -> str:
        """Who the roll waits for, in words ("bob's commitment", "bob and carol's secrets"); "" once the
        roll is derived."""
        seq = len(state.history) + 1
        parts = {holder: self._held(seq, holder) for holder in self.holders if holder != self.participant.name}
        missing = [holder for holder, part in parts.items() if part is None]
        kind = "commitment"
        if not missing:
            missing, kind = [holder for holder, part in parts.items() if part and not part.secret], "secret"
        if not missing:
            return ""
        return f"{' and '.join(missing)}'s {kind}{'s' if len(missing) > 1 else ''}"
