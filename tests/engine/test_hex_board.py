"""The Hexover board derived from engine/boards/hexover.json: the numbers the rules state."""

import json
import math

import pytest

from engine.boards import BoardFileError, data_path, load_board
from engine.boards.hexgrid import build


@pytest.fixture(scope="module")
def board():
    return load_board("hexover")


def test_61_cells_12_paths_of_5_and_18_red_cells(board):
    assert len(board.cells) == 61 == len(board.locations)
    assert len(board.paths) == 12
    assert all(len(path) == 5 and len(set(path)) == 5 for path in board.paths)
    assert len(board.red) == 18
    facts = board.facts()
    assert (facts["cells"], facts["paths"], facts["red"], facts["white"]) == (61, 12, 18, 43)


def test_red_cells_are_exactly_the_cells_on_no_path(board):
    on_path = {cell for path in board.paths for cell in path}
    assert set(board.red) == set(board.cells) - on_path


def test_cells_are_numbered_outward_and_counter_clockwise_from_east(board):
    assert board.locations["h1"].xy == (0.0, 0.0)
    angles = [math.degrees(math.atan2(y, x)) % 360 for x, y in (board.locations[f"h{n}"].xy for n in range(2, 8))]
    assert angles == pytest.approx([0, 60, 120, 180, 240, 300])
    radii = [math.hypot(*board.locations[c].xy) for c in board.cells]
    assert radii[7] > radii[6] and max(radii[:7]) < min(radii[7:19])


def test_neighbours_touch_along_a_side(board):
    side = math.sqrt(3) * board.radius
    for cell, near in board.neighbours.items():
        assert 3 <= len(near) <= 6
        for other in near:
            assert math.dist(board.locations[cell].xy, board.locations[other].xy) == pytest.approx(side)
    assert len(board.neighbours["h1"]) == 6 and len(board.neighbours["h38"]) == 3


def test_rays_run_straight_to_the_edge(board):
    assert [len(ray) for ray in board.rays["h1"]] == [4] * 6
    for ray in board.rays["h1"]:
        xs = [board.locations[c].xy for c in ("h1", *ray)]
        steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(xs, xs[1:])]
        assert all(step == pytest.approx(steps[0], abs=1e-5) for step in steps)


def test_paths_are_the_six_half_spokes_and_six_edges(board):
    spokes = [p for p in board.paths if p[0] == "h1"]
    assert len(spokes) == 6
    corners = {p[-1] for p in spokes}
    edges = [p for p in board.paths if p[0] != "h1"]
    assert all(p[0] in corners and p[-1] in corners for p in edges)


def test_setup_of_figure_3(board):
    assert board.setup["h1"] == "black"
    ring = [board.setup[f"h{n}"] for n in range(2, 8)]
    assert all(a != b for a, b in zip(ring, ring[1:] + ring[:1])), "the six around alternate"
    assert sorted(board.setup.values()).count("black") == 4 and len(board.setup) == 7


def test_drawing_shows_red_and_white_cells_and_the_path_lines(board):
    fills = [shape.fill for shape in board.shapes if shape.label != "path end"]
    assert fills.count("red") == 18 and fills.count("white") == 43
    assert len(board.strokes) == 12
    assert all(len(loc.outline) == 6 and loc.kind == "cell" for loc in board.locations.values())


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(side=1), '"side" must be a whole number'),
    (lambda d: d["paths"][0].update(length=6), "paths, entry 1: 6 cells E from .* leave the board"),
    (lambda d: d["paths"][2].update(direction="N"), "paths, entry 3: direction 'N' is not one of"),
    (lambda d: d["paths"][1].update({"from": [5, 0]}), "cell \\[5, 0\\] is off a board of side 5"),
    (lambda d: d["setup"]["white"].append([0, 0]), "cell \\[0, 0\\] is listed twice"),
    (lambda d: d.pop("paths"), 'needs "paths"'),
])
def test_bad_board_files_name_the_entry_and_the_fix(tmp_path, change, message):
    data = json.loads(data_path("hexover").read_text())
    change(data)
    path = tmp_path / "hexover.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BoardFileError, match=message):
        build(path)
