"""Moves decided elsewhere, which a person carries out on the board: the computer's turn, a hint.

A ``Decided`` turn is kept as notation from the ply where the turn began, so it stays
valid while its steps are carried out one at a time and after a restart.  The computer's
turn comes step by step: a turn not yet ``complete`` grows as its steps are decided.  A ``Guide``
is one step as the LEDs show it: the piece to lift, where it goes, the bridge it passes
over, and what it takes off or turns over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core import Change, Move, State, stack_pieces


@dataclass(frozen=True)
class Decided:
    """A turn decided for ``player`` (``by`` the computer, or a hint) from the position at ``ply``."""

    by: str
    player: int
    ply: int
    moves: tuple[str, ...]
    #: Whether every step of the turn is decided (False while the computer plans the rest).
    complete: bool = True

    def step(self, history: Sequence[str]) -> int | None:
        """Which move is to be carried out now; None once the history has left the plan or finished it."""
        done = list(history[self.ply:])
        if len(history) < self.ply or len(done) >= len(self.moves) or list(self.moves[:len(done)]) != done:
            return None
        return len(done)

    def text(self, step: int = 0) -> str:
        """"computer: O p12-p31, then T p9=p40" from ``step`` on."""
        return f"{self.by}: " + ", then ".join(self.moves[step:])


@dataclass(frozen=True)
class Guide:
    """One move as the LEDs show it, to be carried out."""

    move: Move
    lift: frozenset[str] = frozenset()
    put: frozenset[str] = frozenset()
    path: tuple[str, ...] = ()
    remove: frozenset[str] = frozenset()
    flip: frozenset[str] = frozenset()
    #: Whether a hand has anything to do (not so for a button move such as Over-Pass's end).
    by_hand: bool = True
    #: What the move changes, worked out with the guide: the engine's state moves on, the guide's words stay.
    changes: tuple[Change, ...] = ()

    @classmethod
    def of(cls, state: State, move: Move) -> Guide:
        footprint = state.footprint(move)
        taken = frozenset(state.takes_off(move))
        gained = [c.location for c in footprint.changes if len(stack_pieces(c.after)) > len(stack_pieces(c.before))]
        lost = [c.location for c in footprint.changes
                if len(stack_pieces(c.after)) < len(stack_pieces(c.before)) and c.location not in taken]
        changed = [c.location for c in footprint.changes
                   if len(stack_pieces(c.after)) == len(stack_pieces(c.before))]
        moving = bool(gained) and bool(lost)
        return cls(move, lift=frozenset(lost if moving else ()), put=frozenset(gained),
                   path=state.passes_over(move), remove=taken | frozenset(() if moving else lost),
                   flip=frozenset(changed),
                   by_hand=bool(footprint.changes), changes=tuple(footprint.changes))

    @property
    def through(self) -> tuple[str, ...]:
        """What an arrow of this move passes through: the piece's place, the bridge, where it goes; () unless
        one piece goes from one place to another."""
        if len(self.lift) != 1 or len(self.put) != 1:
            return ()
        return (*self.lift, *self.path, *self.put)

    def json(self) -> dict[str, object]:
        return {"move": str(self.move), "lift": sorted(self.lift), "put": sorted(self.put), "path": list(self.path),
                "remove": sorted(self.remove), "flip": sorted(self.flip),
                "changes": [{"location": c.location, "before": c.before, "after": c.after}
                            for c in self.changes]}
