"""The players' pages, docs/play/GAME.md: one for every game, each picture a real position (its moves legal,
replayed through the engine) that `gameboard board draw` draws again byte for byte, each page readable as HTML."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

from engine.registry import GAMES, game_class
from firmware_host.cli import main
from firmware_host.web.play_docs import PLAY, html

PICTURES = tomllib.loads((PLAY / "pictures.toml").read_text(encoding="utf-8"))


def pages() -> dict[str, str]:
    return {game: (PLAY / f"{game}.md").read_text(encoding="utf-8") for game in GAMES if (PLAY / f"{game}.md").is_file()}


def drawing_script():
    spec = importlib.util.spec_from_file_location("gameboard_play_draw", PLAY / "draw.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_game_has_its_page_listed_in_the_index():
    assert sorted(pages()) == sorted(GAMES), "docs/play/GAME.md for each game of `gameboard games`"
    index = (PLAY / "README.md").read_text(encoding="utf-8")
    assert [game for game in GAMES if f"({game}.md)" not in index] == []


def test_every_picture_is_drawn_shown_and_listed():
    shown = {name for text in pages().values() for name in re.findall(r"\]\(([^)]+)\.svg\)", text)}
    drawn = {path.stem for path in PLAY.glob("*.svg")}
    assert shown == set(PICTURES) == drawn
    for name, picture in PICTURES.items():
        assert f"({name}.svg)" in pages()[picture["game"]], f"{name} is shown on its own game's page"


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_each_pictures_moves_are_legal_from_the_games_start(name):
    picture = PICTURES[name]
    state = game_class(picture["game"])(**picture.get("options", {})).new_initial_state()
    for text in filter(None, (part.strip() for part in picture.get("moves", "").split(";"))):
        state.apply(text)  # raises IllegalMoveError, naming the legal moves, for a move the position does not allow
    assert not state.is_terminal() or picture.get("moves")


def test_the_pictures_are_what_board_draw_draws_now(tmp_path, capsys):
    """Every picture drawn again by `gameboard board draw` with draw.py's command line: the same bytes (after a
    change of the drawing, run docs/play/draw.py)."""
    script = drawing_script()
    for name, picture in PICTURES.items():
        output = tmp_path / f"{name}.svg"
        line = script.command(name, picture, output)
        assert line[1:3] == ["-m", "firmware_host.cli"]
        assert main(line[3:]) == 0
        assert output.read_bytes() == (PLAY / f"{name}.svg").read_bytes(), f"{name}: run docs/play/draw.py {name}"


def test_a_move_the_position_does_not_allow_is_refused_by_its_number(tmp_path, capsys):
    assert main(["board", "draw", "squareoff", "--game", "squareoff", "--moves", "p1; p1", "-o",
                 str(tmp_path / "x.svg")]) == 2
    assert capsys.readouterr().err.startswith("gameboard: error: --moves: move 2: 'p1' is not a legal move here; "
                                              "legal: p2, p3")


def test_each_page_reads_as_html_with_its_pictures():
    for game, text in pages().items():
        page = html(text)
        assert page.startswith(f"<h1>How to play ") and game_class(game).title.split(" (")[0] in page
        assert re.findall(r'<img src="([^"]+)\.svg"', page) == re.findall(r"\]\(([^)]+)\.svg\)", text)
        assert "**" not in page and "](" not in page, "every mark of the pages' Markdown is understood"
        assert "(<code>docs/rules.md</code> in gameboard's source)" in page, "the developers' decisions named"
