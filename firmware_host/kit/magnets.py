"""The field of a piece's magnet at a sensor below it: how thick the board's top may be, and how far a neighbour is."""

from __future__ import annotations

import math

from firmware_host.kit.data import part_data


def axial_field_mt(grade: str, diameter_mm: float, thickness_mm: float, distance_mm: float) -> float:
    """The flux density in millitesla on the axis of an axially magnetised disc, ``distance_mm`` from its face.

    The textbook formula for a uniformly magnetised cylinder, B = Br/2 * ((L + z) / sqrt(R^2 + (L + z)^2)
    - z / sqrt(R^2 + z^2)), with the grade's nominal remanence Br from ``parts.toml``; a real magnet reads
    within about 10 % of it.  Off the axis (a neighbouring place's sensor) the field is weaker still.
    """
    remanence = part_data()["remanence_t"][grade]
    radius, z, length = diameter_mm / 2, distance_mm, thickness_mm
    return 1000 * remanence / 2 * ((length + z) / math.hypot(radius, length + z) - z / math.hypot(radius, z))
