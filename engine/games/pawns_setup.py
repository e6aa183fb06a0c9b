"""The layout of Pawns Crossing: what lies where, dealt from a seed or read from a position.

One ``random.Random(seed)`` shuffles the tiles into the grid, shuffles and turns the
dominoes into the slots (the one left over is the Pusher), hides a value under each
token, rolls for the pawn-placing order and, with the fair-colour option, pairs the
colours.  The same seed always gives the same deal.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from engine.boards.pawns_layout import Equipment, PawnsBoard
from engine.core import STACK, PositionError, refuse_unknown_keys, stack_pieces

#: The null token: a wild card for any of its colour's destination tiles.
NULL = 0
ACE = 1

#: Players -> the colours each player commands, in the order of the rules.
SEATS: dict[int, tuple[tuple[str, ...], ...]] = {
    2: (("red", "black"), ("blue", "green")),
    3: (("red",), ("green",), ("blue",)),
    4: (("red",), ("black",), ("green",), ("blue",)),
}

#: Players -> whether the null tokens play (not in a two-player game).
WITH_NULLS: dict[int, bool] = {2: False, 3: True, 4: True}

#: Dice rolled per player for the starting order (a two-player seat rolls both its dice).
START_DICE: dict[int, int] = {2: 2, 3: 1, 4: 1}

Tile = tuple[str, int]
Domino = tuple[int, int]


@dataclass
class Layout:
    """What lies where: tiles and dominoes in their places, tokens, pawns, and who sits where.

    A deal starts one; a saved position (``read_layout``) restores one.
    """

    tiles: dict[str, Tile]
    dominoes: dict[str, Domino]
    pusher: Domino
    pusher_at: str | None
    seats: tuple[tuple[str, ...], ...]
    #: Players in pawn-placing order (highest starting roll first).
    order: tuple[int, ...]
    #: Token -> its hidden value (NULL for a null token).
    values: dict[str, int]
    #: Token -> the space it is on, None once it has gone home.
    where: dict[str, str | None]
    #: Pawn colour -> its hole; None before it is placed or once forced off the board.
    pawns: dict[str, str | None]
    #: Tokens whose values a declaration showed everyone: those gone home and those a wrong
    #: declaration sent back to their ace.  Public for the rest of the game.
    shown: frozenset[str] = frozenset()


def token_id(colour: str, index: int) -> str:
    """An opaque token name: the letter says which piece, never its hidden value."""
    return f"{colour}-{'abcdefgh'[index]}"


def token_values(kit: Equipment, players: int) -> tuple[int, ...]:
    """The values under one colour's tokens: each destination rank, and the null with 3-4 players."""
    return ((NULL,) if WITH_NULLS[players] else ()) + tuple(rank for rank in kit.ranks if rank != ACE)


def tile_name(tile: Tile) -> str:
    return f"{tile[0]}-{tile[1]}"


def colour_distances(board: PawnsBoard, tiles: dict[str, Tile]) -> dict[str, int]:
    """Per colour, the tiles-away distance from its ace to each of its other tiles, summed."""
    cell = {tiles[place]: (r, c) for r, row in enumerate(board.grid) for c, place in enumerate(row)}
    totals = {}
    for suit in board.equipment.suits:
        ar, ac = cell[(suit, ACE)]
        totals[suit] = sum(abs(cell[(suit, rank)][0] - ar) + abs(cell[(suit, rank)][1] - ac)
                           for rank in board.equipment.ranks if rank != ACE)
    return totals


def fair_seats(board: PawnsBoard, tiles: dict[str, Tile]) -> tuple[tuple[str, ...], ...]:
    """Two seats: the colours with the longest and shortest totals, and the other two.

    Ties go by the suit order of the board file, so the pairing is reproducible.
    """
    totals = colour_distances(board, tiles)
    ranked = sorted(board.equipment.suits, key=lambda s: (totals[s], list(board.equipment.suits).index(s)))
    extremes = {ranked[0], ranked[-1]}
    order = list(board.equipment.suits)
    first = tuple(s for s in order if s in extremes)
    return first, tuple(s for s in order if s not in extremes)


def start_order(rng: random.Random, players: int, faces: tuple[int, ...]) -> tuple[int, ...]:
    """Players by their starting roll, highest first; tied players roll again among themselves."""
    rolls: dict[int, tuple[int, ...]] = {p: () for p in range(players)}
    while True:
        counts = Counter(rolls.values())
        tied = [p for p in range(players) if counts[rolls[p]] > 1]
        if not tied:
            return tuple(sorted(range(players), key=lambda p: rolls[p], reverse=True))
        for p in tied:
            rolls[p] += (sum(rng.choice(faces) for _ in range(START_DICE[players])),)


def deal(board: PawnsBoard, players: int, seed: int, fair_colours: bool = False) -> Layout:
    """The set-up for ``players`` from ``seed`` (fair colour pairs only with two players)."""
    rng = random.Random(seed)
    kit = board.equipment
    tiles = list(kit.tiles)
    rng.shuffle(tiles)
    placed = dict(zip(board.tile_places, tiles))
    dominoes = [d if rng.random() < 0.5 else (d[1], d[0]) for d in kit.dominoes]
    rng.shuffle(dominoes)
    slots = dict(zip(board.slots, dominoes))
    seats = fair_seats(board, placed) if fair_colours and players == 2 else SEATS[players]
    tokens: dict[str, int] = {}
    for seat in seats:
        for colour in seat:
            values = list(token_values(kit, players))
            rng.shuffle(values)
            tokens.update({token_id(colour, i): value for i, value in enumerate(values)})
    aces = {tile[0]: place for place, tile in placed.items() if tile[1] == ACE}
    where: dict[str, str | None] = {token: aces[colour_of(token)] for token in tokens}
    pawns: dict[str, str | None] = {colour: None for seat in seats for colour in seat}
    return Layout(placed, slots, dominoes[-1], None, seats, start_order(rng, players, kit.die_faces),
                  tokens, where, pawns)


def colour_of(token: str) -> str:
    return token.rsplit("-", 1)[0]


def pieces_seen(where: dict[str, str | None], colour_of: dict[str, str],
                pawns: dict[str, str | None]) -> dict[str, str]:
    """The occupied locations as the sensors see them: token colours ("blue+red" when a tile holds
    several), pawn colours; never values.  ``colour_of`` maps each token to its colour."""
    held: dict[str, str] = {}
    for token, at in where.items():
        if at:
            colour = colour_of[token]
            held[at] = f"{held[at]}{STACK}{colour}" if at in held else colour
    for at, code in held.items():
        held[at] = STACK.join(sorted(stack_pieces(code)))
    for colour, hole in pawns.items():
        if hole:
            held[hole] = colour
    return held


def token_json(layout: Layout, token: str, value: int) -> dict[str, Any]:
    """A token's entry: its value and space, and ``"shown": true`` while it is on the board with its value
    shown (a token home was shown by going there; positions with nothing shown read as before)."""
    at = layout.where[token]
    entry: dict[str, Any] = {"value": value, "at": at}
    if at and token in layout.shown:
        entry["shown"] = True
    return entry


def layout_json(layout: Layout) -> dict[str, Any]:
    """The layout as JSON-ready data (values included: this is the engine's own record)."""
    return {
        "seats": [list(seat) for seat in layout.seats],
        "order": list(layout.order),
        "tiles": {place: tile_name(tile) for place, tile in layout.tiles.items()},
        "dominoes": {slot: list(pips) for slot, pips in layout.dominoes.items()},
        "pusher": {"domino": list(layout.pusher), "at": layout.pusher_at},
        "tokens": {t: token_json(layout, t, v) for t, v in layout.values.items()},
        "pawns": dict(layout.pawns),
    }


def _get(data: dict[str, Any], key: str, kind: type, what: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise PositionError(f'position: "{key}" must be {what}, not {json.dumps(value)}')
    return value


def _pips(raw: object, where: str, top: int) -> Domino:
    if (not isinstance(raw, list) or len(raw) != 2
            or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= top for p in raw)):
        raise PositionError(f"position: {where} must be a domino [a, b] of pips 0-{top}, not {json.dumps(raw)}")
    return raw[0], raw[1]


def read_layout(board: PawnsBoard, players: int, data: dict[str, Any]) -> Layout:
    """Check a saved layout against the kit and the rules; PositionError names what is wrong."""
    seats, order = _read_seats(players, data)
    tiles = _read_tiles(board, data)
    dominoes, pusher, pusher_at = _read_dominoes(board, data)
    colours = [c for seat in seats for c in seat]
    values, where, shown = _read_tokens(board, players, colours, pusher_at, data)
    pawns = _get(data, "pawns", dict, "an object: pawn colour -> hole or null")
    if set(pawns) != set(colours) or not all(h is None or h in board.holes for h in pawns.values()):
        raise PositionError(f"position: pawns must give each of {', '.join(colours)} a hole "
                            f"({', '.join(board.holes)}) or null, not {json.dumps(pawns)}")
    held = [h for h in pawns.values() if h]
    if len(held) != len(set(held)):
        raise PositionError(f"position: two pawns share a hole ({sorted(held)})")
    return Layout(tiles, dominoes, pusher, pusher_at, seats, order, values, where, dict(pawns), shown)


def _read_seats(players: int, data: dict[str, Any]) -> tuple[tuple[tuple[str, ...], ...], tuple[int, ...]]:
    raw = _get(data, "seats", list, f"a list of {players} lists of colours")
    expected = sorted(c for seat in SEATS[players] for c in seat)
    size = len(SEATS[players][0])
    if (len(raw) != players or not all(isinstance(seat, list) and len(seat) == size for seat in raw)
            or sorted(str(c) for seat in raw for c in seat) != expected):
        raise PositionError(f"position: seats {json.dumps(raw)} must give each of the {players} players "
                            f"{size} of the colours {', '.join(expected)}, each colour once")
    order = _get(data, "order", list, "the players in pawn-placing order")
    if sorted(map(str, order)) != [str(p) for p in range(players)] or not all(isinstance(p, int) for p in order):
        raise PositionError(f"position: order {order} must list the players 0-{players - 1} once each")
    return tuple(tuple(seat) for seat in raw), tuple(order)


def _read_tiles(board: PawnsBoard, data: dict[str, Any]) -> dict[str, Tile]:
    names = {tile_name(tile): tile for tile in board.equipment.tiles}
    raw = _get(data, "tiles", dict, "an object: tile place -> tile name")
    if set(raw) != set(board.tile_places) or sorted(map(str, raw.values())) != sorted(names):
        raise PositionError(f"position: tiles must name every tile place {board.tile_places[0]}.."
                            f"{board.tile_places[-1]} once, with each of the tiles {', '.join(names)} once")
    return {place: names[raw[place]] for place in board.tile_places}


def _read_dominoes(board: PawnsBoard, data: dict[str, Any]) -> tuple[dict[str, Domino], Domino, str | None]:
    kit = board.equipment
    top = max(max(d) for d in kit.dominoes)
    raw = _get(data, "dominoes", dict, "an object: domino slot -> [a, b]")
    if set(raw) != set(board.slots):
        odd = sorted(set(board.slots) ^ set(raw))
        raise PositionError(f"position: dominoes must fill exactly the slots of the board; check {odd[:4]}")
    dominoes = {slot: _pips(raw[slot], f"domino {slot}", top) for slot in board.slots}
    pusher_data = _get(data, "pusher", dict, 'an object {"domino": [a, b], "at": place or null}')
    refuse_unknown_keys(pusher_data, ("domino", "at"), 'position: "pusher"')
    pusher = _pips(pusher_data.get("domino"), "the pusher", top)
    pusher_at = pusher_data.get("at")
    if pusher_at is not None and pusher_at not in board.pusher_places:
        raise PositionError(f"position: the pusher lies at {json.dumps(pusher_at)}, which is not a pusher place "
                            f"({', '.join(board.pusher_places)}) nor null (beside the board)")
    used = sorted(tuple(sorted(d)) for d in [*dominoes.values(), pusher])
    if used != sorted(kit.dominoes):
        raise PositionError("position: the dominoes and the pusher must be the game's domino set, each once")
    return dominoes, pusher, pusher_at


def _read_tokens(board: PawnsBoard, players: int, colours: list[str], pusher_at: str | None,
                 data: dict[str, Any]) -> tuple[dict[str, int], dict[str, str | None], frozenset[str]]:
    """Token values and spaces (tiles, half-dominoes and the halves of the Pusher where it lies), and
    the tokens whose values are shown: those home and those marked ``"shown": true``."""
    active = set(board.pusher_places[pusher_at].halves) if pusher_at else set()
    spaces = set(board.tile_places) | (set(board.half_slot) - board.pusher_halves) | active
    raw = _get(data, "tokens", dict, 'an object: token -> {"value": v, "at": space or null}')
    expected = token_values(board.equipment, players)
    values: dict[str, int] = {}
    where: dict[str, str | None] = {}
    shown: set[str] = set()
    for colour in colours:
        for token in (token_id(colour, i) for i in range(len(expected))):
            entry = raw.get(token)
            at = entry.get("at", "missing") if isinstance(entry, dict) else "missing"
            if at is not None and (not isinstance(at, str) or at not in spaces):
                raise PositionError(f"position: token {token} needs {{\"value\": v, \"at\": space or null}} with "
                                    f"a tile place or an active half-domino, not {json.dumps(entry)}")
            refuse_unknown_keys(entry, ("value", "at", "shown"), f"position: token {token}")
            if "shown" in entry and (entry["shown"] is not True or at is None):
                raise PositionError(f"position: token {token}'s \"shown\" must be true (a declaration showed its "
                                    f"value and it is back on the board) or left out, not {json.dumps(entry)}")
            values[token], where[token] = entry.get("value"), at
            if at is None or "shown" in entry:
                shown.add(token)
        found = [value for token, value in values.items() if colour_of(token) == colour]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in found) or sorted(found) != sorted(expected):
            raise PositionError(f"position: the {colour} tokens must hold the values "
                                f"{list(expected)} once each (0 is the null), not {found}")
    extra = set(raw) - set(values)
    if extra:
        raise PositionError(f"position: unknown token(s) {', '.join(sorted(extra))} for these seats")
    on_halves = [at for at in where.values() if at and at not in board.tile_places]
    if len(on_halves) != len(set(on_halves)):
        raise PositionError(f"position: two tokens share a half-domino ({sorted(on_halves)}); one at most")
    return values, where, frozenset(shown)
