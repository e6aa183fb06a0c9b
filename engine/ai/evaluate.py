"""How good a position looks to each player, where a search stops before the game ends.

``evaluate(state)`` gives every player's value in [-1, 1]: the returns at the end of a
game, otherwise a per-game heuristic of progress towards that game's goal, each
player's progress measured against the best of the others.  It reads only what every
player can see (Pawns Crossing's hidden values are never read).
"""

from __future__ import annotations

import math

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
    """Pieces brought home, with a little for pieces already out of the reserve."""
    game = state.game
    per_colour = game.layout.pieces_per_colour
    progress = []
    for seat in game.seats:
        home = sum(state.home[c] for c in seat)
        out = sum(per_colour - state.reserve[c] - state.home[c] for c in seat)
        progress.append((home + 0.1 * out) / (per_colour * len(seat)))
    return progress


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
    """Tokens brought home (every player sees which tokens are still on the board)."""
    owned = [0] * len(state.seats)
    for token in state.where:
        owned[state.owner[state.colour_of[token]]] += 1
    return [1 - state.tokens_left(p) / owned[p] if owned[p] else 1.0 for p in range(len(owned))]


PROGRESS: dict[str, Callable[[State], list[float]]] = {
    "overpass": _overpass,
    "groups-of-three": _groups_of_three,
    "squareoff": _squareoff,
    "hexover": _hexover,
    "pawns-crossing": _pawns_crossing,
}
