"""The players' pages, ``docs/play/GAME.md``, served to the page as HTML with their pictures.

The pages are written in a small part of Markdown (headings, paragraphs, lists, tables, pictures,
links, ``code``, **bold**), so that they read the same on GitHub and from the page's game menu;
``html`` turns that part into HTML with no library.  They are found beside the source
(``docs/play``); an installation without the docs answers each address with where they are.
"""

from __future__ import annotations

import html as escaping
import re
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response

PLAY = Path(__file__).resolve().parents[2] / "docs" / "play"
PAGE = re.compile(r"[a-z][a-z0-9-]*")
PICTURE = re.compile(r"[a-z0-9][a-z0-9-]*\.svg")
#: Each inline mark, in the order it is applied to escaped text.
INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)"), r'<img src="\2" alt="\1">'),
    # A page beyond docs/play is not served: named as a file of the source instead.
    (re.compile(r"\[([^\]]+)\]\(\.\./([^)#\s]+)(#[^)\s]*)?\)"), r"\1 (<code>docs/\2</code> in gameboard's source)"),
    (re.compile(r"\[([^\]]+)\]\(([^)\s]+?)(?:\.md)?(#[^)\s]*)?\)"), r'<a href="\2\3">\1</a>'),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*([^*]+)\*(?![\w*])"), r"<em>\1</em>"),
]
STYLE = """body{font:17px/1.5 system-ui,sans-serif;max-width:46rem;margin:1rem auto;padding:0 1rem;color:#222}
img{max-width:100%;height:auto;display:block;margin:.5rem 0}table{border-collapse:collapse}
td,th{border:1px solid #bbb;padding:.2rem .5rem;text-align:left;vertical-align:top}code{background:#eee;padding:0 .2rem}"""


async def play_page(request: Request) -> Response:
    """``/static/play/GAME`` (the page, as HTML) or ``/static/play/PICTURE.svg``."""
    name = request.path_params["name"]
    if PICTURE.fullmatch(name) and (PLAY / name).is_file():
        return FileResponse(PLAY / name, media_type="image/svg+xml")
    if PAGE.fullmatch(name) and (PLAY / f"{name}.md").is_file():
        return HTMLResponse(page(name))
    return PlainTextResponse(f"no player's page {name!r} here: they are docs/play/GAME.md in gameboard's source, "
                             "served when gameboard runs from it", status_code=404)


def page(name: str) -> str:
    """The whole HTML page of ``docs/play/NAME.md``."""
    body = html((PLAY / f"{name}.md").read_text(encoding="utf-8"))
    title = re.search(r"<h1>(.*?)</h1>", body)
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width, initial-scale=1"><title>{title.group(1) if title else name}</title>'
            f"<style>{STYLE}</style></head><body>{body}</body></html>")


def html(markdown: str) -> str:
    """The pages' part of Markdown as HTML: blocks separated by blank lines, each a heading, a list, a table or a
    paragraph."""
    blocks = []
    for block in re.split(r"\n\s*\n", markdown.strip()):
        lines = block.splitlines()
        if (heading := re.match(r"(#{1,4}) (.*)", lines[0])) and len(lines) == 1:
            level = len(heading.group(1))
            blocks.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif lines[0].startswith("|"):
            blocks.append(_table(lines))
        elif re.match(r"(- |\d+\. )", lines[0]):
            blocks.append(_list(lines))
        else:
            blocks.append(f"<p>{inline(' '.join(line.strip() for line in lines))}</p>")
    return "\n".join(blocks)


def inline(text: str) -> str:
    text = escaping.escape(text, quote=False)
    for pattern, replacement in INLINE:
        text = pattern.sub(replacement, text)
    return text


def _list(lines: list[str]) -> str:
    """Items start with "- " or "1. "; an indented line goes on with the item above."""
    tag = "ol" if re.match(r"\d+\. ", lines[0]) else "ul"
    items: list[str] = []
    for line in lines:
        item = re.match(r"(- |\d+\. )(.*)", line)
        if item:
            items.append(item.group(2))
        else:
            items[-1] += " " + line.strip()
    return f"<{tag}>" + "".join(f"<li>{inline(item)}</li>" for item in items) + f"</{tag}>"


def _table(lines: list[str]) -> str:
    """A head row, the |---| row under it, and body rows."""
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in lines
            if not re.fullmatch(r"\|[\s:|-]+\|?", line.strip())]
    head, *body = rows
    return ("<table><tr>" + "".join(f"<th>{inline(cell)}</th>" for cell in head) + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{inline(cell)}</td>" for cell in row) + "</tr>" for row in body)
            + "</table>")
