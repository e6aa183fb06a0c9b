"""The Pawns Crossing board: the grid derived from pawns.json, and clear errors for a bad file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.boards import BoardFileError, data_path, load_board
from engine.boards.pawns_layout import build


@pytest.fixture(scope="module")
def board():
    return load_board("pawns")


def test_the_stated_numbers(board):
    facts = board.facts()
    assert facts["tiles"] == 16 and facts["dominoes"] == 24 and facts["holes"] == 9
    assert facts["pusher_places"] == 16 and facts["slidable_lines"] == 8
    assert facts["by_kind"] == {"tile": 16, "half": 48, "hole": 9, "pusher": 32}
    assert len(board.equipment.dominoes) == 25  # 24 between the tiles and the Pusher


def test_the_kit_leaves_out_the_three_big_sixes(board):
    assert not {(6, 6), (5, 6), (4, 6)} & set(board.equipment.dominoes)
    assert board.equipment.die_faces == (0, 1, 2, 3, 4, 5)
    assert len(board.equipment.tiles) == 16


def test_a_hole_joins_the_four_half_dominoes_around_it(board):
    assert board.holes["h1.1"] == ("d1.1e-s", "d2.1e-n", "d1.1s-e", "d1.2s-w")
    through = {step for step, hole in board.links["d1.1e-s"] if hole == "h1.1"}
    assert through == {"d2.1e-n", "d1.1s-e", "d1.2s-w"}


def test_both_halves_of_a_domino_touch_both_tiles_it_lies_between(board):
    for half in board.slots["d2.3e"].halves:
        assert {"t2.3", "t2.4"} <= {step for step, _ in board.links[half]}
    assert {step for step, _ in board.links["t1.1"]} == {
        "d1.1e-n", "d1.1e-s", "d1.1s-w", "d1.1s-e", "push-w1-n", "push-w1-s", "push-n1-w", "push-n1-e"}


def test_links_go_both_ways(board):
    for space, steps in board.links.items():
        for step, hole in steps:
            assert (space, hole) in board.links[step]


def test_lines_run_west_to_east_and_north_to_south_with_a_pusher_place_at_each_end(board):
    row = board.lines["row2"]
    assert row.tiles == ("t2.1", "t2.2", "t2.3", "t2.4") and row.slots == ("d2.1e", "d2.2e", "d2.3e")
    assert row.ends == ("push-w2", "push-e2") and (row.forward, row.backward) == ("east", "west")
    column = board.lines["col3"]
    assert column.slots == ("d1.3s", "d2.3s", "d3.3s") and column.ends == ("push-n3", "push-s3")
    assert board.pusher_places["push-s3"].tiles == ("t4.3",)


def test_places_are_laid_out_on_the_physical_grid(board):
    tile = board.locations["t1.1"]
    half = board.locations["d1.1e-n"]
    assert tile.xy == (-4.5, 4.5)  # 2-inch tiles, 1-inch dominoes: a 3-inch pitch
    assert half.xy == (-3.0, 5.0)
    assert board.locations["h1.1"].xy == (-3.0, 3.0)
    assert board.locations["push-w1-n"].xy == (-6.0, 5.0)
    assert len(board.shapes) == 16 + 24 + 16 and board.strokes


def write(tmp_path: Path, change) -> Path:
    data = json.loads(data_path("pawns").read_text())
    change(data)
    path = tmp_path / "pawns.json"
    path.write_text(json.dumps(data, indent=1))
    return path


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(rows=1), "rows must be a whole number >= 2"),
    (lambda d: d.update(tile_size="big"), "tile_size must be a number"),
    (lambda d: d["domino"].update(length=3.0), "no longer than the tile side"),
    (lambda d: d["equipment"]["dominoes"].update(leave_out=[[6, 6]]), "adjust leave_out"),
    (lambda d: d["equipment"]["dominoes"].update(leave_out=[[6, 7], [6, 5], [6, 4]]), "is not a domino"),
    (lambda d: d["equipment"].update(ranks=[1, 2, 3]), "make them agree"),
    (lambda d: d["equipment"].update(ranks=[2, 3, 4, 5]), "starting with 1"),
    (lambda d: d["equipment"]["suits"].update(red="crimson"), "display colour"),
    (lambda d: d.pop("equipment"), "needs \"equipment\""),
])
def test_a_bad_board_file_names_the_file_and_the_fix(tmp_path, change, message):
    path = write(tmp_path, change)
    with pytest.raises(BoardFileError, match=message) as info:
        build(path)
    assert str(path) in str(info.value)


def test_a_bigger_kit_and_grid_is_derived_without_code(tmp_path):
    def five_by_five(d):
        d.update(rows=5, columns=5)
        d["equipment"]["ranks"] = [1, 2, 3, 4, 5]
        d["equipment"]["suits"]["white"] = "#eeeeee"
        d["equipment"]["dominoes"] = {"max_pips": 8, "leave_out": [[a, 8] for a in range(4)]}
    board = build(write(tmp_path, five_by_five))
    assert board.facts()["holes"] == 16 and board.facts()["dominoes"] == 40
