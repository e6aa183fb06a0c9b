"""Reading where a Pawns Crossing turn stands: a saved position's "turn" object, checked against
its layout (``pawns_setup.read_layout``) and refused with a message naming what is wrong.

Whether anything is left to do in the turn needs the rules' moves: the game checks that once
its state is set up.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from engine.boards.pawns_layout import PawnsBoard
from engine.core import PositionError, refuse_unknown_keys
from engine.games.pawns_moves import PHASES, Slide, reverse_slides
from engine.games.pawns_setup import ACE, Layout, colour_of

#: The keys of a position's "turn" object.
TURN_KEYS = ("phase", "player", "dice", "moved", "pawn_moved", "arrived", "last_slide", "winner")


@dataclass(frozen=True)
class Turn:
    """Where the turn stands: the values of a position's "turn" object, as the state keeps them."""

    phase: str
    player: int
    dice: dict[str, int]
    moved: int
    pawn_moved: str
    arrived: tuple[str, ...]
    last_slide: Slide | None
    winner: int | None


def read_turn(board: PawnsBoard, layout: Layout, raw: object) -> Turn:
    """The turn of a position whose layout is ``layout``, from its "turn" object ``raw``."""
    if not isinstance(raw, dict):
        raise PositionError(f'position: "turn" must be an object with {", ".join(TURN_KEYS)}')
    refuse_unknown_keys(raw, TURN_KEYS, 'position: "turn"')
    seats = layout.seats
    owner = {c: p for p, seat in enumerate(seats) for c in seat}
    phase, player = raw.get("phase"), raw.get("player")
    if phase not in PHASES:
        raise PositionError(f"position: turn phase {phase!r} is not one of {', '.join(PHASES)}")
    if not isinstance(player, int) or not 0 <= player < len(seats):
        raise PositionError(f"position: turn player {player!r} must be 0-{len(seats) - 1}")
    seat = seats[player]
    dice = raw.get("dice") or {}
    if not isinstance(dice, dict) or not set(dice) <= set(seat) or (dice and phase != "tokens") or not all(
            f in board.equipment.die_faces and (f or layout.pawns.get(c)) for c, f in dice.items()):
        raise PositionError(f"position: turn dice {json.dumps(dice)} must map colours of player {player} to "
                            f"faces {list(board.equipment.die_faces)} (blank only for a pawn on the board), "
                            f"and only in the tokens phase")
    moved, pawn_moved = raw.get("moved", 0), raw.get("pawn_moved", "")
    if not isinstance(moved, int) or not 0 <= moved <= len(seat):
        raise PositionError(f"position: turn moved {moved!r} must count the tokens moved this turn (0-{len(seat)})")
    if pawn_moved and (pawn_moved not in seat or phase != "pawns"):
        raise PositionError(f"position: turn pawn_moved {pawn_moved!r} must be a colour of player {player} "
                            f"in the pawns phase")
    arrived = tuple(raw.get("arrived") or ())
    for token in arrived:
        at = layout.where.get(token)
        tile = layout.tiles.get(at or "")
        if not tile or tile[0] != colour_of(token) or tile[1] == ACE or owner[tile[0]] != player:
            raise PositionError(f"position: arrived token {token!r} must be one of player {player}'s tokens "
                                f"on a destination tile of its colour")
    last = raw.get("last_slide")
    slides = {str(s): s for s in reverse_slides(board)}
    if last is not None and last not in slides:
        raise PositionError(f"position: turn last_slide {last!r} must be null or like {next(iter(slides))!r}")
    winner = raw.get("winner")
    with_tokens = {owner[colour_of(token)] for token, at in layout.where.items() if at}
    finished = [p for p in range(len(seats)) if p not in with_tokens]
    if (phase == "over") != (winner is not None) or (winner is not None and finished != [winner]) or (
            winner is None and finished):
        raise PositionError(f"position: the game is over exactly when one player has no tokens left "
                            f"(players without tokens: {finished}; winner {winner!r}, phase {phase!r})")
    placer = next((p for p in layout.order if any(layout.pawns[c] is None for c in seats[p])), None)
    if phase == "place" and player != placer:
        raise PositionError(f"position: in the place phase the player to place is {placer!r} (the first in "
                            f"order {list(layout.order)} with a pawn in hand), not {player}")
    return Turn(phase, player, dict(dice), moved, pawn_moved, arrived, slides[last] if last else None, winner)
