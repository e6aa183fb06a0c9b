"""The winning lines that ship with the puzzles (engine/solvers/data/lines.json): each replays, and a hint on
one answers from it without searching."""

from __future__ import annotations

import json

import pytest

from engine import new_game
from engine.solvers import LINES, _shipped_rests, hinter

SHIPPED = json.loads(LINES.read_text(encoding="utf-8"))["lines"]


@pytest.mark.parametrize("line", SHIPPED, ids=lambda line: line["game"])
def test_each_shipped_line_wins_from_its_puzzles_start(line):
    state = new_game(line["game"], **line["options"])
    for text in line["moves"]:
        state.apply(text)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,), line["result"]


def test_a_hint_on_a_shipped_line_is_its_next_move_without_a_search():
    line = next(line for line in SHIPPED if line["game"] == "overpass-spiral")["moves"]
    state = new_game("overpass-spiral")
    hint = hinter("overpass-spiral")
    for ply in (0, 1, 20):
        while len(state.history) < ply:
            state.apply(line[len(state.history)])
        found = hint(state, time_limit=0.0)  # no time to search: the line answers
        assert found.moves == tuple(line[ply:])
        assert found.explanation == f"{len(line) - ply} more moves to one piece in the centre"


@pytest.mark.usefixtures("clock_at_every_position")
def test_a_position_off_the_line_is_searched_as_before():
    state = new_game("overpass-spiral")
    state.apply(next(str(move) for move in state.legal_moves if str(move) != SHIPPED[0]["moves"][0]))
    found = hinter("overpass-spiral")(state, time_limit=0.0)
    assert found.moves == () and found.lost_at is None and "found within" in found.explanation


@pytest.mark.usefixtures("clock_at_every_position")
def test_a_line_counts_only_for_the_options_it_was_found_with(tmp_path, monkeypatch):
    elsewhere = [{**line, "options": {"layout": "another"}} for line in SHIPPED]
    (tmp_path / "lines.json").write_text(json.dumps({"lines": elsewhere}))
    monkeypatch.setattr("engine.solvers.LINES", tmp_path / "lines.json")
    _shipped_rests.cache_clear()
    try:
        found = hinter("overpass-spiral")(new_game("overpass-spiral"), time_limit=0.0)
    finally:
        _shipped_rests.cache_clear()
    assert found.moves == ()
