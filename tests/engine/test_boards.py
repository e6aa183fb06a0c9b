"""The boards derived from their geometry files: every number the rule texts state."""

import json
import math
from pathlib import Path

import pytest

from engine.board import CENTER
from engine.boards import BoardFileError, data_path, line_board_from_file, load_board


@pytest.fixture(scope="module")
def overpass():
    return load_board("overpass")


def test_overpass_numbers_match_the_design_table(overpass):
    facts = overpass.facts()
    assert facts["intersections"] == 104
    assert facts["lines"] == 40
    assert facts["compartments"] == 97
    assert facts["triangles"] == 52
    assert facts["exits"] == 8
    assert facts["cover_edge_intersections"] == 8
    assert facts["center_triangles"] == 8
    assert facts["t_groups"] == 36


def test_overpass_numbers_agree_with_the_shared_segments_file(overpass):
    path = Path(__file__).resolve().parents[2] / "docs" / "overpass-board-segments.json"
    shared = json.loads(path.read_text())
    expected = shared["expected"]
    assert len(overpass.visible_points) == expected["intersections"]
    assert len(overpass.faces) == expected["compartments"]
    assert len(overpass.drawn_lines) == expected["maximal_straight_lines"]
    assert len(overpass.exits) == expected["exit_points"]
    assert len(overpass.around_cover) == expected["triangles_around_center_square"]
    assert len(overpass.t_groups) == expected["t_junctions_group_of_three"]
    assert len(overpass.on_cover_edge) == expected["intersections_on_center_square_edge"]


def test_only_the_exits_lack_an_outward_neighbour(overpass):
    without = {p for p in overpass.points if not overpass.outward[p]}
    assert without == set(overpass.exits)


def test_exits_are_the_eight_star_tips(overpass):
    tip = 4 * math.sqrt(2) * (1 + math.sqrt(2))
    for exit_point in overpass.exits:
        x, y = overpass.xy(exit_point)
        assert sorted((abs(x), abs(y))) == pytest.approx(sorted((tip, 4 * math.sqrt(2))), abs=1e-5)


def test_hidden_centre_connects_along_the_spokes_only(overpass):
    spoke_ends = {overpass.point_at(p) for p in [(1, 0), (0, 1), (-1, 0), (0, -1)]}
    assert set(overpass.neighbours[CENTER]) == spoke_ends
    # the spokes pass through the centre: two lines, horizontal and vertical
    assert sorted(line.direction for line in overpass.lines_through[CENTER]) == [0.0, 90.0]


def test_every_line_of_the_network_is_straight_and_ordered(overpass):
    for line in overpass.lines:
        xs = [overpass.xy(p) if p != CENTER else overpass.centre for p in line.points]
        (x0, y0), (x1, y1) = xs[0], xs[-1]
        for x, y in xs:
            assert abs((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)) < 1e-4
        dist = [math.hypot(x - x0, y - y0) for x, y in xs]
        assert dist == sorted(dist)


def test_pass_through_and_terminate_partition_the_lines_at_each_point(overpass):
    for p in overpass.points:
        on = {line.index for line in overpass.lines if p in line.points}
        through = {line.index for line in overpass.lines_through[p]}
        ending = {line.index for line in overpass.lines_ending[p]}
        assert through | ending == on and not through & ending


def test_t_junction_has_one_line_through_and_one_ending(overpass):
    for junction in overpass.t_junctions:
        drawn_on = [line for line in overpass.drawn_lines if junction in line.points]
        ends = [line for line in drawn_on if junction in (line.points[0], line.points[-1])]
        assert len(drawn_on) == 2 and len(ends) == 1


def test_t_groups_are_three_mutually_adjacent_or_spanning_compartments(overpass):
    for spanning, side_a, side_b in overpass.t_groups:
        assert side_a in overpass.face_adjacency[spanning]
        assert side_b in overpass.face_adjacency[spanning]
        assert side_a in overpass.face_adjacency[side_b]


def test_adjacency_needs_a_shared_side_not_a_corner(overpass):
    # The eight triangles around the Center Square meet each other at corners too.
    around = overpass.around_cover
    for a in around:
        for b in around:
            if a != b:
                shared = set(overpass.places[a].outline) & set(overpass.places[b].outline)
                assert (b in overpass.face_adjacency[a]) == (len(shared) >= 2)


def test_face_adjacency_is_symmetric(overpass):
    for a, neighbours in overpass.face_adjacency.items():
        for b in neighbours:
            assert a in overpass.face_adjacency[b]


def test_square_off_board():
    board = load_board("squareoff")
    assert len(board.points) == 24
    assert len(board.lines) == 16
    assert all(len(line.points) == 3 for line in board.lines)
    assert all(loc.kind == "point" for loc in board.locations.values())


def write(tmp_path, data):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data, indent=1))
    return path


def test_segment_with_one_point_is_named(tmp_path):
    path = write(tmp_path, {"segments": {"sides": [[[0, 0], [1, 0]], [[1, 0]]]}})
    with pytest.raises(BoardFileError, match=r"board.json: segments \"sides\", segment 2 .* has 1 points; a segment needs exactly two"):
        line_board_from_file(path)


def test_board_that_falls_apart_is_refused(tmp_path):
    path = write(tmp_path, {"segments": {"a": [[[0, 0], [1, 0]]], "b": [[[5, 5], [6, 5]]]}})
    with pytest.raises(BoardFileError, match="falls apart into separate pieces"):
        line_board_from_file(path)


def test_malformed_json_names_the_line(tmp_path):
    path = tmp_path / "board.json"
    path.write_text('{\n "segments": {\n  "a": [[[0, 0], [1, 0]],]\n }\n}\n')
    with pytest.raises(BoardFileError, match=r"board.json:3:\d+: not valid JSON"):
        line_board_from_file(path)


def test_non_numeric_point_and_zero_length(tmp_path):
    with pytest.raises(BoardFileError, match="a point must be two numbers"):
        line_board_from_file(write(tmp_path, {"segments": {"a": [[[0, "x"], [1, 0]]]}}))
    with pytest.raises(BoardFileError, match="zero length"):
        line_board_from_file(write(tmp_path, {"segments": {"a": [[[1, 1], [1, 1]]]}}))


def test_missing_segments(tmp_path):
    with pytest.raises(BoardFileError, match='needs "segments"'):
        line_board_from_file(write(tmp_path, {"name": "x"}))


def test_edited_geometry_changes_the_derivation(tmp_path):
    """Someone with the real board edits the file and gets a new topology, no code touched."""
    data = json.loads(data_path("squareoff").read_text())
    data["segments"]["diagonals"] = [[[-3, -3], [-1, -1]], [[3, 3], [1, 1]], [[-3, 3], [-1, 1]], [[3, -3], [1, -1]]]
    board = line_board_from_file(write(tmp_path, data))
    assert len(board.points) == 24
    assert len(board.lines) == 20
