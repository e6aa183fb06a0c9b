"""Reading a Square Off position (``SquareOffState.position()`` data): every value checked against
the rules, and refused with a message naming it."""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.core import PositionError
from engine.games.squareoff_moves import COLOURS, EMPTY, PIECES_EACH, Tables
from engine.games.two_colours import TwoColourGame


class PositionParts(NamedTuple):
    """A position's values, in the order ``SquareOffState`` takes them."""

    cells: list[int]
    hands: tuple[int, int]
    mover: int
    captures: tuple[int, ...]
    unformed: tuple[frozenset[int], frozenset[int]]


def read_position(game: TwoColourGame, t: Tables, position: dict[str, Any]) -> PositionParts:
    """Check a JSON position of ``game`` on the board of ``t`` against the rules."""
    board = position.get("board", {})
    if not isinstance(board, dict):
        raise PositionError('"board" must map points ("p1", ...) to "black", "white" or null')
    cells = [EMPTY] * len(t.points)
    for point, content in board.items():
        if point not in t.index:
            raise PositionError(f"board: {point!r} is not a point of the {game.board_name} board "
                                f"({t.points[0]}..{t.points[-1]})")
        if content is not None:
            cells[t.index[point]] = game.player_of(content, f"board[{point!r}]")
    hands_raw = position.get("in_hand", dict.fromkeys(COLOURS, 0))
    if not isinstance(hands_raw, dict) or set(hands_raw) != set(COLOURS) or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= PIECES_EACH for n in hands_raw.values()):
        raise PositionError(f'"in_hand" must be {{"black": n, "white": n}} with 0 <= n <= {PIECES_EACH}, '
                            f"not {hands_raw!r}")
    hands = (hands_raw["black"], hands_raw["white"])
    for player, colour in enumerate(COLOURS):
        on_board = cells.count(player)
        if on_board + hands[player] > PIECES_EACH:
            raise PositionError(f"{colour} has {on_board + hands[player]} pieces ({on_board} on the board, "
                                f"{hands[player]} in hand); each player has {PIECES_EACH}")
    if abs(hands[0] - hands[1]) > 1:
        raise PositionError(f"in_hand: black {hands[0]}, white {hands[1]}: players place in turn, "
                            "so their hands differ by at most one")
    mover = game.player_of(position.get("to_move", game.options["first_player"]), '"to_move"')
    owed_raw = position.get("captures_owed", [])
    if not isinstance(owed_raw, list) or len(owed_raw) > 2:
        raise PositionError(f'"captures_owed" must list at most two colours, not {owed_raw!r}')
    owed = tuple(game.player_of(c, '"captures_owed"') for c in owed_raw)
    if owed and 1 - owed[0] not in cells:
        raise PositionError(f"captures_owed: {COLOURS[owed[0]]} is owed a capture "
                            f"but {COLOURS[1 - owed[0]]} has no piece on the board")
    return PositionParts(cells, hands, mover, owed, _read_unformed(game, t, position.get("unformed", {})))


def _read_unformed(game: TwoColourGame, t: Tables, raw: object) -> tuple[frozenset[int], frozenset[int]]:
    row_of = {frozenset(t.points[k] for k in row): r for r, row in enumerate(t.rows)}
    if not isinstance(raw, dict) or not set(raw) <= set(COLOURS):
        raise PositionError(f'"unformed" must map "black"/"white" to lists of rows, not {raw!r}')
    result = []
    for colour in COLOURS:
        rows = raw.get(colour, [])
        if rows and game.options["variant"] != "jump-off":
            raise PositionError(f'unformed[{colour!r}]: only Jump Off remembers the rows a move broke')
        if not isinstance(rows, list):
            raise PositionError(f'unformed[{colour!r}] must be a list of rows such as ["p1", "p9", "p17"]')
        found = set()
        for row in rows:
            key = frozenset(row) if isinstance(row, list) else None
            if key not in row_of:
                raise PositionError(f"unformed[{colour!r}]: {row!r} is not three points in a row on this board")
            found.add(row_of[key])
        result.append(frozenset(found))
    return result[0], result[1]
