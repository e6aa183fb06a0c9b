"""This board's part in a remote game: the header, the moves heard, and what it publishes.

The daemon takes what came (``hear``), saying which ply it lacks, asks ``candidates(seq)``
for the move that makes ply ``seq`` when a seat held elsewhere is to move, checks it against
its own game, and carries it out like the computer's (``firmware_host.decided``), or
``refuse``s it, which is reported to all.  Only the plies of a window from the one it lacks
are fetched and kept (``firmware_host.remote.following``): what a peer's junk costs is bounded.
What it publishes is kept (``outbox``, its seals and their openings) and published again at
every reconnect: duplicates change nothing, and a broker that lost its retained moves gets them back.
The host checks the broker's header at every (re)connection and writes its own again
when the broker has none, so that a late participant can always start.
The first copy of a move that passes the checks is the move (``apply``): another copy of
it from the same holder is a rewrite, refused and reported to all, retained (``Rewrite``).
Nothing here writes the game: the daemon does, through its journal.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from engine.core import Game
from firmware_host.remote.dice import DICE_FIX, DiceMessage, dice_topic, has_dice
from firmware_host.remote.following import game_topics, ply_topics, window
from firmware_host.remote.link import Connected, Disconnected, Event, Garbled, Link
from firmware_host.remote.protocol import (
    FAIR,
    Header,
    MoveMessage,
    Opening,
    Presence,
    ProtocolError,
    Refusal,
    Rewrite,
    header_topic,
    move_topic,
    position_hash,
    presence_topic,
    refused_topic,
    rewrite_topic,
)
from firmware_host.remote.seals import Opened, Seals, opened_topic, seals_topic
from firmware_host.seats import Seat

#: What a participant publishes retained, and again at every (re)connection.
Retained = MoveMessage | DiceMessage | Rewrite | Seals | Opened
#: How long the host waits, once connected, for a header already on the broker before writing its own (seconds).
HEADER_WAIT_S = 1.0
#: Retained messages published again per ``hear`` after a reconnect: a long game's thousands go out over a second or so
#: of scans, never stalling one (each takes 0.1-0.2 ms: 20 take about one scan period of 5 ms at most).
RESEND_PER_HEAR = 20
#: How long the next ply may lack a move, nothing else arriving, before its window is fetched again (seconds):
#: a broker whose queue is smaller than a window dropped some of it.
REFETCH_S = 3.0
#: Distinct copies kept of one sender's move for one ply, not yet refused: a board sends one, so the rest are
#: mistakes or junk, and a peer sending thousands costs no more than these and the refused ones kept.
COPIES_KEPT = 4
#: Refused copies kept of one sender's move for one ply (a spectator that goes back reconsiders them).
REFUSED_KEPT = 16
#: Notes kept for the person (the newest): a flood of junk costs no more.
NOTES_KEPT = 16


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
        #: The header the broker holds, heard since the link last connected (a broker that went away may come
        #: back without it: the host writes it again then).
        self.heard_header: Header | None = None
        #: The first ply whose move this participant lacks (as ``hear`` was last told).
        self.next_ply = 1
        #: Every distinct move heard for a ply of the window (``COPIES_KEPT`` a sender at most), by sequence
        #: number, in the order heard.
        self._moves: dict[int, list[MoveMessage]] = {}
        #: The plies followed now, and when the broker last sent one or was asked for them.
        self._window = range(0)
        self._fetched_at = clock()
        self._refused: set[CopyKey] = set()
        #: The rewrites among them: refused whatever history is followed.
        self._rewritten: set[CopyKey] = set()
        #: Every move this participant published, by sequence number: published again on reconnecting.
        self.outbox: dict[int, MoveMessage] = {}
        #: Every distinct dice message heard, by roll and participant, in the order heard (the first one binds).
        self.dice_heard: dict[tuple[int, str], list[DiceMessage]] = {}
        #: This participant's part in each roll, the latest (commitment, then secret): published again on reconnecting.
        self.dice_outbox: dict[int, DiceMessage] = {}
        #: The copy of each other participant's move that this one applied, by sequence number.
        self.applied: dict[int, MoveMessage] = {}
        #: The rewrites this participant found, by sequence number: published again on reconnecting.
        self.rewrites: dict[int, Rewrite] = {}
        #: The rewrites other participants reported, in the order heard.
        self.reported: list[Rewrite] = []
        #: This participant's seals of the hidden values it dealt, and their openings once the game is over.
        self.own_seals: Seals | None = None
        self.own_opened: Opened | None = None
        #: Participant -> the first seals heard from it, and its openings at the game's end.
        self.seals: dict[str, Seals] = {}
        self.opened: dict[str, Opened] = {}
        #: Participant -> whether it is online, as its presence last said.
        self.online: dict[str, bool] = {}
        #: A header on the broker that is not this game's: nothing can be played until it is mended.
        self.problem = ""
        #: Things to tell the person (a refusal of one of this board's moves, a garbled message).
        self.notes: deque[str] = deque(maxlen=NOTES_KEPT)
        self._connected_at: float | None = None
        #: This participant's retained messages still to publish again since the last reconnect, by topic.
        self._resend: list[tuple[str, Retained]] = []
        self._follow()  # from the first ply until told otherwise: subscribed as the link connects

    @property
    def connected(self) -> bool:
        return self.link.connected

    def holds(self, player: int) -> bool:
        return 0 <= player < len(self.header.seats) and self.header.seats[player] == self.name

    def hear(self, next_ply: int | None = None) -> frozenset[int]:
        """Take what the link heard (never blocks), ``next_ply`` being the first ply whose move this
        participant lacks (the daemon and the spectator say it; None: as last said): the sequence numbers
        with new moves.  The plies of its window are followed, those before it forgotten."""
        seqs: set[int] = set()
        self.next_ply = self.next_ply if next_ply is None else next_ply
        self._follow()
        for event in self.link.events():
            self._hear(event, seqs)
        if seqs:
            self._fetched_at = self.clock()
        elif not self.candidates(self.next_ply) and self.clock() - self._fetched_at >= REFETCH_S:
            self.link.fetch_again(self._ply_topics(range(self.next_ply, self._window.stop)))
            self._fetched_at = self.clock()
        for topic, message in self._resend[:RESEND_PER_HEAR]:
            self._send(topic, message)
        del self._resend[:RESEND_PER_HEAR]
        if (self.hosting and self.heard_header is None and self._connected_at is not None
                and self.clock() - self._connected_at >= HEADER_WAIT_S):
            self.link.publish(header_topic(self.link.game), self.header.payload(), retain=True)
            self._connected_at = None  # its echo is heard as the broker's header
        return frozenset(seqs)

    def _hear(self, event: Event, seqs: set[int]) -> None:
        if isinstance(event, Connected):
            self._connected_at = self._fetched_at = self.clock()
            self._resend = self._retained()
        elif isinstance(event, MoveMessage):
            if event.seq not in self._window:  # a ply long applied, or not asked for
                return
            heard = self._moves.setdefault(event.seq, [])
            if event not in heard and self._room(heard, event.by):  # a duplicate changes nothing
                heard.append(event)
                seqs.add(event.seq)
                self._refuse_rewrite(event)
        elif isinstance(event, DiceMessage) and event.by in self.header.seats and event.seq in self._window:
            parts = self.dice_heard.setdefault((event.seq, event.by), [])
            if event not in parts and len(parts) < COPIES_KEPT:
                parts.append(event)
        elif isinstance(event, Rewrite):
            if event.reporter != self.name and event not in self.reported:
                self.reported.append(event)
        elif isinstance(event, Header):
            self.heard_header = event
            differences = self.header.differences(event)
            self.problem = (f"the broker's game {self.link.game} is not this board's: "
                            f"{'; '.join(differences)}; play it under another game id" if differences else "")
            if event.dice != self.header.dice:
                self.problem += f", or {DICE_FIX}"
        elif isinstance(event, Seals):
            self._keep_first(self.seals, event, "seals")
        elif isinstance(event, Opened):
            self._keep_first(self.opened, event, "openings")
        elif isinstance(event, Presence):
            self.online[event.by] = event.online
            if event.by == self.name and not event.online and self.connected:
                # the last will of a connection of this participant's that the broker saw die only now (a new
                # client id at every start: a page restarted before the broker noticed the old one had gone)
                self.link.publish(presence_topic(self.link.game, self.name), b"online", retain=True)
        elif isinstance(event, Refusal) and event.seq in self.outbox:
            self.notes.append(f"{event.by} refused move {event.seq} ({event.move}): {event.reason}")
        elif isinstance(event, Garbled):
            self.notes.append(f"a message on {event.topic} was ignored: {event.problem}")
        elif isinstance(event, Disconnected):
            self._connected_at = self.heard_header = None

    def plays(self, kept: str | None) -> bool:
        """Whether a game a journal kept with the header ``kept`` is this participant's game (a game begun by a
        release that kept no header is taken to be)."""
        if kept is None:
            return True
        try:
            return not self.header.differences(Header.parse(kept.encode()))
        except ProtocolError:  # kept under another version of the protocol
            return False

    def _follow(self) -> None:
        """Follow the window of the next ply lacking: subscribed to, what is retained there is sent."""
        plies = window(self.next_ply)
        if plies != self._window:
            self._window = plies
            self._moves = {ply: heard for ply, heard in self._moves.items() if ply in plies}
            self.dice_heard = {key: parts for key, parts in self.dice_heard.items() if key[0] in plies}
            self._refused = {key for key in self._refused if key[0] in plies}
            self._fetched_at = self.clock()
            self.link.follow(game_topics(self.link.game, self.name, self._holders()) + self._ply_topics(plies))

    def _holders(self) -> list[str]:
        """The participants whose messages this one follows: the seats' holders but itself."""
        return [holder for holder in dict.fromkeys(self.header.seats) if holder != self.name]

    def _ply_topics(self, plies: range) -> list[str]:
        return ply_topics(self.link.game, self._holders(), plies)

    def _keep_first(self, kept: dict[str, Any], event: Seals | Opened, what: str) -> None:
        """Keep the first ``what`` heard from a participant: a change would rewrite what it committed to."""
        if kept.setdefault(event.by, event) != event:
            self.notes.append(f"{event.by} published other {what} than it did first: the first are kept")

    def _room(self, heard: list[MoveMessage], by: str) -> bool:
        """Whether ``heard`` (the copies of one ply) has room for another copy from ``by``: COPIES_KEPT not yet
        refused, so that junk refused makes way for the real move (the broker sends its retained copy again);
        the oldest refused copy goes once REFUSED_KEPT are kept."""
        mine = [copy for copy in heard if copy.by == by]
        refused = [copy for copy in mine if _key(copy) in self._refused]
        if len(mine) - len(refused) >= COPIES_KEPT:
            return False
        if len(refused) >= REFUSED_KEPT:
            heard.remove(refused[0])
        return True

    def candidates(self, seq: int) -> list[MoveMessage]:
        """The moves heard for ply ``seq`` that were not refused, in the order they came."""
        return [message for message in self._moves.get(seq, ()) if _key(message) not in self._refused]

    def resume(self, history: dict[int, MoveMessage]) -> None:
        """Take the moves of the game so far (from the journal), each as its holder published it."""
        for seq, message in history.items():
            if message.by == self.name:
                self.outbox[seq] = message
            else:
                self.applied[seq] = message

    def apply(self, message: MoveMessage) -> None:
        """``message`` is the move of its ply here: any other copy of it from its holder is a rewrite."""
        self.applied[message.seq] = message
        for copy in self._moves.get(message.seq, ()):
            self._refuse_rewrite(copy)

    def follow_report(self, rewrite: Rewrite) -> None:
        """Take the copy another participant applied as the move of its ply, and set the rewrite aside (a
        spectator does, having heard only the rewrite if it started after it; the moves after must chain
        from the copy it now follows, so a false report shows as refused moves)."""
        heard = self._moves.setdefault(rewrite.applied.seq, [])
        if rewrite.applied in heard:
            heard.remove(rewrite.applied)
        heard.insert(0, rewrite.applied)
        self._refused.add(_key(rewrite.refused))
        self._rewritten.add(_key(rewrite.refused))

    def reconsider(self, seq: int) -> None:
        """Forget the refusals of moves of ply ``seq`` and later, but rewrites: they were checked against a
        history given up (a spectator's, once a report showed it followed a rewrite)."""
        self._refused = {key for key in self._refused if key[0] < seq or key in self._rewritten}
        for later in [applied for applied in self.applied if applied >= seq]:
            del self.applied[later]

    def _refuse_rewrite(self, copy: MoveMessage) -> None:
        """Refuse ``copy`` if its holder's move of that ply was applied here as another (another chained hash:
        the hash covers the move and the history before it)."""
        applied = self.applied.get(copy.seq)
        if applied is None or copy.by != applied.by or copy.hash == applied.hash or _key(copy) in self._refused:
            return
        rewrite = self.rewrites[copy.seq] = Rewrite(self.name, applied, copy)
        self._rewritten.add(_key(copy))
        self._send(rewrite_topic(self.link.game, self.name, copy.seq), rewrite)
        self.refuse(copy, f"{copy.by} rewrote move {copy.seq}: {applied.move} was applied here first")
        self.notes.append(f"{copy.by} rewrote move {copy.seq} ({applied.move}) as {copy.move}: refused, "
                          f"{applied.move} stands")

    def refuse(self, message: MoveMessage, reason: str) -> None:
        """Never apply ``message``; tell everyone why."""
        self._refused.add(_key(message))
        refusal = Refusal(self.name, message.seq, message.move, reason)
        self.link.publish(refused_topic(self.link.game, self.name), refusal.payload(), retain=False)

    def publish(self, message: MoveMessage) -> None:
        self.outbox[message.seq] = message
        self._send(move_topic(self.link.game, self.name, message.seq), message)

    def seal(self, seals: Seals) -> None:
        """Publish the seals of this participant's hidden values (before its first move, and at every reconnect)."""
        self.own_seals = seals
        self._send(seals_topic(self.link.game, self.name), seals)

    def open(self, opened: Opened) -> None:
        """Publish every value this participant sealed, with its salt: the game is over."""
        self.own_opened = opened
        self._send(opened_topic(self.link.game, self.name), opened)

    def _retained(self) -> list[tuple[str, Retained]]:
        """Every retained message this participant published, by topic, to publish again at a (re)connection
        (a broker may have lost them): its seals and openings first, then its rewrite reports, moves and dice."""
        game, name = self.link.game, self.name
        sealings = [(seals_topic(game, name), self.own_seals), (opened_topic(game, name), self.own_opened)]
        return [*((topic, sealing) for topic, sealing in sealings if sealing is not None),
                *((rewrite_topic(game, name, seq), self.rewrites[seq]) for seq in sorted(self.rewrites)),
                *((move_topic(game, name, seq), self.outbox[seq]) for seq in sorted(self.outbox)),
                *((dice_topic(game, name, seq), self.dice_outbox[seq]) for seq in sorted(self.dice_outbox))]

    def _send(self, topic: str, message: Retained) -> None:
        self.link.publish(topic, message.payload(), retain=True)

    def publish_dice(self, message: DiceMessage) -> None:
        self.dice_outbox[message.seq] = message
        self._send(dice_topic(self.link.game, self.name, message.seq), message)

    def close(self) -> None:
        self.link.close()


#: A copy of a move, told apart from any other: its ply, sender, move, hash and what it reveals.
CopyKey = tuple[int, str, str, str, tuple[tuple[str, Opening], ...]]


def _key(message: MoveMessage) -> CopyKey:
    """A refused message: another copy differing in anything, what it reveals included, is checked anew."""
    return message.seq, message.by, message.move, message.hash, tuple(sorted(message.reveal.items()))
