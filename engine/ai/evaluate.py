"""How good a position looks to each player, where a search stops before the game ends.

``evaluate(state)`` gives every player's value in [-1, 1]: the returns at the end of a
game, otherwise a per-game heuristic of progress towards that game's goal, each
player's progress measured against the best of the others.  Where the rules hide values
(Pawns Crossing) it reads those of the position it is given: players evaluate positions
sampled from what their seat can see (``engine.ai.hidden``), never the real one.
"""

from __future__ import annotations

import functools
import math
from collections import deque
from collections.abc import Callable, Sequence

from engine.core import State

Values = tuple[float, ...]


def evaluate(state: State) -> Values:
    """Every player's value in [-1, 1]."""
    outcome = state.outcome()
    if outcome is not None:
        return outcome.returns
    progress = PROGRESS.get(state.game.name)
    if progress is None:
        return (0.0,) * state.game.num_players
    return relative(progress(state))


#: How sharply a lead in progress turns into a value: a lead of a quarter of the way is worth 0.6.
SHARPNESS = 3.0


def relative(progress: Sequence[float]) -> Values:
    """Each player's progress (0 to 1) against the best of the others, as a value in (-1, 1)."""
    if len(progress) == 1:
        return (2 * progress[0] - 1,)
    values = []
    for player, mine in enumerate(progress):
        best_other = max(p for other, p in enumerate(progress) if other != player)
        values.append(math.tanh(SHARPNESS * (mine - best_other)))
    return tuple(values)


def _overpass(state: State) -> list[float]:
    """Each colour's pieces brought home, and each piece on the board by how near it stands to an exit
    point (more on one, where only its owner may move it); with the goal "one" a player's best colour."""
    game = state.game
    per_colour = game.layout.pieces_per_colour
    worth = overpass_worth(game.board_name)
    on_board = dict.fromkeys(game.turn_colours, 0.0)
    for point, colour in state.cells.items():
        if colour is not None:
            on_board[colour] += worth[point]
    best = max if game.options.get("goal", "one") == "one" and game.num_players == 2 else _mean
    return [best([(state.home[c] + on_board[c]) / per_colour for c in seat]) for seat in game.seats]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


#: What a piece on the board is worth towards its colour's goal (one piece home is 1): its
#: share at the Center Square, more as it nears an exit point, and most standing on one.
OVERPASS_CENTRE, OVERPASS_NEAR, OVERPASS_ON_EXIT = 0.1, 0.5, 0.7


@functools.cache
def overpass_steps(board_name: str) -> dict[str, int]:
    """Steps along the lines from every intersection to the nearest exit point."""
    from engine.games.overpass_tables import rule_tables

    board = rule_tables(board_name).board
    steps = dict.fromkeys(board.exits, 0)
    frontier = deque(board.exits)
    while frontier:
        point = frontier.popleft()
        for step in board.neighbours[point]:
            if step not in steps:
                steps[step] = steps[point] + 1
                frontier.append(step)
    return steps


@functools.cache
def overpass_worth(board_name: str) -> dict[str, float]:
    """Each intersection's worth to the piece standing on it (``OVERPASS_CENTRE`` to ``OVERPASS_ON_EXIT``)."""
    steps = overpass_steps(board_name)
    far = max(steps.values())
    return {point: OVERPASS_ON_EXIT if n == 0 else OVERPASS_CENTRE + (OVERPASS_NEAR - OVERPASS_CENTRE) * (1 - n / far)
            for point, n in steps.items()}


def _groups_of_three(state: State) -> list[float]:
    """Pieces borne off, and half for each piece brought in."""
    progress = []
    for own in state.game.seat_colours:
        total = sum(state.on_board[c] + state.reserve[c] + state.borne_off[c] for c in own)
        done = sum(state.borne_off[c] + 0.5 * state.on_board[c] for c in own)
        progress.append(done / total if total else 1.0)
    return progress


def _squareoff(state: State) -> list[float]:
    """Pieces left (on the board and in hand): a player reduced to two loses."""
    left = [state.cells.count(p) + state.hands[p] for p in (0, 1)]
    most = max(max(left), 1)
    return [n / most for n in left]


def _hexover(state: State) -> list[float]:
    """Disks on the board (the count decides a game nobody can move in)."""
    counts = [state.cells.count(p) for p in (0, 1)]
    total = max(sum(counts), 1)
    return [n / total for n in counts]


def _pawns_crossing(state: State) -> list[float]:
    """Tokens brought home, and each token still out by how near it is to a tile it may be declared on.

    A token's own value names its destination tile (any destination of its colour for a null
    token).  In a search this reads the values of the position searched, which is a sample
    dealt from the seat's view (``engine.ai.hidden``), never the real hidden values.
    """
    from engine.games.pawns_setup import ACE, NULL

    distances, far = _pawns_distances()
    place_of = {tile: place for place, tile in state.tile_at.items()}
    done = [0.0] * len(state.seats)
    owned = [0] * len(state.seats)
    for token, at in state.where.items():
        colour = state.colour_of[token]
        player = state.owner[colour]
        owned[player] += 1
        if not at:
            done[player] += 1.0
            continue
        value = state.values[token]
        ranks = [rank for rank in state.game.board.equipment.ranks if rank != ACE] if value == NULL else [value]
        near = min(distances[at][place_of[(colour, rank)]] for rank in ranks)
        done[player] += TOKEN_OUT * (1 - near / far)
    return [d / n if n else 1.0 for d, n in zip(done, owned)]


#: How much of a token's worth it earns by standing on its destination tile, before it is declared home.
TOKEN_OUT = 0.8


@functools.cache
def _pawns_distances() -> tuple[dict[str, dict[str, int]], int]:
    """Steps between every two spaces of the Pawns Crossing grid (tiles, domino halves and the
    Pusher's places, which touch only their edge tile), and the most there are between two spaces."""
    from engine.games.pawns_crossing import BOARD

    table: dict[str, dict[str, int]] = {}
    for start in BOARD.links:
        seen = {start: 0}
        frontier = deque([start])
        while frontier:
            space = frontier.popleft()
            for step, _hole in BOARD.links[space]:
                if step not in seen:
                    seen[step] = seen[space] + 1
                    frontier.append(step)
        table[start] = seen
    return table, max(max(row.values()) for row in table.values())


def _mono_line(state: State) -> list[float]:
    """The placements each player still has: those on open intersections, twice for the ones only they may
    take (a point only their own pieces see), each capped by the pieces they have left."""
    from engine.games.pieces import seats

    progress = []
    for player, colours in enumerate(seats(2)):
        supply = sum(state.supply(colour) for colour in colours)
        open_points = state.open_points(player)
        only_mine = open_points & ~state.open_points(1 - player)
        progress.append((min(supply, open_points.bit_count()) + min(supply, only_mine.bit_count())) / MONO_SCALE)
    return progress


def _full_house(state: State) -> list[float]:
    """Pieces brought onto the board, of those the puzzle needs."""
    target = state.game.target
    return [(target - state.reserve[0]) / target]


#: Placements that make a whole unit of Mono-Line progress: a player's twenty pieces, counted twice.
MONO_SCALE = 40


PROGRESS: dict[str, Callable[[State], list[float]]] = {
    "overpass": _overpass,
    "groups-of-three": _groups_of_three,
    "squareoff": _squareoff,
    "hexover": _hexover,
    "pawns-crossing": _pawns_crossing,
    "mono-line": _mono_line,
    "full-house": _full_house,
}
