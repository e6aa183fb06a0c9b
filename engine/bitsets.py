"""Sets of board places held as integers: bit i set when place i is in the set."""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def members(mask: int) -> Iterator[int]:
    """The indices in a bitset, in increasing order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(indices: Iterable[int]) -> int:
    """The bitset holding ``indices``."""
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask
