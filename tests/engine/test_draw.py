"""The board drawing: every piece of a stack, pieces that never touch.

Every test draws with the real ``svg()`` or the real CLI and reads the SVG back as XML.
"""

import math
import xml.etree.ElementTree as ET
from itertools import combinations

import pytest

from engine.boards import board_names, load_board
from engine.draw import Overlay, svg
from firmware_host.cli import main

SVG = "{http://www.w3.org/2000/svg}"
SUITS = load_board("pawns").equipment.suits


def drawing(board: str, overlay: Overlay | None = None, width: int = 1280) -> ET.Element:
    return ET.fromstring(svg(load_board(board), overlay, width=width))


def groups(doc: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-loc"): g for g in doc.iter(f"{SVG}g") if g.get("data-loc")}


def pieces(group: ET.Element) -> list[ET.Element]:
    return group.findall(f"{SVG}circle[@data-piece]")


def disc(circle: ET.Element) -> tuple[float, float, float]:
    return float(circle.get("cx")), float(circle.get("cy")), float(circle.get("r"))


def everywhere(board: str) -> Overlay:
    """A piece on every location of the board."""
    return Overlay(pieces={loc: "x" for loc in load_board(board).locations})


# -- stacks ---------------------------------------------------------------------------------


def test_a_stack_shows_every_piece_in_its_colour_and_how_many():
    doc = drawing("pawns", Overlay(pieces={"t2.2": "green+red+red+red"}, piece_colours=SUITS), width=760)
    tile = groups(doc)["t2.2"]
    assert tile.get("data-stack") == "green+red+red+red"
    assert [(p.get("data-piece"), p.get("fill")) for p in pieces(tile)] == [
        ("green", SUITS["green"])] + [("red", SUITS["red"])] * 3
    assert [t.text for t in tile.iter(f"{SVG}text")] == ["4"]


def test_the_last_piece_of_a_stack_is_the_top_the_one_a_hand_lifts():
    doc = drawing("pawns", Overlay(pieces={"t2.2": "green+red+blue", "t1.1": "black"}, piece_colours=SUITS))
    for loc, top in (("t2.2", "blue"), ("t1.1", "black")):
        drawn = pieces(groups(doc)[loc])
        tops = [p for p in drawn if "top" in p.get("class").split()]
        assert tops == [drawn[-1]] and tops[0].get("data-piece") == top
    single = groups(doc)["t1.1"]
    assert single.get("data-stack") == "black" and not list(single.iter(f"{SVG}text"))


@pytest.mark.parametrize("count", [2, 3, 4, 5, 9, 10])
@pytest.mark.parametrize("width", [390, 760])
def test_stacked_pieces_lie_apart_inside_their_tile(count, width):
    codes = "+".join((["red", "blue", "green", "black"] * 3)[:count])
    doc = drawing("pawns", Overlay(pieces={"t3.3": codes}, piece_colours=SUITS), width=width)
    drawn = [disc(p) for p in pieces(groups(doc)["t3.3"])]
    assert len(drawn) == count
    for (x1, y1, r1), (x2, y2, r2) in combinations(drawn, 2):
        assert math.dist((x1, y1), (x2, y2)) > r1 + r2
    outline = next(p for p in doc.iter(f"{SVG}polygon") if p.get("data-loc") == "t3.3")
    xs, ys = zip(*(map(float, xy.split(",")) for xy in outline.get("points").split()))
    for x, y, r in drawn:
        assert min(xs) < x - r and x + r < max(xs) and min(ys) < y - r and y + r < max(ys)


def test_board_draw_shows_pawns_crossings_stacks_of_three(tmp_path):
    out = tmp_path / "pawns.svg"
    assert main(["board", "draw", "pawns", "-o", str(out), "--game", "pawns-crossing"]) == 0
    tile = groups(ET.parse(out).getroot())["t3.3"]
    assert tile.get("data-stack") == "green+green+green"
    assert [p.get("data-piece") for p in pieces(tile)] == ["green"] * 3
    assert [t.text for t in tile.iter(f"{SVG}text")] == ["3"]


# -- pieces --------------------------------------------------------------------


@pytest.mark.parametrize("name", board_names())
def test_pieces_on_neighbouring_points_never_touch(name):
    board = load_board(name)
    found = groups(drawing(name, everywhere(name)))
    points = [disc(pieces(found[loc.id])[0]) for loc in board.locations.values() if not loc.outline]
    for (x1, y1, r1), (x2, y2, r2) in combinations(points, 2):
        assert math.dist((x1, y1), (x2, y2)) > r1 + r2
