"""`board template`: the drawing at true scale, every place's holes and label, the clearance refused by name."""

from __future__ import annotations

import dataclasses
import math
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from itertools import combinations
from pathlib import Path

import pytest

from engine.boards import load_board
from firmware_host.cli import main
from wiring.kit.data import KitError, Offset, board_kit
from wiring.kit.layout import Layout, parse_length
from wiring.kit.pdf import PT

from .pdf_reader import read_pdf

SVG = "{http://www.w3.org/2000/svg}"


def written(tmp_path: Path, board: str, *scale: str) -> tuple[ET.Element, bytes]:
    assert main(["board", "template", board, *scale, "-o", str(tmp_path)]) == 0
    return (ET.parse(tmp_path / f"{board}-template.svg").getroot(),
            (tmp_path / f"{board}-template.pdf").read_bytes())


def circles(svg: ET.Element, layer: str) -> dict[str, tuple[float, float, float]]:
    group = svg.find(f"{SVG}g[@id='{layer}']")
    return {c.get("id").split("-", 1)[1]: (float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
            for c in group.iter(f"{SVG}circle")}


@pytest.mark.parametrize("board_name, scale, mm_per_unit", [("squareoff", ["--spacing", "30mm"], 30.0),
                                                             ("overpass", ["--size", "98cm"], None)])
def test_distances_in_millimetres_are_the_geometrys_at_the_chosen_size(tmp_path, capsys, board_name, scale,
                                                                       mm_per_unit):
    svg, pdf = written(tmp_path, board_name, *scale)
    board = load_board(board_name)
    width, height = float(svg.get("width").removesuffix("mm")), float(svg.get("height").removesuffix("mm"))
    assert svg.get("viewBox") == f"0 0 {svg.get('width')[:-2]} {svg.get('height')[:-2]}"
    if mm_per_unit is None:  # --size is the outline's longer side
        assert max(width, height) == pytest.approx(980)
        mm_per_unit = (980 - 2 * board_kit(board_name).margin_mm) / 27.313708
    sensors = circles(svg, "sensor-drill")
    places = list(board.locations.values())
    for a, b in combinations(places[:60], 2):
        drawn = math.dist(sensors[a.id][:2], sensors[b.id][:2])
        assert drawn == pytest.approx(math.dist(a.xy, b.xy) * mm_per_unit, abs=0.002), (a.id, b.id)
    engraved = [line for line in svg.find(f"{SVG}g[@id='engrave']").iter(f"{SVG}polyline")]
    visible = [stroke for stroke in board.strokes if not stroke.hidden]
    assert len(engraved) == len(visible)
    for line, stroke in zip(engraved, visible):
        (x1, y1), (x2, y2) = (tuple(map(float, p.split(","))) for p in line.get("points").split())
        assert math.hypot(x2 - x1, y2 - y1) == pytest.approx(math.dist(stroke.a, stroke.b) * mm_per_unit, abs=0.002)
    # the PDF's sheet is the same size, in points, and its sensor holes are where the SVG's are
    document = read_pdf(pdf)
    (page,) = document.pages()
    assert document.media_box(page) == pytest.approx((0, 0, width * PT, height * PT), abs=0.001)
    assert re.match(r"q (\S+) 0 0 (\S+) 0 (\S+) cm\n/Drawing Do", document.content(page)).groups() \
        == (f"{PT:.9f}", f"{-PT:.9f}", f"{height * PT:.6f}")
    block = document.streams[document.xobject(page)].split("/OC /sensor-drill BDC")[1].split("EMC")[0]
    starts = [float(value) for found in re.findall(r"(\S+) (\S+) m ", block) for value in found]
    assert starts == pytest.approx([c for x, y, r in sensors.values() for c in (x + r, y)], abs=0.001)


def test_every_place_has_its_sensor_hole_its_led_hole_and_its_label(tmp_path, capsys):
    svg, pdf = written(tmp_path, "overpass", "--size", "980mm")
    board = load_board("overpass")
    kit = board_kit("overpass")
    sensors, leds = circles(svg, "sensor-drill"), circles(svg, "led-drill")
    labels = {t.get("id"): t.text for t in svg.find(f"{SVG}g[@id='labels']").iter(f"{SVG}text")}
    assert set(sensors) == set(leds) == set(board.locations)
    assert labels == {f"label-{place}": place for place in board.locations}
    assert {r for _, _, r in sensors.values()} == {kit.sensor_hole_mm / 2}
    for place, location in board.locations.items():  # each LED as far from its sensor as kit.json says,
        offset = kit.led_offset(location.kind)  # the free way: never along a line (they run every 45 degrees)
        (sx, sy, _), (lx, ly, _) = sensors[place], leds[place]
        assert math.dist((sx, sy), (lx, ly)) == pytest.approx(offset.distance_mm, abs=0.002)
        assert offset.angle is None and math.degrees(math.atan2(sy - ly, lx - sx)) % 22.5 == pytest.approx(11.25, abs=0.01)
    form = read_pdf(pdf).streams
    drawing = max(form.values(), key=len)
    for place in board.locations:
        assert f"({place}) Tj" in drawing
    assert drawing.count(" c h S") == 2 * len(board.locations)  # a circle a hole
    for layer in ("engrave", "cut", "sensor-drill", "led-drill", "labels", "led-route", "chips"):
        assert f"/OC /{layer} BDC" in drawing
    strips = [line for line in svg.find(f"{SVG}g[@id='led-route']").iter(f"{SVG}polyline")]
    assert sum(len(line.get("points").split()) for line in strips) == len(board.locations)
    # the 26 74HC165s where `board route` puts them (the middle of the eight sensors each reads), chained in order
    chips = svg.find(f"{SVG}g[@id='chips']")
    squares = {shape.get("id"): shape for shape in chips.iter(f"{SVG}polygon")}
    assert sorted(squares, key=lambda name: int(name.split("-")[1])) == [f"chip-{k}" for k in range(26)]
    assert [text.text for text in chips.iter(f"{SVG}text")][:2] == ["74HC165 0: ch 0-7", "74HC165 1: ch 8-15"]
    bus = next(line for line in chips.iter(f"{SVG}polyline") if line.get("id") == "chip-bus")
    assert len(bus.get("points").split()) == 26


def test_a_size_too_small_for_the_clearance_is_refused_naming_the_two_places(tmp_path, capsys):
    assert main(["board", "template", "overpass", "--size", "420mm", "-o", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("gameboard: error: --size 420mm: the sensor of f15 and the sensor of p11 sit 5.4 mm "
                            "apart, closer than the 8 mm clearance; give --size 602mm (or --spacing 8mm) or more")
    assert not list(tmp_path.iterdir())
    assert main(["board", "template", "overpass", "--size", "600mm", "-o", str(tmp_path)]) == 2
    assert "sit 7.9 mm apart, closer than the 8 mm clearance" in capsys.readouterr().err  # 7.96 mm: never "8.0"
    assert main(["board", "template", "overpass", "--size", "602mm", "-o", str(tmp_path)]) == 0
    assert Layout.of_size(load_board("overpass"), board_kit("overpass"), 601).closest().distance < 8
    # fixed LED offsets (Square Off's): the size suggested keeps the clearance, 1 % less does not
    assert main(["board", "template", "squareoff", "--spacing", "10mm", "--clearance", "20mm", "-o",
                 str(tmp_path)]) == 2
    suggested = float(re.search(r"give --size (\d+)mm", capsys.readouterr().err).group(1))
    squareoff = load_board("squareoff"), board_kit("squareoff")
    assert Layout.of_size(*squareoff, suggested).closest().distance >= 20
    assert Layout.of_size(*squareoff, suggested * 0.99).closest().distance < 20


@pytest.mark.parametrize("text, message", [
    ("42", "--size 42: give a length with a unit, e.g. --size 420mm"),
    ("big", "--size big: not a length, e.g. --size 420mm"),
    ("0mm", "--size 0mm: a length must be more than 0"),
])
def test_lengths_need_a_unit(text, message):
    with pytest.raises(KitError, match="^" + message.replace("(", r"\(")):
        parse_length("--size", text)
    assert parse_length("--size", "42cm") == 420 and parse_length("--size", "16.5 in") == pytest.approx(419.1)


def test_the_pdf_is_accepted_by_real_readers_where_installed(tmp_path, capsys):
    written(tmp_path, "squareoff", "--spacing", "30mm")
    files = sorted(tmp_path.glob("*.pdf"))
    assert len(files) == 3
    for tool in ("qpdf", "pdftoppm"):
        if shutil.which(tool) is None:
            continue
        for path in files:
            command = [tool, "--check", str(path)] if tool == "qpdf" else [tool, "-r", "10", "-png", str(path),
                                                                           str(tmp_path / path.stem)]
            done = subprocess.run(command, capture_output=True, text=True)
            assert done.returncode == 0 and "rror" not in done.stderr, (tool, done.stdout, done.stderr)
    cairosvg = pytest.importorskip("cairosvg", reason="cairosvg (the test extra) renders the SVG")
    png = cairosvg.svg2png(url=str(tmp_path / "squareoff-template.svg"), output_width=200)
    assert png.startswith(b"\x89PNG")


def test_a_compartments_led_lights_that_compartment(tmp_path, capsys):
    """Over-Pass at 420 mm (with small sensors) keeps each compartment's LED inside it, the free way; an LED
    too far from its sensor for its compartment is refused by name."""
    svg, _ = written(tmp_path, "overpass", "--size", "420mm", "--clearance", "5mm")
    board = load_board("overpass")
    layout = Layout.of_size(board, board_kit("overpass"), 420)
    leds = circles(svg, "led-drill")
    for place, location in board.locations.items():
        if location.outline:
            outline = [layout.page(p) for p in location.outline]
            assert _inside(outline, leds[place][:2]), place
    far = dataclasses.replace(layout.kit, led_offsets={**layout.kit.led_offsets, "face": Offset(14, None)})
    with pytest.raises(KitError, match="^the LED of f1 falls outside its face .*smaller led_offset for face"):
        Layout(board, far, layout.mm_per_unit).check_areas()


def _inside(outline, p) -> bool:
    """Ray casting, written again here so the test does not lean on the code it checks."""
    crossings = 0
    for (x1, y1), (x2, y2) in zip(outline, outline[1:] + outline[:1]):
        if (y1 > p[1]) != (y2 > p[1]):
            crossings += p[0] < x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1)
    return crossings % 2 == 1
