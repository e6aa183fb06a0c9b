"""The template tiled on sheets of A4 or Letter, to print at home and tape together.

Each sheet shows a window of the drawing inside the printer's margins, above a footer
with the sheet's place in the grid and a 100 mm scale bar.  Neighbouring windows
overlap by ``OVERLAP`` mm: a dashed line marks where the next sheet's window begins,
and crosses at the same drawing points on both sheets line them up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from wiring.kit.drawing import Drawing
from wiring.kit.pdf import Page, PdfDocument, path_ops, ruler_ops, text_ops

#: Paper sizes (portrait), mm.
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: What most printers cannot print, at every edge.
MARGIN = 10.0
#: The band at the bottom for the sheet's name and the scale bar.
FOOTER = 16.0
OVERLAP = 10.0
CROSS = 3.0


@dataclass(frozen=True)
class Tiling:
    """How a drawing is cut into sheets: the grid, the window each sheet shows, the paper's orientation."""

    paper: str
    sheet: tuple[float, float]  # width, height of the paper as printed
    window: tuple[float, float]  # the part of the drawing a sheet shows
    columns: int
    rows: int

    @property
    def step(self) -> tuple[float, float]:
        return self.window[0] - OVERLAP, self.window[1] - OVERLAP

    @property
    def count(self) -> int:
        return self.columns * self.rows

    def origin(self, row: int, column: int) -> tuple[float, float]:
        """The drawing point at the top-left of the window of the sheet at ``row``, ``column`` (from 0)."""
        return column * self.step[0], row * self.step[1]

    @property
    def orientation(self) -> str:
        return "landscape" if self.sheet[0] > self.sheet[1] else "portrait"


def _cells(length: float, window: float) -> int:
    return 1 if length <= window else math.ceil((length - OVERLAP) / (window - OVERLAP))


def tiling(drawing: Drawing, paper: str) -> Tiling:
    """The orientation that needs the fewer sheets (portrait on a tie)."""
    short, long = PAPERS[paper]
    best = None
    for sheet in ((short, long), (long, short)):
        window = (sheet[0] - 2 * MARGIN, sheet[1] - 2 * MARGIN - FOOTER)
        candidate = Tiling(paper, sheet, window, _cells(drawing.width, window[0]), _cells(drawing.height, window[1]))
        if best is None or candidate.count < best.count:
            best = candidate
    assert best is not None
    return best


def _cross(x: float, y: float) -> str:
    return path_ops(((x - CROSS, y), (x + CROSS, y))) + " " + path_ops(((x, y - CROSS), (x, y + CROSS)))


def tiled(drawing: Drawing, paper: str) -> tuple[Tiling, PdfDocument]:
    """The drawing on sheets of ``paper``, one page a sheet, left to right then top to bottom."""
    grid = tiling(drawing, paper)
    (ww, wh), (sx, sy) = grid.window, grid.step
    document = PdfDocument(drawing)
    for row in range(grid.rows):
        for column in range(grid.columns):
            x0, y0 = grid.origin(row, column)
            dx, dy = MARGIN - x0, MARGIN - y0  # drawing point + (dx, dy) = sheet point
            marks = []
            # the same drawing points on both sheets of an overlap: the middle of the overlap, at a third and two
            for edge_x in ([x0 + sx] if column < grid.columns - 1 else []) + ([x0] if column else []):
                for k in (1, 2):
                    marks.append(_cross(edge_x + OVERLAP / 2 + dx, MARGIN + k * wh / 3))
            for edge_y in ([y0 + sy] if row < grid.rows - 1 else []) + ([y0] if row else []):
                for k in (1, 2):
                    marks.append(_cross(MARGIN + k * ww / 3, edge_y + OVERLAP / 2 + dy))
            dashes = []
            if column < grid.columns - 1:
                dashes.append(path_ops(((MARGIN + sx, MARGIN), (MARGIN + sx, MARGIN + wh))))
            if row < grid.rows - 1:
                dashes.append(path_ops(((MARGIN, MARGIN + sy), (MARGIN + ww, MARGIN + sy))))
            footer_y = MARGIN + wh
            paper_name = paper.upper() if paper == "a4" else paper.title()
            name = (f"{drawing.title}: {paper_name} {grid.orientation} sheet {row * grid.columns + column + 1} of "
                    f"{grid.count}, row {row + 1} of {grid.rows}, column {column + 1} of {grid.columns}.")
            how = (f"Print at 100 % (no fitting to the page). The sheets overlap by {OVERLAP:g} mm: lay the next "
                   f"sheet's edge on the dashed line, crosses on crosses.")
            content = "\n".join([
                f"q {MARGIN:g} {MARGIN:g} {ww:.3f} {wh:.3f} re W n",
                f"1 0 0 1 {dx:.3f} {dy:.3f} cm /Drawing Do Q",
                "q 0.5 0.5 0.5 RG 0.15 w [] 0 d " + path_ops(((MARGIN, MARGIN), (MARGIN + ww, MARGIN),
                                                               (MARGIN + ww, MARGIN + wh), (MARGIN, MARGIN + wh)),
                                                              closed=True) + " Q",
                "q 0 0 0 RG 0.2 w [2 1.5] 0 d " + " ".join(dashes) + " Q" if dashes else "",
                "q 0 0 0 RG 0.25 w " + " ".join(marks) + " Q" if marks else "",
                "q 0 0 0 rg " + text_ops(MARGIN, footer_y + 3.5, name, 2.2) + " "
                + text_ops(MARGIN, footer_y + 7, how, 2.2) + " Q",
                "q " + ruler_ops(MARGIN, footer_y + 14) + " Q",
            ])
            document.pages.append(Page(grid.sheet[0], grid.sheet[1], content))
    return grid, document
