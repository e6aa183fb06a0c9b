"""A lower bound on Full House's steps that counts what a double add costs to prepare.

"A step brings in at most two pieces" is far below the truth: a double add needs the board
prepared, and preparing it costs steps that bring nothing in.  A *potential* measures how
much is prepared.  It is a sum of weights: one per *window* (a hub of a ring with the two
groups-of-three it belongs to) for the pattern of pieces in it, plus one per occupied
compartment; and every step, with any of the adds it allows, satisfies

    adds - 1 <= potential(after) - potential(before).

Summed along any way from a position P to a full board F (each step adds one piece "for
free", any more must have been paid for by the potential):

    pieces to add - steps <= potential(F) - potential(P) <= most(total) - potential(P),

so ``steps >= pieces to add - (most(total) - potential(P))``: a bound A* can use, which
never overestimates and drops by at most one per step.  ``most(total)`` bounds the
potential over every position of ``total`` pieces.

The weights are data (``data/full-house-potential.json``), found by a linear program
(``bench/full_house_potential.py``); the inequality is what makes them sound, and
``violations`` checks it for every step and every pattern of the compartments around it,
exactly, in integers (the tests and ``bench/full_house_proof.py`` run it).
"""

from __future__ import annotations

import itertools
import json
import logging
from collections import Counter
from collections.abc import Iterable, Iterator
from fractions import Fraction
from hashlib import sha256
from pathlib import Path

from engine.games.groups_of_three_layout import Layout

DATA_FILE = Path(__file__).parent / "data" / "full-house-potential.json"

#: A window's pattern in ``Potential.most``: its weight, its pieces' shares of their weights, its share of pieces.
_Pattern = tuple[Fraction, Fraction, Fraction] | tuple[float, float, float]

log = logging.getLogger(__name__)


def fingerprint(layout: Layout) -> str:
    """What a potential depends on: the compartments, their sides, the groups and where no piece rests."""
    faces = layout.faces
    text = "|".join([
        ";".join(f"{face}:{','.join(faces[j] for j in layout.adjacent[i])}" for i, face in enumerate(faces)),
        ";".join(",".join(faces[i] for i in group) for group in layout.groups),
        ",".join(sorted(faces[i] for i in layout.no_rest)), ",".join(sorted(faces[i] for i in layout.transit)),
    ])
    return sha256(text.encode()).hexdigest()[:32]


class Potential:
    """Window weights and compartment weights, in units of ``1/scale``.

    ``windows[k]`` is a tuple of compartments; ``weights[k][p]`` the weight of pattern ``p``
    (bit ``j`` set when ``windows[k][j]`` holds a piece).  ``pieces[c]`` is the weight of a
    piece in compartment ``c``.
    """

    def __init__(self, layout: Layout, windows: list[tuple[int, ...]], weights: list[tuple[int, ...]],
                 pieces: list[int], scale: int) -> None:
        if len(windows) != len(weights) or any(len(w) != 1 << len(c) for c, w in zip(windows, weights)):
            raise ValueError("each window needs one weight per pattern of its compartments")
        if len(pieces) != len(layout.faces) or scale <= 0:
            raise ValueError("one weight per compartment and a positive scale are needed")
        self.layout = layout
        self.windows = windows
        self.weights = weights
        self.pieces = pieces
        self.scale = scale
        #: Per window: its mask, and the weight of each occupied part of it (``occupied & mask``).
        self._lookups = [(_mask(cells), {_spread(cells, p): w for p, w in enumerate(ws)})
                         for cells, ws in zip(windows, weights)]
        #: The compartment weights, summed a byte of the position at a time.
        self._bytes = [[sum(pieces[8 * k + j] for j in range(8) if b >> j & 1 and 8 * k + j < len(pieces))
                        for b in range(256)] for k in range(-(-len(pieces) // 8))]
        self._most: dict[int, int] = {}

    def value(self, occupied: int) -> int:
        """The potential of a position, in units of ``1/scale``."""
        total = sum(weights[occupied & mask] for mask, weights in self._lookups)
        for table in self._bytes:
            total += table[occupied & 255]
            occupied >>= 8
        return total

    def most(self, total: int) -> int:
        """An upper bound on ``value`` over every position of ``total`` pieces (an integer, as every value is).

        For any ``lam``, a position's value is ``lam * total`` plus, per window, its pattern's
        weight with each piece's weight less ``lam`` shared among the windows holding it, plus
        the same for pieces outside every window: each part is at most its own maximum.  The
        bound holds for every ``lam``; the lowest is searched for, then computed exactly.
        """
        if total in self._most:
            return self._most[total]
        share = [0] * len(self.pieces)
        for cells in self.windows:
            for c in cells:
                share[c] += 1
        outside = [c for c, n in enumerate(share) if not n and c != self.layout.center]
        patterns: list[list[_Pattern]] = [
            [(Fraction(w), sum((Fraction(self.pieces[c], share[c]) for j, c in enumerate(cells) if p >> j & 1),
                               Fraction(0)),
              sum((Fraction(1, share[c]) for j, c in enumerate(cells) if p >> j & 1), Fraction(0)))
             for p, w in enumerate(ws)] for cells, ws in zip(self.windows, self.weights)]
        rough: list[list[_Pattern]] = [[(float(w), float(own), float(n)) for w, own, n in window]
                                       for window in patterns]

        def bound(lam: Fraction | float, windows: list[list[_Pattern]]) -> Fraction | float:
            return (lam * total + sum(max(w + own - lam * n for w, own, n in window) for window in windows)
                    + sum(max(0, self.pieces[c] - lam) for c in outside))

        reach = 4 * (self.scale + max(map(abs, self.pieces), default=0)
                     + max((abs(w) for ws in self.weights for w in ws), default=0))
        low, high = -float(reach), float(reach)
        for _ in range(200):  # convex in lam: a ternary search finds the lowest, roughly
            a, b = low + (high - low) / 3, high - (high - low) / 3
            if bound(a, rough) <= bound(b, rough):
                high = b
            else:
                low = a
        exact = Fraction(bound(Fraction((low + high) / 2), patterns))
        self._most[total] = exact.numerator // exact.denominator
        return self._most[total]

    def steps_needed(self, occupied: int, total: int) -> int:
        """The fewest steps any way from ``occupied`` to ``total`` pieces on the board can take, at least."""
        short = (total - occupied.bit_count()) * self.scale - self.most(total) + self.value(occupied)
        return -(-short // self.scale)

    def violations(self, sources: Iterable[int] | None = None) -> Iterator[str]:
        """Every step where ``adds - 1`` can exceed the potential's change, in words; none when it is sound.

        A step from ``s`` to ``x`` changes ``s``, ``x`` and the adds, which lie in the groups of
        ``x``: those compartments are the *core*.  For each pattern of the core and each choice
        of adds, the change is smallest for some pattern of the other compartments of the
        windows touching the core.  The windows' terms are summed over each pattern of the
        compartments two of them share, each window taking its own worst pattern of the rest:
        exactly the least change, without listing every pattern of them all.  ``sources`` limits the check
        to the steps from those compartments.
        """
        layout, scale, pieces = self.layout, self.scale, self.pieces
        windows_at: dict[int, list[int]] = {}
        for k, cells in enumerate(self.windows):
            for c in cells:
                windows_at.setdefault(c, []).append(k)
        for s in range(len(layout.faces)) if sources is None else sources:
            for x in layout.adjacent[s] if s != layout.center else ():
                if x == layout.center:
                    continue
                near = {s, x, *(c for pair in layout.groups_at[x] for c in pair)} - {layout.center}
                core = tuple(sorted(near - {s, x}))
                touched = sorted({k for c in near for k in windows_at.get(c, ())})
                count = Counter(c for k in touched for c in self.windows[k] if c not in near)
                shared = tuple(sorted(c for c, n in count.items() if n > 1))
                rest = [(self._lookups[k], [_spread(private, bits) for bits in range(1 << len(private))])
                        for k in touched
                        for private in (tuple(c for c in self.windows[k] if c not in near and count[c] == 1),)]
                arounds = [_spread(shared, bits) for bits in range(1 << len(shared))]
                for bits in range(1 << len(core)):
                    before = 1 << s | _spread(core, bits)
                    moved = before ^ (1 << s) ^ (1 << x)
                    targets = layout.add_targets(moved, x)
                    for n in range(len(targets) + 1):
                        for adds in itertools.combinations(targets, n):
                            after = moved | _mask(adds)
                            least = min(sum(min(weights[(after | around | own) & mask]
                                                - weights[(before | around | own) & mask] for own in owns)
                                            for (mask, weights), owns in rest) for around in arounds)
                            if (n - 1) * scale > pieces[x] - pieces[s] + sum(pieces[c] for c in adds) + least:
                                yield _describe(layout, s, x, [c for c in core if before >> c & 1], adds)

    def to_json(self) -> dict[str, object]:
        faces = self.layout.faces
        return {
            "layout": fingerprint(self.layout), "scale": self.scale,
            "windows": [{"compartments": [faces[c] for c in cells], "weights": list(ws)}
                        for cells, ws in zip(self.windows, self.weights)],
            "pieces": {faces[c]: w for c, w in enumerate(self.pieces) if w},
        }

    @classmethod
    def from_json(cls, layout: Layout, data: dict[str, object]) -> Potential:
        """A potential from its JSON form; ValueError, saying what is wrong, if it does not fit ``layout``."""
        if data.get("layout") != fingerprint(layout):
            raise ValueError("made for another layout of the compartments or other groups-of-three")
        try:
            index = layout.index
            windows = [tuple(index[face] for face in w["compartments"]) for w in data["windows"]]
            weights = [tuple(int(v) for v in w["weights"]) for w in data["windows"]]
            pieces = [0] * len(layout.faces)
            for face, w in data["pieces"].items():
                pieces[index[face]] = int(w)
            return cls(layout, windows, weights, pieces, int(data["scale"]))
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"malformed: {error!r}") from None


_shipped: dict[str, Potential | None] = {}


def shipped_potential(layout: Layout) -> Potential | None:
    """The potential that ships for ``layout``, or None (with a warning, once) when it is missing or made for
    another layout."""
    key = fingerprint(layout)
    if key not in _shipped:
        try:
            _shipped[key] = Potential.from_json(layout, json.loads(DATA_FILE.read_text()))
        except (OSError, ValueError) as error:
            log.warning("%s: not used (%s); Full House's lower bound falls back to two pieces per step",
                        DATA_FILE, error)
            _shipped[key] = None
    return _shipped[key]


def _describe(layout: Layout, source: int, target: int, around: list[int], adds: tuple[int, ...]) -> str:
    faces = layout.faces
    return (f"{faces[source]}-{faces[target]} with {', '.join(faces[c] for c in around) or 'no piece'} in its groups, "
            f"adding {', '.join(faces[c] for c in adds) or 'nothing'}")


def _mask(cells: tuple[int, ...]) -> int:
    return sum(1 << c for c in cells)


def _spread(cells: tuple[int, ...], pattern: int) -> int:
    """The position bits of a window's pattern."""
    return sum(1 << c for j, c in enumerate(cells) if pattern >> j & 1)
