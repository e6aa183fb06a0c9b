"""A small vector PDF writer, by hand (no dependency): the template as one Form XObject, placed on pages.

The drawing is written once, in millimetres with y downward, as a Form XObject with
one optional-content group (a PDF layer) per template layer; a page places it with a
transform (the full sheet at 1:1, or a window of it on a tile of paper) and may add
marks of its own.  Text is Helvetica, one of the 14 fonts every reader has.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from wiring.kit.drawing import LAYERS, Circle, Drawing, Path, Shape, Text

#: Points per millimetre: a PDF's unit is 1/72 inch.
PT = 72 / 25.4
#: A circle drawn as four Bezier quarters: the control points' distance, as a fraction of the radius.
KAPPA = 0.5522847498
#: Helvetica's widths (thousandths of the font size) of the characters location ids use; others count 556.
WIDTHS = {**dict.fromkeys("0123456789abdeghnopqu", 556), "c": 500, "k": 500, "s": 500, "v": 500, "x": 500,
          "y": 500, "z": 500, "f": 278, "t": 278, "i": 222, "j": 222, "l": 222, "r": 333, "m": 833, "w": 722,
          ".": 278, ",": 278, "-": 333, " ": 278, "(": 333, ")": 333, ":": 278, "/": 278}


def text_width(text: str, size: float) -> float:
    """How wide ``text`` is set in Helvetica at ``size`` (close enough to centre a label)."""
    return sum(WIDTHS.get(ch, 556) for ch in text) * size / 1000


def _n(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") or "0"


def _rgb(colour: str) -> str:
    return " ".join(_n(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))


def _string(text: str) -> str:
    safe = text.encode("latin-1", "replace").decode("latin-1")
    return "(" + safe.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def path_ops(points: tuple[tuple[float, float], ...] | list[tuple[float, float]], closed: bool = False) -> str:
    (x, y), rest = points[0], points[1:]
    ops = [f"{_n(x)} {_n(y)} m"] + [f"{_n(px)} {_n(py)} l" for px, py in rest]
    return " ".join(ops) + (" h S" if closed else " S")


def circle_ops(cx: float, cy: float, r: float) -> str:
    k = KAPPA * r
    return (f"{_n(cx + r)} {_n(cy)} m "
            f"{_n(cx + r)} {_n(cy + k)} {_n(cx + k)} {_n(cy + r)} {_n(cx)} {_n(cy + r)} c "
            f"{_n(cx - k)} {_n(cy + r)} {_n(cx - r)} {_n(cy + k)} {_n(cx - r)} {_n(cy)} c "
            f"{_n(cx - r)} {_n(cy - k)} {_n(cx - k)} {_n(cy - r)} {_n(cx)} {_n(cy - r)} c "
            f"{_n(cx + k)} {_n(cy - r)} {_n(cx + r)} {_n(cy - k)} {_n(cx + r)} {_n(cy)} c h S")


def text_ops(x: float, y: float, text: str, size: float, anchor: str = "start") -> str:
    """Text with its baseline at (x, y) in a y-down space: the text matrix flips it upright again."""
    if anchor == "middle":
        x -= text_width(text, size) / 2
    return f"BT /F1 {_n(size)} Tf 1 0 0 -1 {_n(x)} {_n(y)} Tm {_string(text)} Tj ET"


def shape_ops(shape: Shape) -> str:
    if isinstance(shape, Circle):
        return circle_ops(*shape.centre, shape.radius)
    if isinstance(shape, Text):
        return text_ops(*shape.xy, shape.text, shape.size, shape.anchor)
    assert isinstance(shape, Path)
    ops = path_ops(shape.points, shape.closed)
    return f"[2 1.5] 0 d {ops} [] 0 d" if shape.dashed else ops


def drawing_ops(drawing: Drawing) -> str:
    """The drawing's content stream, in millimetres, y down; each layer a marked optional-content block."""
    out = []
    for layer in LAYERS:
        shapes = drawing.on(layer.name)
        if not shapes:
            continue
        colour = _rgb(layer.colour)
        out.append(f"/OC /{layer.name} BDC {colour} RG {colour} rg {_n(layer.width)} w 1 J 1 j")
        out += [shape_ops(shape) for shape in shapes]
        out.append("EMC")
    return "\n".join(out)


@dataclass
class Page:
    """A sheet ``width`` x ``height`` mm; ``content`` draws in mm, y down, and may place the form as ``/Drawing Do``."""

    width: float
    height: float
    content: str


@dataclass
class PdfDocument:
    """Pages that share one drawing (a Form XObject), written as a real PDF 1.5 file."""

    drawing: Drawing
    pages: list[Page] = field(default_factory=list)

    def render(self) -> bytes:
        objects: list[bytes] = []

        def add(body: bytes) -> int:
            objects.append(body)
            return len(objects)

        def stream(head: str, data: str) -> bytes:
            packed = zlib.compress(data.encode("latin-1"))
            return f"<< {head} /Filter /FlateDecode /Length {len(packed)} >>\nstream\n".encode() + packed + \
                b"\nendstream"

        catalog = add(b"")  # filled in at the end
        pages_ref = add(b"")
        font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
        layers = {layer.name: add(f"<< /Type /OCG /Name {_string(layer.name)} >>".encode())
                  for layer in LAYERS if self.drawing.on(layer.name)}
        properties = " ".join(f"/{name} {ref} 0 R" for name, ref in layers.items())
        d = self.drawing
        form = add(stream(f"/Type /XObject /Subtype /Form /BBox [0 0 {_n(d.width)} {_n(d.height)}] "
                          f"/Resources << /Font << /F1 {font} 0 R >> /Properties << {properties} >> >>",
                          drawing_ops(d)))
        kids = []
        for page in self.pages:
            flip = f"{PT:.9f} 0 0 {-PT:.9f} 0 {page.height * PT:.6f} cm\n"  # 1:1 to a micrometre a metre
            content = add(stream("", "q " + flip + page.content + "\nQ"))
            kids.append(add(f"<< /Type /Page /Parent {pages_ref} 0 R "
                            f"/MediaBox [0 0 {_n(page.width * PT)} {_n(page.height * PT)}] "
                            f"/Resources << /Font << /F1 {font} 0 R >> /XObject << /Drawing {form} 0 R >> >> "
                            f"/Contents {content} 0 R >>".encode()))
        objects[pages_ref - 1] = (f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] "
                                  f"/Count {len(kids)} >>").encode()
        ocgs = " ".join(f"{ref} 0 R" for ref in layers.values())
        objects[catalog - 1] = (f"<< /Type /Catalog /Pages {pages_ref} 0 R "
                                f"/OCProperties << /OCGs [{ocgs}] /D << /Order [{ocgs}] /ON [{ocgs}] >> >> "
                                f"/PageLayout /SinglePage >>").encode()
        out = bytearray(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number, body in enumerate(objects, 1):
            offsets.append(len(out))
            out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
        out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
        out += f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
        return bytes(out)


def full_size(drawing: Drawing) -> PdfDocument:
    """One sheet the drawing's size, the drawing at 1:1 (for a plotter, or a print shop's large format)."""
    return PdfDocument(drawing, [Page(drawing.width, drawing.height, "/Drawing Do")])


def ruler_ops(x: float, y: float, length: float = 100.0) -> str:
    """A scale bar ``length`` mm long from (x, y), ticked every 10 mm, to check the printer's scale."""
    ticks = " ".join(path_ops(((x + t, y), (x + t, y - (3 if t % 50 == 0 else 1.5)))) for t in range(0, int(length) + 1, 10))
    return (f"0 0 0 RG 0 0 0 rg 0.3 w {path_ops(((x, y), (x + length, y)))} {ticks} "
            + text_ops(x + length + 2, y, f"{length:g} mm: check it with a ruler",
                       2.5))


