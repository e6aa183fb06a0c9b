"""The board drawing: stacks, Over-Pass's lens, labels that never overlap, pieces big enough to click.

Every test draws with the real ``svg()`` or the real CLI and reads the SVG back as XML.
"""

import json
import math
import xml.etree.ElementTree as ET
from itertools import combinations

import pytest

from engine import boards
from engine.boards import board_names, load_board
from engine.draw import Overlay, svg
from engine.draw_labels import ASCENT
from firmware_host.cli import main

SVG = "{http://www.w3.org/2000/svg}"
SUITS = load_board("pawns").equipment.suits

#: Smallest piece (and hit disc) diameter, in px.  At 1280 px: 24, WCAG 2.2's minimum
#: target size (SC 2.5.8, 24 x 24 CSS px).  The drawing scales with its width, and on a
#: 390 px phone Over-Pass's 201 places share a 390 px square, about 27 x 27 px each if
#: they tiled it with no gap: 24 px for every one cannot be had, so there the page's zoom
#: does the rest, and the floor is the 1280 one scaled down (7 px, a disc still seen and
#: hit after a 3.5x pinch).  The centre, where play is, gets more (see the lens test).
FLOOR = {1280: 24.0, 390: 7.0}
#: Over-Pass's centre pieces drawn to scale (before the lens) were 36.9 px across at 1280.
OVERPASS_CENTRE_TO_SCALE = 36.9
CENTRE = ["center"] + [f"p{n}" for n in range(1, 9)]


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


def centres(board: str) -> dict[str, tuple[float, float]]:
    """Where each location is drawn (the centre of the piece on it)."""
    return {loc: disc(pieces(g)[0])[:2] for loc, g in groups(drawing(board, everywhere(board))).items()}


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


# -- Over-Pass's centre ---------------------------------------------------------------------


def test_overpass_centre_pieces_are_at_least_twice_as_large_as_drawn_to_scale():
    doc = drawing("overpass", everywhere("overpass"), width=1280)
    sizes = {loc: 2 * disc(pieces(g)[0])[2] for loc, g in groups(doc).items()}
    assert min(sizes[loc] for loc in CENTRE) >= 2 * OVERPASS_CENTRE_TO_SCALE
    assert min(sizes[loc] for loc in sizes if loc.startswith("p")) > OVERPASS_CENTRE_TO_SCALE  # none got worse


def test_the_lens_keeps_overpass_the_same_board():
    """Every location keeps its direction from the centre and its order outward; the
    Center Square and the two squares around it (within the flat radius) keep their shape."""
    board = load_board("overpass")
    drawn = centres("overpass")
    cx, cy = drawn["center"]
    polar = {}
    for loc, (x, y) in drawn.items():
        bx, by = board.locations[loc].xy
        polar[loc] = (math.hypot(bx, by), math.hypot(x - cx, y - cy))
        if polar[loc][0] > 1e-6:  # the same direction (the page's y grows downward)
            r, drawn_r = polar[loc]
            assert ((x - cx) / drawn_r, (cy - y) / drawn_r) == pytest.approx((bx / r, by / r), abs=1e-3)
    for a, b in combinations(polar.values(), 2):
        if a[0] < b[0] - 1e-6:
            assert a[1] < b[1]
    flat = json.loads(boards.data_path("overpass").read_text())["drawing"]["fisheye"]["flat_radius"]
    scales = [drawn_r / r for r, drawn_r in polar.values() if 1e-6 < r <= flat]
    assert len(scales) >= 8 and max(scales) == pytest.approx(min(scales), rel=1e-3)


@pytest.mark.parametrize("name", ["squareoff", "hexover", "pawns"])
def test_boards_that_ask_for_no_lens_are_drawn_to_scale(name):
    board = load_board(name)
    drawn = centres(name)
    pairs = list(combinations(sorted(drawn), 2))[::7]
    scales = [math.dist(drawn[a], drawn[b]) / math.dist(board.locations[a].xy, board.locations[b].xy)
              for a, b in pairs]
    assert max(scales) == pytest.approx(min(scales), rel=1e-3)


def test_a_bad_lens_in_a_board_file_is_named_not_traced(tmp_path, monkeypatch, capsys):
    data = json.loads(boards.data_path("overpass").read_text())
    data["drawing"] = {"fisheye": {"flat_radius": 2, "halving_distance": 0}}
    (tmp_path / "overpass.json").write_text(json.dumps(data))
    monkeypatch.setattr(boards, "DATA", tmp_path)
    boards.load_board.cache_clear()
    try:
        assert main(["board", "draw", "overpass", "-o", str(tmp_path / "board.svg")]) == 2
    finally:
        boards.load_board.cache_clear()
    err = capsys.readouterr().err
    assert err.startswith(f"gameboard: error: {tmp_path / 'overpass.json'}: drawing.fisheye needs flat_radius >= 0 "
                          "and halving_distance > 0")
    assert "Traceback" not in err


# -- labels ---------------------------------------------------------------------------------


def label_boxes(doc: ET.Element) -> dict[str, tuple[float, float, float, float]]:
    """Each label's box: its forced width (textLength) by one font size, ASCENT of it above the baseline."""
    boxes = {}
    for text in doc.iter(f"{SVG}text"):
        if text.get("textLength"):
            x, y, size, width = (float(text.get(k)) for k in ("x", "y", "font-size", "textLength"))
            assert text.text not in boxes
            boxes[text.text] = (x - width / 2, y - ASCENT * size, x + width / 2, y + (1 - ASCENT) * size)
    return boxes


@pytest.mark.parametrize("width", [None, 390, 1280])
@pytest.mark.parametrize("name", board_names())
def test_ids_label_every_location_and_no_two_overlap(tmp_path, name, width):
    out = tmp_path / f"{name}.svg"
    assert main(["board", "draw", name, "-o", str(out), "--ids"] + (["--width", str(width)] if width else [])) == 0
    doc = ET.parse(out).getroot()
    boxes = label_boxes(doc)
    assert sorted(boxes) == sorted(load_board(name).locations)
    page_width, page_height = float(doc.get("width")), float(doc.get("height"))
    for left, top, right, bottom in boxes.values():
        assert 0 <= left < right <= page_width and 0 <= top < bottom <= page_height
    overlapping = [(a, b) for (a, p), (b, q) in combinations(boxes.items(), 2)
                   if p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]]
    assert overlapping == []


def test_ids_on_a_drawing_too_narrow_for_them_get_one_clear_line(tmp_path, capsys):
    assert main(["board", "draw", "overpass", "-o", str(tmp_path / "board.svg"), "--ids", "--width", "200"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gameboard: error: at 200 px wide the ids do not fit") and err.endswith("--width\n")


# -- big enough to click --------------------------------------------------------------------


@pytest.mark.parametrize("width", sorted(FLOOR))
@pytest.mark.parametrize("name", board_names())
def test_every_piece_and_hit_disc_is_large_enough_to_click(name, width):
    full = drawing(name, everywhere(name), width=width)
    empty = drawing(name, width=width)
    diameters = [2 * disc(p)[2] for g in groups(full).values() for p in pieces(g)]
    diameters += [2 * float(c.get("r")) for c in empty.iter(f"{SVG}circle") if c.get("class") == "hit"]
    assert len(diameters) >= len(load_board(name).locations)
    assert min(diameters) >= FLOOR[width]


@pytest.mark.parametrize("name", board_names())
def test_pieces_on_neighbouring_points_never_touch(name):
    board = load_board(name)
    found = groups(drawing(name, everywhere(name)))
    points = [disc(pieces(found[loc.id])[0]) for loc in board.locations.values() if not loc.outline]
    for (x1, y1, r1), (x2, y2, r2) in combinations(points, 2):
        assert math.dist((x1, y1), (x2, y2)) > r1 + r2


@pytest.mark.parametrize("width", [-5, 0, 99, 4001, 100000])
def test_a_width_out_of_range_is_refused_before_drawing(width):
    with pytest.raises(ValueError, match="give a width from 100 to 4000"):
        svg(load_board("overpass"), width=width)
