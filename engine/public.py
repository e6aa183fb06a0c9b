"""The canonical text of a public position: what remote play hashes, the same in any language.

Every participant of a remote game, whatever program it runs, must reach the same hash
after the same moves, so the text hashed is defined by the protocol (docs/protocol.md), not
by this engine's internal position format.  It is built from what a player sees: the
game's options, the pieces on each location, who is to move, and each game's public facts
(dice, reserves, phases), with every value still hidden written ``?``.

The text is ASCII lines ending in ``\\n``: a first line ``gameboard-position 2 GAME``, then
every other line in byte order.  A line is a key and its values, separated by single
spaces; ``-`` is "none".  A field of the engine's position that no game's encoding names is
an error here, so a change of the engine's positions fails the tests instead of silently
changing the hashes every other client computes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine.core import CHANCE, TERMINAL, EngineError, State
from engine.hidden import PUBLIC, seen_by

#: The remote protocol's version this encoding belongs to (firmware_host.remote.protocol.VERSION).
VERSION = 3
#: A value not known to everyone (a Pawns Crossing token's, while the token is on the board).
HIDDEN = "?"
NONE = "-"

Lines = Iterator[str]


def public_text(state: State) -> str:
    """The canonical text of ``state``'s public position (docs/protocol.md)."""
    name = state.game.name
    if name not in ENCODINGS:
        raise EngineError(f"{name} has no canonical public encoding: add one to engine/public.py and "
                          "docs/protocol.md")
    position = seen_by(state, PUBLIC)
    lines = [f"option {key} {_option(value)}" for key, value in state.game.options.items()]
    lines += [f"at {location} {content}" for location, content in state.contents().items() if content]
    lines.append(f"to-move {_mover(state.current_player)}")
    lines.extend(ENCODINGS[name](_Fields(position, name)))
    body = sorted(set(lines))
    text = "\n".join([f"gameboard-position {VERSION} {name}", *body, ""])
    if text.count("\n") != len(body) + 1 or "  " in text or " \n" in text or "\n " in text:
        raise EngineError(f"{name}: a public line is not one line of single-spaced words: {body}")
    return text


def _mover(player: int) -> str:
    return "chance" if player == CHANCE else "over" if player == TERMINAL else str(player)


def _option(value: Any) -> str:
    """An option's value: ``true`` or ``false``, or a word."""
    return str(value).lower() if isinstance(value, bool) else word(value)


def word(value: Any) -> str:
    """One value as the text writes it: a whole number in decimal, a name as it is, ``-`` for none."""
    if value is None:
        return NONE
    if isinstance(value, bool) or not isinstance(value, (int, str)) or value == "":
        raise EngineError(f"{value!r} has no canonical public encoding")
    return str(value)


def words(values: list[Any]) -> str:
    """A list as the text writes it: its values in order, ``-`` when empty."""
    return " ".join(map(word, values)) or NONE


class _Fields:
    """The public position's fields, each taken once; a field left over is an error (``done``)."""

    def __init__(self, position: dict[str, Any], game: str) -> None:
        self._left = dict(position)
        self._game = game

    def take(self, key: str) -> Any:
        if key not in self._left:
            raise EngineError(f"{self._game}: the public position has no field {key!r} that its encoding names")
        return self._left.pop(key)

    def done(self) -> Lines:
        """Nothing, once every field was encoded; otherwise an error naming the fields left."""
        if self._left:
            raise EngineError(f"{self._game}: the public position's fields {', '.join(sorted(self._left))} have "
                              "no canonical encoding: add them to engine/public.py and docs/protocol.md")
        yield from ()


def _counts(key: str, counts: dict[str, int]) -> Lines:
    for colour, count in counts.items():
        yield f"{key} {word(colour)} {word(count)}"


def _overpass(fields: _Fields) -> Lines:
    fields.take("board")  # the "at" lines
    roll = fields.take("roll")
    yield f"turn {word(fields.take('turn'))}"
    yield f"phase {word(fields.take('phase'))}"
    yield f"roll {words(roll) if roll else NONE}"
    yield f"budget {word(fields.take('budget'))}"
    yield from _counts("reserve", fields.take("reserve"))
    yield from _counts("home", fields.take("home"))
    yield from fields.done()


def _compartments(fields: _Fields) -> Lines:
    """Groups-of-Three's and Full House's pieces off the board and adds still to make."""
    fields.take("pieces")  # the "at" lines
    yield from _counts("reserve", fields.take("reserve"))
    yield from _counts("borne-off", fields.take("borne_off"))
    yield f"pending-adds {words(fields.take('pending_adds'))}"


def _groups_of_three(fields: _Fields) -> Lines:
    yield from _compartments(fields)
    yield f"turns {word(fields.take('turn'))}"
    yield f"points {word(fields.take('points'))}"
    yield from fields.done()


def _full_house(fields: _Fields) -> Lines:
    yield from _compartments(fields)
    yield f"moves {word(fields.take('moves'))}"
    yield from fields.done()


def _mono_line(fields: _Fields) -> Lines:
    fields.take("pieces")
    yield f"turn {word(fields.take('to_move'))}"
    yield f"pending {word(fields.take('pending'))}"
    yield f"claimed-by {word(fields.take('claimed_by'))}"
    yield from fields.done()


def _removal_puzzle(fields: _Fields) -> Lines:
    fields.take("pieces")
    yield from fields.done()


def _squareoff(fields: _Fields) -> Lines:
    fields.take("board")
    yield f"turn {word(fields.take('to_move'))}"
    yield from _counts("in-hand", fields.take("in_hand"))
    yield f"captures-owed {words(fields.take('captures_owed'))}"
    for colour, rows in fields.take("unformed").items():
        for row in rows:
            yield f"unformed {word(colour)} {words(row)}"
    yield from fields.done()


def _hexover(fields: _Fields) -> Lines:
    fields.take("board")
    yield f"turn {word(fields.take('to_move'))}"
    yield from fields.done()


def _pawns_crossing(fields: _Fields) -> Lines:
    for number, colours in enumerate(fields.take("seats")):
        yield f"seat {number} {words(colours)}"
    yield f"order {words(fields.take('order'))}"
    for place, tile in fields.take("tiles").items():
        yield f"tile {word(place)} {word(tile)}"
    for slot, pips in fields.take("dominoes").items():
        yield f"domino {word(slot)} {words(pips)}"
    pusher = fields.take("pusher")
    yield f"pusher {words(pusher['domino'])} {word(pusher['at'])}"
    for token, entry in fields.take("tokens").items():
        value = entry["value"]
        yield f"token {word(token)} {word(entry['at'])} {HIDDEN if value is None else word(value)}"
    for colour, at in fields.take("pawns").items():
        yield f"pawn {word(colour)} {word(at)}"
    turn = _Fields(fields.take("turn"), "pawns-crossing's turn")
    yield f"phase {word(turn.take('phase'))}"
    yield f"player {word(turn.take('player'))}"
    yield from _counts("dice", turn.take("dice"))
    yield f"moved {word(turn.take('moved'))}"
    yield f"pawn-moved {word(turn.take('pawn_moved') or None)}"
    yield f"arrived {words(turn.take('arrived'))}"
    yield f"last-slide {word(turn.take('last_slide'))}"
    yield f"winner {word(turn.take('winner'))}"
    yield from turn.done()
    yield from fields.done()


#: Game name -> the lines of its public facts, read from its public position (besides "at" and "to-move").
ENCODINGS: dict[str, Callable[[_Fields], Lines]] = {
    "overpass": _overpass,
    "groups-of-three": _groups_of_three,
    "full-house": _full_house,
    "mono-line": _mono_line,
    "crooked-jumps": _removal_puzzle,
    "overpass-spiral": _removal_puzzle,
    "squareoff": _squareoff,
    "hexover": _hexover,
    "pawns-crossing": _pawns_crossing,
}
