"""What a move still asks of the person's hands: pieces to put, to take off, to turn over.

The sensors follow the piece a person moves; the rest of a move (Hexover's flips, a
capture to take off, a token sent back to its ace) is for the LEDs to ask for, each
kind in its own blinking colour, and for the status to say in words.  A change is
told by the pieces a location holds before and after: more pieces is a put, fewer
a removal, as many but different a flip.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.core import Change, stack_pieces

KINDS = ("put", "remove", "flip")


@dataclass(frozen=True)
class Todo:
    """One change left to make by hand: ``kind`` on ``location``, with the ``pieces`` it puts, takes off or shows."""

    kind: str
    location: str
    pieces: tuple[str, ...]

    @classmethod
    def of(cls, change: Change) -> Todo:
        before, after = Counter(stack_pieces(change.before)), Counter(stack_pieces(change.after))
        grows, shrinks = after.total() - before.total(), before.total() - after.total()
        if grows > 0:
            return cls("put", change.location, tuple(sorted((after - before).elements())))
        if shrinks > 0:
            return cls("remove", change.location, tuple(sorted((before - after).elements())))
        return cls("flip", change.location, tuple(stack_pieces(change.after)))


def unexplained(changes: Sequence[Change]) -> list[Change]:
    """The changes that no piece moving within the move explains (a flip; not a stack a piece left or joined).

    Among the changes the sensors cannot see, these are the ones the hand has not done
    by moving the pieces the sensors followed.
    """
    lost: Counter[str] = Counter()
    gained: Counter[str] = Counter()
    for change in changes:
        before, after = Counter(stack_pieces(change.before)), Counter(stack_pieces(change.after))
        lost += before - after
        gained += after - before
    moved = lost & gained
    left: list[Change] = []
    for change in changes:
        before, after = Counter(stack_pieces(change.before)), Counter(stack_pieces(change.after))
        if (before - after) - moved or (after - before) - moved:
            left.append(change)
    return left


def describe(todos: Iterable[Todo]) -> str:
    """The todos in words, grouped: "flip h2 and h5 to black; take the white off c3"."""
    groups: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for todo in todos:
        groups.setdefault((todo.kind, todo.pieces), []).append(todo.location)
    parts = []
    for (kind, pieces), locations in sorted(groups.items(), key=lambda item: KINDS.index(item[0][0])):
        where = _and(sorted(locations))
        if kind == "put":
            parts.append(f"put {_pieces(pieces, 'a')} on {where}")
        elif kind == "remove":
            parts.append(f"take {_pieces(pieces, 'the')} off {where}")
        else:
            parts.append(f"flip {where} to {_pieces(pieces, '')}")
    return "; ".join(parts)


def _pieces(pieces: Sequence[str], article: str) -> str:
    """("red", "red", "green") -> "a green and 2 red"."""
    counts = sorted(Counter(pieces).items())
    return _and([f"{n} {code}" if n > 1 else f"{article} {code}".strip() for code, n in counts])


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"
