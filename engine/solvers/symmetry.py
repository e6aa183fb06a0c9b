"""The board's symmetries acting on positions held as bitsets: images and one key per symmetry class."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.bitsets import members


class Symmetries:
    """Permutations of a board's intersections (quarter turns and mirrors), applied to bitsets.

    Each permutation is kept as a table per byte of the bitset, so an image costs a few
    look-ups rather than one operation per intersection; and as the bit of each
    intersection's image, for positions of fewer pieces than bytes (on the Spiral's board,
    six pieces: 10 µs a class rather than 20).
    """

    def __init__(self, permutations: Sequence[tuple[int, ...]], size: int) -> None:
        self.permutations = tuple(permutations)
        self.tables = [_byte_tables(perm, size) for perm in self.permutations]
        self.bits = [[1 << perm[i] for i in range(size)] for perm in self.permutations]

    def images(self, mask: int) -> Iterator[int]:
        """``mask`` under each symmetry, in the order of ``permutations``."""
        for tables in self.tables:
            image, k, rest = 0, 0, mask
            while rest:
                image |= tables[k][rest & 255]
                rest >>= 8
                k += 1
            yield image

    def canonical(self, mask: int) -> int:
        """The smallest image of ``mask``: one key per symmetry class."""
        if mask.bit_count() > (mask.bit_length() + 7) // 8:  # fewer bytes than pieces: look up byte by byte
            return min(self.images(mask))
        cells = list(members(mask))
        return min([sum(map(bits.__getitem__, cells)) for bits in self.bits])

    def symmetric(self, mask: int) -> bool:
        """Whether a symmetry other than the identity maps ``mask`` onto itself."""
        return sum(image == mask for image in self.images(mask)) > 1

    def relating(self, mask: int, image: int) -> tuple[int, ...]:
        """A permutation carrying ``mask`` onto ``image`` (ValueError if none does)."""
        for perm, found in zip(self.permutations, self.images(mask)):
            if found == image:
                return perm
        raise ValueError("the two positions are not symmetric images of each other")


def _byte_tables(perm: tuple[int, ...], size: int) -> list[list[int]]:
    """Per byte of a bitset, the image of each of its 256 values under ``perm``."""
    chunks = []
    for base in range(0, size, 8):
        singles = [1 << perm[base + j] if base + j < size else 0 for j in range(8)]
        table = [0] * 256
        for value in range(1, 256):
            low = value & -value
            table[value] = table[value ^ low] | singles[low.bit_length() - 1]
        chunks.append(table)
    return chunks
