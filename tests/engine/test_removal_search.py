"""The removal puzzles' search: its probes and the Spiral's move generator, against the game's plain moves."""

from __future__ import annotations

import json
import random

from engine import new_game
from engine.games.overpass_spiral import OverPassSpiral
from engine.games.removal_puzzle import RemovalPuzzle, RemovalPuzzleState
from engine.solvers import Budget
from engine.solvers.endgame import shipped_table
from engine.solvers.removal import PROBES, RemovalSearch
from tests.engine.test_removal_hints import GOLDEN, solvable


def off_the_line(ply: int, rng: random.Random) -> RemovalPuzzleState:
    """The Spiral after ``ply`` moves of the golden record and one random move of one's own."""
    state = new_game("overpass-spiral")
    for text in json.loads(GOLDEN.read_text())["moves"][:ply]:
        state.apply(text)
    state.push(state.random_move(rng))
    assert isinstance(state, RemovalPuzzleState)
    return state


def test_the_spiral_works_out_moves_group_by_group_exactly_as_piece_by_piece():
    game, rng = OverPassSpiral(), random.Random(5)
    masks = [sum(1 << i for i in rng.sample(range(len(game.locations)), rng.randint(1, 60))) for _ in range(400)]
    state = game.new_initial_state()
    while not state.is_terminal():  # and the positions of a game, exits and all
        masks.append(state.mask)
        state.push(state.random_move(rng))
    assert any(mask & game.exit_mask for mask in masks)
    for mask in masks:
        assert list(game.steps(mask)) == list(RemovalPuzzle.steps(game, mask))


def test_searches_with_probes_and_without_agree_and_exhaustive_search_confirms_them(monkeypatch):
    """From 13 pieces down (probed from 9); plain search through the state API, quick enough from 9."""
    game, rng, memo = OverPassSpiral(), random.Random(2), {}
    table = shipped_table(game.name)
    assert PROBES[0][0] <= 9 and PROBES[1][0] <= 13
    outcomes = set()
    for ply in (26, 26, 28, 30, 31):
        state = off_the_line(ply, rng)
        probed = RemovalSearch(game, Budget(60), centre=False, table=table).run(state.mask)
        with monkeypatch.context() as plain:
            plain.setattr("engine.solvers.removal.PROBES", ())
            unprobed = RemovalSearch(game, Budget(60), centre=False, table=table).run(state.mask)
        assert probed.solved == unprobed.solved and probed.exhausted == (not probed.solved)
        if state.mask.bit_count() <= 9:
            assert solvable(state, memo) == probed.solved
        outcomes.add(probed.solved)
        for step in probed.path:
            state.apply(str(game.move_of(step)))
        assert (state.outcome() is not None and state.outcome().winners == (0,)) == probed.solved
    assert outcomes == {True, False}


def test_a_probe_that_gives_up_remembers_only_positions_proved_to_fail():
    game, rng, memo = OverPassSpiral(), random.Random(4), {}
    state = off_the_line(29, rng)
    search = RemovalSearch(game, Budget(60), centre=False, compiled=False)  # the Python search's memo, read below
    search.key = int
    assert search._search(state.mask, limit=40) is None
    assert search.seen, "some positions were proved to fail within the probe"
    for mask in search.seen:
        assert not solvable(RemovalPuzzleState(game, mask), memo)
