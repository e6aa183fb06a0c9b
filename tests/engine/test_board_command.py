"""``gameboard board``: list, info and draw, through the command line's own entry point."""

import json
import xml.etree.ElementTree as ET

import pytest

from engine import boards
from firmware_host.cli import main


def test_info_json_has_the_derived_numbers(capsys):
    assert main(["board", "info", "overpass", "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert {key: facts[key] for key in ("intersections", "lines", "compartments", "triangles", "exits",
                                        "t_groups", "center_triangles")} == {
        "intersections": 104, "lines": 40, "compartments": 97, "triangles": 52, "exits": 8,
        "t_groups": 36, "center_triangles": 8}


def test_list_names_every_board(capsys):
    assert main(["board", "list"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == boards.board_names()


@pytest.mark.parametrize("name", boards.board_names())
def test_draw_svg_has_every_location(tmp_path, name):
    out = tmp_path / f"{name}.svg"
    assert main(["board", "draw", name, "-o", str(out), "--ids"]) == 0
    drawing = out.read_text()
    assert drawing.startswith("<svg")
    board = boards.load_board(name)
    for location in board.locations:
        assert f'data-loc="{location}"' in drawing
        assert f">{location}</text>" in drawing


def test_draw_with_a_games_start_shows_its_pieces(tmp_path):
    out = tmp_path / "start.svg"
    assert main(["board", "draw", "overpass", "-o", str(out), "--game", "overpass"]) == 0
    drawn = [c for c in ET.parse(out).getroot().iter("{http://www.w3.org/2000/svg}circle") if c.get("data-piece")]
    assert len(drawn) == 8  # two of each colour around the Center Square


def test_draw_png(tmp_path):
    pytest.importorskip("cairosvg")
    out = tmp_path / "board.png"
    assert main(["board", "draw", "squareoff", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bad_requests_get_one_clear_line(tmp_path, capsys):
    assert main(["board", "draw", "squareoff", "-o", str(tmp_path / "board.gif")]) == 2
    assert capsys.readouterr().err == (f"gameboard: error: -o {tmp_path / 'board.gif'}: give a file to write ending "
                                       "in .svg or .png, not a .gif file\n")
    assert main(["board", "draw", "squareoff", "-o", str(tmp_path)]) == 2
    assert capsys.readouterr().err.endswith(": give a file to write ending in .svg or .png, not a folder\n")
    assert main(["board", "draw", "squareoff", "-o", str(tmp_path / "x.svg"), "--game", "hexover"]) == 2
    assert capsys.readouterr().err.endswith("--game hexover is played on the hexover board, not squareoff: draw it with "
                                            "`gameboard board draw hexover --game hexover -o FILE`\n")


def test_a_broken_board_file_is_named_not_traced(tmp_path, monkeypatch, capsys):
    broken = tmp_path / "squareoff.json"
    broken.write_text('{"segments": {"sides": [[[0, 0]]]}}')
    monkeypatch.setattr(boards, "DATA", tmp_path)
    boards.load_board.cache_clear()
    try:
        assert main(["board", "info", "squareoff"]) == 2
    finally:
        boards.load_board.cache_clear()
    err = capsys.readouterr().err
    assert err.startswith(f"gameboard: error: {broken}: segments \"sides\", segment 1")
    assert "Traceback" not in err
