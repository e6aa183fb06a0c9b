"""What a participant follows on the broker: the one list of its subscriptions.

A participant subscribes to exact topics, never to the whole game (``#``): subscribing to a
topic delivers the message retained there, so the subscriptions are the fetch.  It follows
the header; its own presence (what the others see of it); the presence, refusals, seals and
openings of each other seat's holder; and each other holder's moves and rewrite reports of each ply in a
window around the next ply it lacks, moved on as plies are applied.  The window reaches a
step behind that ply: a spectator that followed a rewrite goes back once a report of it
comes (docs/protocol.md).  Whatever else is retained under the game (junk, a holder's plies
far ahead, names holding no seat) is never sent to it, and the broker never has more to send
it at once than one message a topic followed: a few hundred, well within its queue for a
client (Mosquitto's ``max_queued_messages``, 1,000 by default; docs/mosquitto/gameboard.conf).

A new kind of message plugs in here: a holder's topic for the whole game goes in
``HOLDER_TOPICS``, a holder's topic of each ply (a roll's commitment) in ``PLY_TOPICS``.
Whoever keeps what they bring keeps it for the plies of the window only (``window``), as the
participant keeps moves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from firmware_host.remote.dice import dice_topic
from firmware_host.remote.protocol import header_topic, move_topic, presence_topic, refused_topic, rewrite_topic
from firmware_host.remote.seals import opened_topic, seals_topic

#: Plies followed: from a step before the step holding the next ply lacking.
WINDOW = 64
#: The window moves on by whole steps, so a game played live changes the subscriptions every STEP plies.
STEP = 16

#: This participant's own topics followed: ``topic(game, name)``.
OWN_TOPICS: tuple[Callable[[str, str], str], ...] = (presence_topic,)
#: Each other holder's topics followed for the whole game: ``topic(game, holder)``.
HOLDER_TOPICS: tuple[Callable[[str, str], str], ...] = (presence_topic, refused_topic, seals_topic, opened_topic)
#: Each other holder's topics followed for each ply of the window: ``topic(game, holder, ply)``.
PLY_TOPICS: tuple[Callable[[str, str, int], str], ...] = (move_topic, rewrite_topic, dice_topic)


def window(next_ply: int) -> range:
    """The plies followed while ``next_ply`` is the first one lacking: at least STEP before it (from the
    first), and at least WINDOW - 2 * STEP + 1 from it."""
    start = max(1, next_ply - (next_ply - 1) % STEP - STEP)
    return range(start, start + WINDOW)


def game_topics(game: str, name: str, holders: Iterable[str]) -> list[str]:
    """The topics ``name`` follows for the whole game: the header, its own, and each of ``holders``'."""
    return [header_topic(game), *(topic(game, name) for topic in OWN_TOPICS),
            *(topic(game, holder) for holder in holders for topic in HOLDER_TOPICS)]


def ply_topics(game: str, holders: Iterable[str], plies: range) -> list[str]:
    """Each holder's topics of each ply in ``plies``, the lowest ply first: a broker sends the retained
    messages in the order subscribed, so the plies needed first come first."""
    holders = tuple(holders)
    return [topic(game, holder, ply) for ply in plies for holder in holders for topic in PLY_TOPICS]


def most_sent_at_once(holders: int) -> int:
    """The most retained messages the broker can have to send a participant following ``holders`` holders
    at once: one a topic it follows.  The broker's queue for each client must hold that many."""
    return 1 + len(OWN_TOPICS) + holders * (len(HOLDER_TOPICS) + WINDOW * len(PLY_TOPICS))
