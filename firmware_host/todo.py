"""What a move still asks of the person's hands: pieces to put, to take off, to turn over.

The sensors follow the piece a person moves; the rest of a move (Hexover's flips, a
capture to take off, a token sent back to its ace) is for the LEDs to ask for, each
kind in its own blinking colour, and for the status to say in words.  A change is
told by the pieces a location holds before and after: pieces only gained is a put,
only lost a removal, one piece for another a flip, and a stack that gains some and
loses others a restack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.core import Change, stack_pieces

KINDS = ("put", "remove", "flip", "restack")


@dataclass(frozen=True)
class Todo:
    """One change left to make by hand: ``kind`` on ``location``, with the ``pieces`` it puts, takes off or shows
    (a put of no pieces: the rest of a stack lifted whole goes back)."""

    kind: str
    location: str
    pieces: tuple[str, ...]

    @classmethod
    def of(cls, change: Change) -> Todo:
        before, after = Counter(stack_pieces(change.before)), Counter(stack_pieces(change.after))
        gained, lost = tuple(sorted((after - before).elements())), tuple(sorted((before - after).elements()))
        if not lost:
            return cls("put", change.location, gained)
        if not gained:
            return cls("remove", change.location, lost)
        if before.total() == after.total() == 1:
            return cls("flip", change.location, gained)
        return cls("restack", change.location, tuple(sorted(after.elements())))


def describe(todos: Iterable[Todo]) -> str:
    """The todos in words, grouped: "flip h2 and h5 to black; take the white off c3; make t2 hold 2 red"."""
    groups: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for todo in todos:
        groups.setdefault((todo.kind, todo.pieces), []).append(todo.location)
    parts = []
    for (kind, pieces), locations in sorted(groups.items(), key=lambda item: KINDS.index(item[0][0])):
        where = _and(sorted(locations))
        if kind == "put":
            parts.append(f"put {_pieces(pieces, 'a')} on {where}" if pieces else f"put the rest back on {where}")
        elif kind == "remove":
            parts.append(f"take {_pieces(pieces, 'the')} off {where}")
        elif kind == "flip":
            parts.append(f"flip {where} to {_pieces(pieces, '')}")
        else:
            parts.append(f"make {where} hold {_pieces(pieces, 'a')}")
    return "; ".join(parts)


def _pieces(pieces: Sequence[str], article: str) -> str:
    """("red", "red", "green") -> "a green and 2 red"."""
    counts = sorted(Counter(pieces).items())
    return _and([f"{n} {code}" if n > 1 else f"{article} {code}".strip() for code, n in counts])


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"
