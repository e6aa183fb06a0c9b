"""This board's part in a remote game: the header, the moves heard, and what it publishes.

The daemon asks ``candidates(seq)`` for the move that makes ply ``seq`` when a seat held
elsewhere is to move, checks it against its own game, and carries it out like the
computer's (``firmware_host.decided``), or ``refuse``s it, which is reported to all.
What it publishes is kept (``outbox``) and published again at every reconnect:
duplicates change nothing, and a broker that lost its retained moves gets them back.
Nothing here writes the game: the daemon does, through its journal.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import Game
from firmware_host.remote.dice import DICE_FIX, DiceMessage, dice_topic, has_dice
from firmware_host.remote.link import Connected, Disconnected, Event, Garbled, Link
from firmware_host.remote.protocol import (
    FAIR,
    Header,
    MoveMessage,
    Presence,
    Refusal,
    header_topic,
    move_topic,
    position_hash,
    refused_topic,
)
from firmware_host.seats import Seat

#: How long the host waits, once connected, for a header already on the broker before writing its own (seconds).
HEADER_WAIT_S = 1.0
#: Moves published again per ``hear`` after a reconnect: a long game's thousands go out over a second or so
#: of scans, never stalling one (each takes 0.1-0.2 ms: 20 take about one scan period of 5 ms at most).
RESEND_PER_HEAR = 20


def game_header(game: Game, seats: tuple[Seat, ...], name: str, dice: str = FAIR) -> Header:
    """The header of ``game`` played with ``seats`` (remote ones held by their holders, the rest by ``name``)
    and ``dice`` (always FAIR for a game without dice); the holder of the first seat hosts."""
    holders = tuple(seat.holder if seat.remote and seat.holder else name for seat in seats)
    start = game.new_initial_state()
    return Header(game.name, dict(game.options), holders, holders[0], position_hash(start),
                  dice if has_dice(start) else FAIR)


class Participant:
    """One participant (``link.name``) in the game ``link.game``, as ``header`` describes it."""

    def __init__(self, link: Link, header: Header, clock: Callable[[], float]) -> None:
        self.link = link
        self.name = link.name
        self.header = header
        self.clock = clock
        self.hosting = header.host == self.name
        #: The header the broker holds, once heard.
        self.heard_header: Header | None = None
        #: Every distinct move heard, by sequence number, in the order heard.
        self._moves: dict[int, list[MoveMessage]] = {}
        self._refused: set[tuple[int, str, str, str]] = set()
        #: Every move this participant published, by sequence number: published again on reconnecting.
        self.outbox: dict[int, MoveMessage] = {}
        #: Every distinct dice message heard, by roll and participant, in the order heard (the first one binds).
        self.dice_heard: dict[tuple[int, str], list[DiceMessage]] = {}
        #: This participant's part in each roll, the latest (commitment, then secret): published again on reconnecting.
        self.dice_outbox: dict[int, DiceMessage] = {}
        #: Participant -> whether it is online, as its presence last said.
        self.online: dict[str, bool] = {}
        #: A header on the broker that is not this game's: nothing can be played until it is mended.
        self.problem = ""
        #: Things to tell the person (a refusal of one of this board's moves, a garbled message).
        self.notes: list[str] = []
        self._connected_at: float | None = None
        #: Sequence numbers of this participant's moves still to publish again since the last reconnect.
        self._resend: list[int] = []
        self._resend_dice: list[int] = []

    @property
    def connected(self) -> bool:
        return self.link.connected

    def holds(self, player: int) -> bool:
        return 0 <= player < len(self.header.seats) and self.header.seats[player] == self.name

    def hear(self) -> frozenset[int]:
        """Take what the link heard (never blocks): the sequence numbers with new moves."""
        seqs: set[int] = set()
        for event in self.link.events():
            self._hear(event, seqs)
        for seq in self._resend[:RESEND_PER_HEAR]:
            self._send(self.outbox[seq])
        del self._resend[:RESEND_PER_HEAR]
        for seq in self._resend_dice[:RESEND_PER_HEAR]:
            self._send_dice(self.dice_outbox[seq])
        del self._resend_dice[:RESEND_PER_HEAR]
        if (self.hosting and self.heard_header is None and self._connected_at is not None
                and self.clock() - self._connected_at >= HEADER_WAIT_S):
            self.link.publish(header_topic(self.link.game), self.header.payload(), retain=True)
            self._connected_at = None  # its echo is heard as the broker's header
        return frozenset(seqs)

    def _hear(self, event: Event, seqs: set[int]) -> None:
        if isinstance(event, Connected):
            self._connected_at = self.clock()
            self._resend = sorted(self.outbox)
            self._resend_dice = sorted(self.dice_outbox)
        elif isinstance(event, MoveMessage):
            heard = self._moves.setdefault(event.seq, [])
            if event not in heard:  # a duplicate changes nothing
                heard.append(event)
                seqs.add(event.seq)
        elif isinstance(event, DiceMessage) and event.by in self.header.seats:
            parts = self.dice_heard.setdefault((event.seq, event.by), [])
            if event not in parts:
                parts.append(event)
        elif isinstance(event, Header):
            self.heard_header = event
            differences = self.header.differences(event)
            self.problem = (f"the broker's game {self.link.game} is not this board's: "
                            f"{'; '.join(differences)}; play it under another game id" if differences else "")
            if event.dice != self.header.dice:
                self.problem += f", or {DICE_FIX}"
        elif isinstance(event, Presence):
            self.online[event.by] = event.online
        elif isinstance(event, Refusal) and event.seq in self.outbox:
            self.notes.append(f"{event.by} refused move {event.seq} ({event.move}): {event.reason}")
        elif isinstance(event, Garbled):
            self.notes.append(f"a message on {event.topic} was ignored: {event.problem}")
        elif isinstance(event, Disconnected):
            self._connected_at = None

    def candidates(self, seq: int) -> list[MoveMessage]:
        """The moves heard for ply ``seq`` that were not refused, in the order they came."""
        return [message for message in self._moves.get(seq, ()) if _key(message) not in self._refused]

    def refuse(self, message: MoveMessage, reason: str) -> None:
        """Never apply ``message``; tell everyone why."""
        self._refused.add(_key(message))
        refusal = Refusal(self.name, message.seq, message.move, reason)
        self.link.publish(refused_topic(self.link.game, self.name), refusal.payload(), retain=False)

    def publish(self, message: MoveMessage) -> None:
        self.outbox[message.seq] = message
        self._send(message)

    def _send(self, message: MoveMessage) -> None:
        self.link.publish(move_topic(self.link.game, self.name, message.seq), message.payload(), retain=True)

    def publish_dice(self, message: DiceMessage) -> None:
        self.dice_outbox[message.seq] = message
        self._send_dice(message)

    def _send_dice(self, message: DiceMessage) -> None:
        self.link.publish(dice_topic(self.link.game, self.name, message.seq), message.payload(), retain=True)

    def close(self) -> None:
        self.link.close()


def _key(message: MoveMessage) -> tuple[int, str, str, str]:
    return message.seq, message.by, message.move, message.hash
