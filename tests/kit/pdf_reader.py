"""Reads back the PDFs wiring.kit writes, checking their structure as a reader would: the xref's offsets,
each stream's /Length, the pages' sizes, and the content of every stream (inflated)."""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

OBJECT = re.compile(rb"(\d+) 0 obj\n(.*?)\nendobj\n", re.S)


@dataclass
class Pdf:
    objects: dict[int, bytes]  # number -> the object's dictionary (stream data left out)
    streams: dict[int, str]  # number -> inflated stream content

    def pages(self) -> list[int]:
        kids = re.search(rb"/Kids \[([^\]]*)\]", self.objects[self.root_pages]).group(1)
        return [int(n) for n in re.findall(rb"(\d+) 0 R", kids)]

    @property
    def root_pages(self) -> int:
        return next(n for n, body in self.objects.items() if body.startswith(b"<< /Type /Pages"))

    def media_box(self, page: int) -> tuple[float, ...]:
        return tuple(float(v) for v in re.search(rb"/MediaBox \[([^\]]*)\]", self.objects[page]).group(1).split())

    def content(self, page: int) -> str:
        return self.streams[int(re.search(rb"/Contents (\d+) 0 R", self.objects[page]).group(1))]

    def xobject(self, page: int) -> int:
        return int(re.search(rb"/Drawing (\d+) 0 R", self.objects[page]).group(1))


def read_pdf(data: bytes) -> Pdf:
    assert data.startswith(b"%PDF-1.") and data.rstrip().endswith(b"%%EOF")
    start = int(re.search(rb"startxref\n(\d+)\n%%EOF", data).group(1))
    assert data[start:start + 4] == b"xref"
    header = re.match(rb"xref\n0 (\d+)\n", data[start:])
    count = int(header.group(1))
    entries = data[start + header.end():].split(b"\n")[:count]
    assert entries[0].startswith(b"0000000000 65535 f")
    objects, streams = {}, {}
    for number, entry in enumerate(entries[1:], 1):
        offset = int(entry[:10])
        found = OBJECT.match(data, offset)
        assert found and int(found.group(1)) == number, f"xref entry {number} points at {data[offset:offset + 20]!r}"
        body = found.group(2)
        if b"\nstream\n" in body:
            head, _, rest = body.partition(b"\nstream\n")
            length = int(re.search(rb"/Length (\d+)", head).group(1))
            assert rest[length:] == b"\nendstream", f"object {number}: /Length {length} is not the stream's length"
            streams[number] = zlib.decompress(rest[:length]).decode("latin-1")
            body = head
        objects[number] = body
    trailer = data[start:]
    assert f"/Size {count}".encode() in trailer
    return Pdf(objects, streams)
