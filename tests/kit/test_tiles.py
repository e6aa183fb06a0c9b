"""The tiled sheets reassemble to the whole drawing: read back from the PDF, each sheet's clip and
transform give the window of the drawing it shows; the windows cover the drawing, neighbours overlap by
exactly the overlap, and every sheet places the same drawing and a 100 mm scale bar."""

from __future__ import annotations

import re

import pytest

from firmware_host.cli import main
from wiring.kit.pdf import PT
from wiring.kit.tiles import MARGIN, OVERLAP, PAPERS

from .pdf_reader import read_pdf

NUMBER = r"(-?[\d.]+)"


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_sheets_reassemble_to_the_full_drawing(tmp_path, capsys, paper):
    assert main(["board", "template", "overpass", "--size", "980mm", "-o", str(tmp_path)]) == 0
    whole = read_pdf((tmp_path / "overpass-template.pdf").read_bytes())
    (full_page,) = whole.pages()
    width, height = (value / PT for value in whole.media_box(full_page)[2:])
    sheets = read_pdf((tmp_path / f"overpass-template-{paper}.pdf").read_bytes())
    drawing = whole.streams[whole.xobject(full_page)]
    windows = []
    for page in sheets.pages():
        assert sheets.streams[sheets.xobject(page)] == drawing  # the same drawing on every sheet, unscaled
        box = sheets.media_box(page)
        assert sorted(value / PT for value in box[2:]) == pytest.approx(sorted(PAPERS[paper]), abs=0.01)
        content = sheets.content(page)
        scale = re.match(rf"q {NUMBER} 0 0 {NUMBER} 0 {NUMBER} cm", content)  # millimetres, y down, to scale
        assert (float(scale.group(1)), -float(scale.group(2))) == pytest.approx((72 / 25.4, 72 / 25.4), rel=1e-8)
        clip = re.search(rf"q {NUMBER} {NUMBER} {NUMBER} {NUMBER} re W n\n1 0 0 1 {NUMBER} {NUMBER} cm /Drawing Do Q",
                         content)
        x, y, w, h, dx, dy = map(float, clip.groups())
        assert (x, y) == (MARGIN, MARGIN) and x + w <= box[2] / PT - MARGIN + 1e-6
        windows.append((x - dx, y - dy, w, h))  # the window in drawing millimetres
        ruler = re.search(rf"0 0 0 RG 0 0 0 rg 0.3 w {NUMBER} {NUMBER} m {NUMBER} {NUMBER} l S", content)
        x1, y1, x2, y2 = map(float, ruler.groups())
        assert (x2 - x1, y2 - y1) == (100, 0)
    lefts = sorted({round(w[0], 3) for w in windows})
    tops = sorted({round(w[1], 3) for w in windows})
    assert len(lefts) * len(tops) == len(windows)
    step_x, step_y = windows[0][2] - OVERLAP, windows[0][3] - OVERLAP
    assert lefts == pytest.approx([n * step_x for n in range(len(lefts))])
    assert tops == pytest.approx([n * step_y for n in range(len(tops))])
    assert lefts[-1] + windows[0][2] >= width and tops[-1] + windows[0][3] >= height  # nothing left out
    assert lefts[-1] < width - OVERLAP and tops[-1] < height - OVERLAP  # and no sheet of margin alone
    assert f"{paper}: {len(lefts)} x {len(tops)} " in capsys.readouterr().out
