"""``gameboard solve`` from a position: options, a saved position, a journal's game, the hint, Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from engine import new_game
from firmware_host.cli import main
from firmware_host.journal import Journal

#: The Crooked Jumps game of tests/daemon/test_puzzle_hints.py: lost at its seventh move.
LOST = ["p12>p4>center", "p10>p14>p20", "p7>p11>p14", "p14>p20>p28", "p9>p5>p10", "p13>p10>p5", "p2>p5>p9",
        "p9>p16>p12", "p1>center>p2"]


def journal_with(path: Path, game: str, moves: list[str], **options) -> None:
    state = new_game(game, **options)
    journal = Journal(path)
    try:
        journal.start(state)
        for text in moves:
            move = state.parse_move(text)
            state.push(move)
            journal.record(move)
    finally:
        journal.close()


def test_an_option_sets_up_a_smaller_puzzle(capsys):
    assert main(["solve", "full-house", "--option", "pieces=8", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("full-house: 5 moves bring all 8 pieces onto the board; the search proved no shorter")


def test_a_wrong_option_names_the_fix(capsys):
    assert main(["solve", "full-house", "--option", "pieces"]) == 2
    assert "--option 'pieces': write KEY=VALUE" in capsys.readouterr().err
    assert main(["solve", "full-house", "--option", "size=3"]) == 2
    assert "unknown option(s) size; options: pieces" in capsys.readouterr().err


def test_a_saved_position_is_solved_and_a_wrong_one_named(tmp_path, capsys):
    saved = tmp_path / "position.json"
    saved.write_text(json.dumps({"game": "crooked-jumps", "options": {}, "position": {"pieces": ["p9", "p1", "p2"]}}))
    assert main(["solve", "crooked-jumps", "--position", str(saved), "--quiet"]) == 0
    assert "solved in 2 moves" in capsys.readouterr().out
    assert main(["solve", "overpass-spiral", "--position", str(saved)]) == 2
    assert f"{saved} holds a crooked-jumps position, not overpass-spiral: run `gameboard solve crooked-jumps` on it" \
        in capsys.readouterr().err
    saved.write_text(json.dumps(new_game("hexover").to_json()))
    assert main(["solve", "crooked-jumps", "--position", str(saved)]) == 2
    assert capsys.readouterr().err.endswith(f"{saved} holds a hexover position, not crooked-jumps: hexover is not a "
                                            "puzzle; `gameboard solve` solves crooked-jumps, full-house, "
                                            "overpass-spiral\n")
    saved.write_text('{"game": "crooked-jumps",\n "position": {"pieces": ["p9" "p1"]}}')
    assert main(["solve", "crooked-jumps", "--position", str(saved)]) == 2
    assert f"{saved}:2:" in capsys.readouterr().err
    assert main(["solve", "crooked-jumps", "--position", str(saved), "--option", "jumps=straight"]) == 2
    assert "give one or the other" in capsys.readouterr().err


def test_the_hint_from_a_journals_game_names_the_move_that_lost_it(tmp_path, capsys):
    path = tmp_path / "journal.sqlite3"
    journal_with(path, "crooked-jumps", LOST)
    assert main(["solve", "crooked-jumps", "--journal", str(path), "--hint"]) == 1
    out = capsys.readouterr().out
    assert out.splitlines() == [
        ("crooked-jumps, after 9 moves: no way to one piece in the centre from here: move 7 (p2>p5>p9) lost it; "
         "undo 3 moves to play on from before it"),
        "the last position with a solution: after move 6"]
    assert main(["solve", "full-house", "--journal", str(path)]) == 2
    assert "no full-house game in this journal" in capsys.readouterr().err
    assert main(["solve", "full-house", "--journal", str(tmp_path / "none.sqlite3")]) == 2
    assert "none.sqlite3: no such journal" in capsys.readouterr().err


def test_a_journals_game_is_solved_from_where_it_stands(tmp_path, capsys):
    path = tmp_path / "journal.sqlite3"
    journal_with(path, "full-house", ["f48-f49", "+f57"], pieces=6)
    assert main(["solve", "full-house", "--journal", str(path), "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("full-house: 2 moves bring all 6 pieces onto the board")
    assert main(["solve", "full-house", "--journal", str(path), "--hint"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "full-house, after 2 moves: 2 more moves to all 6 pieces on the board (the fewest possible)"
    assert out[1].startswith("hint: ")


def test_ctrl_c_prints_the_best_found_so_far(tmp_path):
    state = new_game("overpass-spiral")
    state.apply("p1>p5>p2")  # off the winning line that ships, so the solver searches
    saved = tmp_path / "spiral.json"
    saved.write_text(json.dumps(state.to_json()))
    solve = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", "solve", "overpass-spiral",
                              "--position", str(saved), "--time-limit", "600"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=Path(__file__).parents[2], env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = solve.stderr.readline()  # the first progress line: the search is under way
        assert "positions" in line, line
        solve.send_signal(signal.SIGINT)
        out, _ = solve.communicate(timeout=60)  # a guard against a hang, not a speed check
    finally:
        solve.kill()
    assert solve.returncode in (0, 1)
    assert out.startswith("overpass-spiral: ") and "stopped after" in out and "\nmoves: p" in out
