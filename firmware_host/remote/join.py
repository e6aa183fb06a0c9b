"""Taking part in a remote game: as its host (the game defined here) or by joining (the broker's header).

``host`` opens the link for a game this board defines (its seats say which are held
elsewhere, ``remote:NAME``); ``join`` waits for the header a host wrote and gives this
participant's seats: its own are ``mine`` (a person by default), every other one
``remote:HOLDER``.  A spectator joins holding no seat.  A participant that joined a game
keeps its header in its journal (``kept_header``): restarted, it takes the game up again
from there, whether the broker is reachable or has lost the header.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from engine.core import EngineError, Game
from engine.deals import fresh_deal, same_game
from engine.errors import GameboardError
from engine.registry import game_class
from firmware_host.journal import Journal
from firmware_host.remote.link import Broker, Link
from firmware_host.remote.participant import Participant, game_header
from firmware_host.remote.protocol import FAIR, Header, ProtocolError
from firmware_host.seats import HUMAN, Seat

#: How long a participant joining waits for the game's header before giving up (seconds).
JOIN_WAIT_S = 15.0


def host(broker: Broker, game_id: str, name: str, game: Game, seats: tuple[Seat, ...],
         clock: Callable[[], float] = time.monotonic, dice: str = FAIR) -> Participant:
    """This participant in the game ``game_id`` defined here, ``seats`` in player order, its dice ``dice``
    (FAIR, or BY_HAND: every seat must ask for it too)."""
    if not any(seat.remote for seat in seats):
        raise GameboardError(f"the remote game {game_id} has no seat held elsewhere: write the others' seats "
                             "as remote:NAME")
    if any(seat.remote and seat.holder == name for seat in seats):
        raise GameboardError(f"a seat is remote:{name}, this participant's own name: write it human or computer")
    return Participant(Link(broker, game_id, name), game_header(game, seats, name, dice), clock)


def hosted_game(game: Game, kept: Header | None) -> Game:
    """The game to host as asked (``game``): the deal of the unfinished game ``kept`` describes (its header, as
    the journal kept it), so that a host restarted takes its game up again; else dealt afresh (``engine.deals``)
    unless a seed is asked for.  The header carries the seed: every participant deals the same layout."""
    if kept is not None and kept.game == game.name:
        try:
            played = game_class(kept.game)(**kept.options)
        except EngineError:  # not a game this release plays: the daemon starts a new one
            return fresh_deal(game)
        if same_game(game, played):
            return played
    return fresh_deal(game)


def join(broker: Broker, game_id: str, name: str, mine: Seat = HUMAN, *, wait: float = JOIN_WAIT_S,
         kept: Header | None = None, clock: Callable[[], float] = time.monotonic
         ) -> tuple[Participant, Game, tuple[Seat, ...]]:
    """This participant in the game ``game_id`` its host set up on the broker: the participant, the game and
    the seats (``mine`` where the header names this participant).  ``kept``: the header it joined with
    before (``kept_header``), taken without waiting for the broker; the broker's is checked against it once
    heard, and another game there is reported, never switched to."""
    link = Link(broker, game_id, name)
    header = kept or link.header(wait)
    if header is None:
        problem = link.problem
        link.close()
        raise GameboardError(f"no game {game_id} on {broker} after {wait:g} s"
                             + (f" ({problem})" if problem else ": has its host started it?"))
    try:
        game = game_class(header.game)(**header.options)
    except (KeyError, ValueError) as exc:
        link.close()
        raise GameboardError(f"the game {game_id} on {broker} cannot be played here: {exc}") from None
    if len(header.seats) != game.num_players:
        link.close()
        raise GameboardError(f"the game {game_id} on {broker} cannot be played here: its header gives "
                             f"{len(header.seats)} seats for {game.title}'s {game.num_players} players")
    seats = tuple(mine if holder == name else Seat("remote", holder=holder) for holder in header.seats)
    return Participant(link, header, clock), game, seats


def kept_header(journal: Path, game_id: str) -> Header | None:
    """The header of the game ``game_id`` if it is the unfinished game of the journal at ``journal``."""
    if not journal.exists():
        return None
    kept = Journal(journal)
    try:
        text = kept.unfinished_header(game_id)
    finally:
        kept.close()
    try:
        return None if text is None else Header.parse(text.encode())
    except ProtocolError:  # kept by a release speaking another version: that game cannot go on
        return None
