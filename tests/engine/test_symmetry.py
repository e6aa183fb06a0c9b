"""The board's symmetries on bitsets: one key per symmetry class."""

from __future__ import annotations

import random

from engine.games.overpass_spiral import OverPassSpiral
from engine.solvers.symmetry import Symmetries


def test_the_canonical_key_is_the_smallest_image_few_pieces_or_many():
    """Both ways of taking images: piece by piece (fewer pieces than bytes) and byte by byte."""
    game = OverPassSpiral()
    size = len(game.locations)
    symmetries, rng = Symmetries(game.symmetries, size), random.Random(6)
    for pieces in (1, 6, 13, 14, 15, 40):
        for within in (size, size // 3):  # pieces over the whole board, or on its first few bytes
            for _ in range(30):
                mask = sum(1 << i for i in rng.sample(range(within), min(pieces, within)))
                images = list(symmetries.images(mask))
                assert symmetries.canonical(mask) == min(images)
                assert all(symmetries.canonical(image) == min(images) for image in images)
