"""The repository stands alone: its license is in it, and every document it links or cites is too."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)|<img src=\"([^\"]+)\"")
#: A Markdown file named in code style, such as `sensing.md`.
NAMED_NOTE = re.compile(r"`([^`\s]+\.md)`")


def test_the_license_pyproject_names_is_there() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert project["license"] == {"text": "MIT"}
    assert text.startswith("MIT License\n\nCopyright (c) 2026 the gameboard authors\n")


def anchors(document: Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings."""
    headings = re.findall(r"^#+ (.*)$", document.read_text(encoding="utf-8"), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_link_and_citation_of_a_document_is_in_the_repository(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    assert "shared/" not in text, "a document cites the design folder outside the repository: bring it into docs/"
    notes = {path.name for path in DOCUMENTS}
    for match in NAMED_NOTE.finditer(text):
        assert Path(match.group(1)).name in notes, f"{match.group(1)}: no such document in the repository"
    for match in LINK.finditer(text):
        target = match.group(1) or match.group(2)
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        linked = (document.parent / path).resolve() if path else document
        assert linked.exists() and ROOT in linked.parents, f"{target}: no such file in the repository"
        assert not anchor or anchor in anchors(linked), f"{target}: {linked.name} has no heading {anchor!r}"
