"""The hint in Crooked Jumps and the Over-Pass Spiral, checked against plain exhaustive search: from
every position of random games, a solution that replays when one exists, else the move that lost it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engine.solvers
from engine import new_game
from engine.core import State
from engine.solvers import Hint, _shipped_rests, find_loss, hinter

GOLDEN = Path(__file__).parents[1] / "data" / "overpass_spiral" / "one_piece_left.json"

#: Spiral moves to a position proved lost, as is the one a move before it; two moves before, it is not found in time.
LOST_AFTER = ("p56>p10>p13 p42>p32>p54 p87>p86>p71 p39>p31>p38 p58>p43>p26 p45>p81>p93 p1>p5>p2 p61>p59>p77 "
              "p68>p60>p46 p67>p77>p59 p25>p26>p18 p18>p13>p17 p23>p14>p10 p59>p44>p34 p11>p21>p30 p71>p85>p95 "
              "p15>p38>p51 p30>p22>p31 p40>p55>p64 p10>p2>p5 p64>p54>p39 p95>p84>p70 p41>p33>p42 p93>p80>p61 "
              "p82>p61>p68 p31>p39>p53 p70>p83>p62 p51>p62>p70").split()


def solvable(state: State, memo: dict[frozenset[str], bool]) -> bool:
    """Whether some sequence of legal moves wins from ``state``: the state API only, a memo of positions."""
    key = frozenset(p for p, piece in state.contents().items() if piece)
    if key not in memo:
        outcome = state.outcome()
        if outcome is not None:
            memo[key] = bool(outcome.winners)
        else:
            memo[key] = False
            for move in list(state.legal_moves):
                state.push(move)
                won = solvable(state, memo)
                state.pop()
                if won:
                    memo[key] = True
                    break
    return memo[key]


def check_hint(state: State, memo: dict[frozenset[str], bool]) -> Hint:
    """The hint at ``state``, asserted against exhaustive search of the state and its history."""
    hint = hinter(state.game.name)(state, time_limit=60)
    if solvable(state, memo):
        assert hint.moves and hint.lost_at is None, hint.explanation
        after = new_game(state.game.name, **state.game.options)
        for move in (*state.history, *hint.moves):
            after.apply(str(move))
        assert after.is_terminal() and after.outcome().winners == (0,)
        return hint
    assert not hint.moves and hint.lost
    popped = []
    while state.history and not solvable(state, memo):
        popped.append(state.pop())
    last_solvable = len(state.history) if popped and solvable(state, memo) else None
    for move in reversed(popped):
        state.push(move)
    assert hint.lost_at == last_solvable, hint.explanation
    if last_solvable is not None:
        lost_by = state.history[last_solvable]
        assert f"move {last_solvable + 1} ({lost_by}) lost it" in hint.explanation
        assert f"undo {len(state.history) - last_solvable} move" in hint.explanation
    return hint


@pytest.mark.parametrize("seed", range(6))
def test_crooked_jumps_hints_along_random_games(seed):
    rng, memo = random.Random(seed), {}
    state = new_game("crooked-jumps")
    verdicts = set()
    while True:
        hint = check_hint(state, memo)
        verdicts.add("move" if hint.moves else "lost")
        if state.is_terminal():
            break
        state.push(state.random_move(rng))
    assert "lost" in verdicts or state.outcome().winners


def test_crooked_jumps_hints_followed_from_a_position_that_can_still_be_won():
    state, memo = new_game("crooked-jumps"), {}
    for text in ("p9>p1>center", "p2>center>p1"):
        state.apply(text)
    while not state.is_terminal():
        state.apply(check_hint(state, memo).moves[0])
    assert state.outcome().returns == (1.0,)


@pytest.mark.parametrize("seed", range(2))
def test_spiral_hints_from_a_winning_line_left_late_to_the_end(seed):
    """Along the golden record to 9 pieces (where plain search is quick enough), then random moves."""
    rng, memo = random.Random(seed), {}
    record = json.loads(GOLDEN.read_text())
    state = new_game("overpass-spiral", **record["options"])
    for text in record["moves"][:31]:
        state.apply(text)
    while True:
        check_hint(state, memo)
        if state.is_terminal():
            break
        state.push(state.random_move(rng))


def test_a_solved_or_hopeless_start_is_said_so():
    state = new_game("crooked-jumps")
    solved = state.game.state_from_position({"pieces": ["center"]})
    assert hinter("crooked-jumps")(solved, time_limit=1) == Hint((), None, "solved: one piece, in the centre")
    hopeless = state.game.state_from_position({"pieces": ["p73", "p89"]})
    assert hinter("crooked-jumps")(hopeless, time_limit=1) == Hint(
        (), None, "no way to one piece in the centre from here, nor from any position since the start", lost=True)


@pytest.mark.usefixtures("clock_at_every_position")
def test_a_hint_that_runs_out_of_time_says_so_and_offers_no_move():
    state = new_game("overpass-spiral")
    state.apply("p1>p5>p2")  # off the winning line that ships
    hint = hinter("overpass-spiral")(state, time_limit=0.01)
    assert hint == Hint((), None, hint.explanation) and "found within 0.01 s" in hint.explanation


@pytest.fixture
def without_shipped_lines(tmp_path, monkeypatch):
    """No winning line ships: the line a test gives is the one that answers."""
    (tmp_path / "lines.json").write_text('{"lines": []}')
    monkeypatch.setattr("engine.solvers.LINES", tmp_path / "lines.json")
    _shipped_rests.cache_clear()
    yield
    _shipped_rests.cache_clear()


@pytest.mark.usefixtures("without_shipped_lines", "clock_at_every_position")
def test_a_known_winning_line_gives_the_hint_at_once_while_the_game_follows_it():
    record = json.loads(GOLDEN.read_text())
    state = new_game("overpass-spiral")
    for text in record["moves"][:5]:
        state.apply(text)
    hint = hinter("overpass-spiral")(state, time_limit=0.001, known=record["moves"])  # no time to search
    assert hint == Hint(tuple(record["moves"][5:]), None, "34 more moves to one piece")
    state.apply(next(str(m) for m in state.legal_moves if str(m) != record["moves"][5]))
    left = hinter("overpass-spiral")(state, time_limit=0.001, known=record["moves"])
    assert not left.moves and "found within 0.001 s" in left.explanation, "a game that left the line searches"


@pytest.mark.usefixtures("a_second_per_position")
def test_a_position_whose_search_ran_out_of_time_is_not_called_lost():
    """Proved lost here and a move back; the search from two moves back ran out of time: that says nothing."""
    moves = LOST_AFTER
    state = new_game("overpass-spiral")
    for text in moves:
        state.apply(text)
    hint = hinter("overpass-spiral")(state, time_limit=300)
    assert hint == Hint((), None, "no way to one piece from here, nor from 1 move back; whether there is one "
                                  "from 2 moves back was not found within 100 s", lost=True)
    assert [str(move) for move in state.history] == moves, "the position is left as it was"


@pytest.mark.usefixtures("a_second_per_position")
def test_a_lost_position_is_told_without_waiting_out_the_limit():
    """Proved lost within a few positions, the hint then stepped back until its whole limit was spent (3 s for
    a 0.02 s proof, bench/puzzle_hints.py): stepping back now has a third of the limit."""
    state = new_game("overpass-spiral")
    for text in LOST_AFTER:
        state.apply(text)
    hint = hinter("overpass-spiral")(state, time_limit=600)
    assert hint.lost and "within 200 s" in hint.explanation
    assert engine.solvers.CLOCK() < 400, "a second a position: the search ended within a third of the limit"


def test_a_proof_that_took_the_whole_limit_leaves_no_time_and_says_so():
    """A proof of loss that ran past the limit (the clock is read every few thousand positions) left a negative
    time to step back in, and the hint said "not found within -0.0987 s"."""
    state = new_game("overpass-spiral")
    for text in LOST_AFTER:
        state.apply(text)
    hint = find_loss(state, lambda earlier: None, "one piece", -0.0987)
    assert hint.explanation == ("no way to one piece from here; whether there is one from 1 move back was not "
                                "found (proving this took all the hint's time)")
