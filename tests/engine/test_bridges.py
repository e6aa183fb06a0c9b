"""bridge_reach and walk_bridges: the Over-Pass move's destinations, last-passed pieces and ways
there, on the real board."""

import random

import pytest

from engine.boards import load_board
from engine.games.bridges import bridge_destinations, bridge_reach, walk_bridges

BOARD = load_board("overpass")


def reach(start, pieces, blocked=(), may_step=None):
    """Destinations from ``start`` with ``pieces`` occupied, ``blocked`` ones not crossable."""
    occupied = set(pieces) | {start}
    return bridge_reach(BOARD, start, occupied.__contains__, lambda p: p not in blocked, may_step)


def brute_force(start, occupied, blocked):
    """Every simple path over crossable pieces, followed to its end: the reference."""
    result: dict[str, set[str]] = {}

    def walk(here, seen):
        for there in BOARD.neighbours[here]:
            if there == start or there in seen:
                continue
            if there not in occupied:
                if here != start:
                    result.setdefault(there, set()).add(here)
            elif there not in blocked:
                walk(there, seen | {there})

    walk(start, frozenset())
    return {p: frozenset(s) for p, s in result.items()}


def pieces_away(start, occupied, crossable):
    """How many pieces a bridge from ``start`` crosses, at the fewest, to reach each crossable piece."""
    depth, frontier, crossed = {}, [start], 0
    while frontier:
        crossed += 1
        frontier = list(dict.fromkeys(there for here in frontier for there in BOARD.neighbours[here]
                                      if there != start and there not in depth and there in occupied
                                      and crossable(there)))
        depth.update(dict.fromkeys(frontier, crossed))
    return depth


def test_one_piece_passed_over_along_a_line():
    # the horizontal spoke p9 - p1 - center - p3 - p11
    assert reach("p9", {"p1"})["center"] == {"p1"}


def test_a_single_hop_needs_a_piece_under_it():
    assert reach("p9", set()) == {}


def test_the_bridge_may_turn_along_the_lines():
    # p9 over p1 (horizontal spoke) then over p5 (up the cover's side) onto p2's neighbours
    found = reach("p9", {"p1", "p5"})
    assert "p2" in found and found["p2"] == {"p5"}
    assert "p10" in found  # p5 - p10 is a line step too


def test_the_move_ends_on_the_first_empty_intersection():
    # with center empty, the bridge p1 cannot be followed by an empty center then p3
    found = reach("p9", {"p1", "p3"})
    assert "p11" not in found
    assert "center" in found


def test_never_over_an_uncrossable_piece():
    assert reach("p9", {"p1"}, blocked={"p1"}) == {}
    found = reach("p9", {"p1", "center"}, blocked={"center"})
    assert "p3" not in found and "p5" in found


def test_the_start_is_never_a_destination_even_when_the_bridge_comes_back():
    ring = {"p1", "p5", "p2", "center"}
    found = reach("p9", ring)
    assert "p9" not in found
    assert found == brute_force("p9", ring | {"p9"}, set())


def test_every_piece_from_which_the_last_hop_lands_is_reported():
    # center is reachable from p1 directly and, via p5 - p2, from p2
    found = reach("p9", {"p1", "p5", "p2"})
    assert found["center"] == {"p1", "p2"}


def test_may_step_limits_the_path():
    # p97 is an exit point; along the perimeter p97 - p89 - p104, inward p89 - p73 / p88
    along_perimeter = lambda a, b: (a, b) in BOARD.perimeter
    assert set(reach("p97", {"p89"})) == {"p73", "p88", "p104"}
    assert reach("p97", {"p89"}, may_step=along_perimeter) == {"p104": {"p89"}}


@pytest.mark.parametrize("seed", range(40))
def test_agrees_with_every_simple_path(seed):
    rng = random.Random(seed)
    points = BOARD.points
    occupied = set(rng.sample(points, rng.randint(5, 30)))
    blocked = set(rng.sample(sorted(occupied), len(occupied) // 4))
    for start in sorted(occupied)[:8]:
        expected = brute_force(start, occupied, blocked)
        got = bridge_reach(BOARD, start, occupied.__contains__, lambda p: p not in blocked)
        assert got == expected


@pytest.mark.parametrize("seed", range(40))
def test_a_walk_finds_the_same_landings_each_by_a_shortest_bridge(seed):
    rng = random.Random(seed)
    points = BOARD.points
    occupied = set(rng.sample(points, rng.randint(5, 30)))
    blocked = set(rng.sample(sorted(occupied), len(occupied) // 4))
    crossable = lambda p: p not in blocked
    for start in sorted(occupied)[:8]:
        walk = walk_bridges(BOARD, start, occupied.__contains__, crossable)
        lasts = bridge_reach(BOARD, start, occupied.__contains__, crossable)
        assert set(walk.landings) == set(lasts)
        for landing in walk.landings:
            path = walk.path_to(landing)
            steps = list(zip((start, *path), (*path, landing)))
            assert path and all(b in BOARD.neighbours[a] for a, b in steps)
            assert all(p in occupied and crossable(p) and p != start for p in path)
            assert path[-1] in lasts[landing]
            depth = pieces_away(start, occupied, crossable)
            assert len(path) == min(depth[p] for p in BOARD.neighbours[landing] if p in depth)


def test_a_walk_stops_at_the_first_landing_it_is_told_to():
    # p9 over p1: p5, p8 next to p1; over p1 and center: p2, p3, p4 behind
    found = walk_bridges(BOARD, "p9", {"p9", "p1", "center"}.__contains__, lambda p: True)
    assert set(found.landings) == {"p5", "p8", "p2", "p3", "p4"}
    first = walk_bridges(BOARD, "p9", {"p9", "p1", "center"}.__contains__, lambda p: True, until=lambda p: True)
    assert len(first.landings) == 1 and first.path_to(first.landings[0]) == ("p1",)
    assert walk_bridges(BOARD, "p9", {"p9", "p1", "center"}.__contains__, lambda p: True,
                        until="p3".__eq__).path_to("p3") == ("p1", "center")


@pytest.mark.parametrize("seed", range(40))
def test_destinations_of_one_colours_pieces_agree_with_a_search_per_piece(seed):
    rng = random.Random(seed)
    points = BOARD.points
    cells = dict.fromkeys(points)
    for point in rng.sample(points, rng.randint(5, 70)):
        cells[point] = rng.choice("abcd")
    occupied = cells.__getitem__
    for colour in "abcd":
        starts = [p for p in points if cells[p] == colour]
        crossable = lambda q, own=colour: cells[q] != own
        together = bridge_destinations(BOARD, starts, occupied, crossable)
        assert list(together) == starts
        for start in starts:
            assert set(together[start]) == set(bridge_reach(BOARD, start, occupied, crossable))
            assert len(set(together[start])) == len(together[start])


def test_destinations_come_in_the_same_order_for_the_same_position():
    cells = {p: None for p in BOARD.points} | {"p1": "w", "p5": "r", "center": "b", "p9": "k", "p2": "k"}
    crossable = lambda q: cells[q] != "k"
    first = bridge_destinations(BOARD, ["p9", "p2"], cells.__getitem__, crossable)
    assert first == bridge_destinations(BOARD, ["p9", "p2"], cells.__getitem__, crossable)
    assert set(first["p9"]) == {"p8", "p10", "p3", "p4"}  # over p1 and p5, over p1 and center
