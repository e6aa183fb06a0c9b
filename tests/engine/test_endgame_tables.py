"""The removal puzzles' endgame tables: built backwards, checked forwards through the game's own moves."""

from __future__ import annotations

import itertools
import json
import logging
import random
import zlib
from math import comb

import pytest

from engine import new_game
from engine.games.crooked_jumps import CrookedJumps
from engine.games.overpass_spiral import OverPassSpiral
from engine.games.removal_puzzle import RemovalPuzzleState
from engine.solvers import Budget
from engine.solvers.endgame import (
    MAGIC,
    binomials,
    build,
    colex_rank,
    decode,
    encode,
    predecessors,
    shipped_table,
    table_path,
)
from engine.solvers.removal import RemovalSearch
from engine.solvers.symmetry import Symmetries
from tests.engine.test_removal_hints import GOLDEN, solvable


def state_words(game, mask: int) -> str:
    return " ".join(p for p, i in game.index.items() if mask >> i & 1)


def children(game, mask: int) -> set[int]:
    return {mask ^ (1 << s) ^ (1 << t) ^ (1 << r) for s, t, r in game.steps(mask)}


def played_down_to(game, pieces: int, rng: random.Random) -> int:
    """A position of ``pieces`` pieces reached by random moves from the puzzle's start, or for the Spiral from
    12 pieces along the golden record (0 if it got stuck)."""
    if isinstance(game, OverPassSpiral):
        state = new_game(game.name)
        for text in json.loads(GOLDEN.read_text())["moves"][:28]:
            state.apply(text)
        mask = state.mask
    else:
        mask = game.start_mask
    while mask.bit_count() > pieces:
        options = sorted(children(game, mask))
        if not options:
            return 0
        mask = rng.choice(options)
    return mask


@pytest.mark.parametrize("game", [OverPassSpiral(), CrookedJumps()], ids=lambda g: g.name)
def test_undoing_a_move_finds_exactly_the_positions_that_lead_to_it(game):
    rng = random.Random(3)
    for _ in range(20):
        before = played_down_to(game, rng.randrange(4, 11), rng)
        for after in children(game, before):
            assert before in predecessors(game, after)
            assert all(after in children(game, earlier) for earlier in predecessors(game, after))


def unrank(rank: int, pieces: int) -> int:
    """The bitset of ``pieces`` bits with colexicographic rank ``rank``."""
    mask = 0
    for k in range(pieces, 0, -1):
        i = k - 1
        while comb(i + 1, k) <= rank:
            i += 1
        mask |= 1 << i
        rank -= comb(i, k)
    return mask


def test_the_shipped_spiral_table_agrees_with_exhaustive_search_through_the_state_api():
    game = OverPassSpiral()
    table = shipped_table(game.name)
    assert table is not None and table.pieces == 6 and len(table) == 626_679
    rng, memo = random.Random(5), {}
    classes = [unrank(rank, 6) for rank in rng.sample(list(table.ranks), 20)]
    symmetries = Symmetries(game.symmetries, len(game.locations))
    images = [rng.choice(list(symmetries.images(mask))) for mask in classes]
    played = {mask for mask in (played_down_to(game, 6, rng) for _ in range(40)) if mask}
    assert all(mask in table for mask in classes + images)
    assert any(mask not in table for mask in played), "the sample should hold lost positions too"
    for mask in [*classes, *images, *played]:
        assert solvable(RemovalPuzzleState(game, mask), memo) == (mask in table), state_words(game, mask)


def test_ranks_follow_the_order_of_the_bitsets():
    table = binomials(9, 3)
    masks = sorted(sum(1 << i for i in cells) for cells in itertools.combinations(range(9), 3))
    assert [colex_rank(mask, table) for mask in masks] == list(range(comb(9, 3)))
    assert all(unrank(rank, 3) == mask for rank, mask in enumerate(masks))


def test_the_table_keeps_one_position_per_symmetry_class_and_finds_every_image():
    game = OverPassSpiral()
    sets = build(game, 3, centre=False)
    symmetries = Symmetries(game.symmetries, len(game.locations))
    assert all(symmetries.canonical(mask) == mask for mask in sets[-1])
    assert [len(s) for s in sets] == [19, 27, 318]
    loaded = decode(game, encode(game, 3, sets[-1]))
    assert len(loaded) == 318
    winning = {image for mask in sets[-1] for image in symmetries.images(mask)}
    rng = random.Random(4)
    others = [sum(1 << i for i in rng.sample(range(len(game.locations)), 3)) for _ in range(3000)]
    assert all(mask in loaded for mask in winning)
    assert encode(game, 3, winning) == encode(game, 3, sets[-1])  # one rank per class, whichever image is given
    assert all((mask in loaded) == (mask in winning) for mask in others)
    assert 1 << 0 | 1 << 1 not in loaded  # a position of another size is never in it


def test_a_damaged_or_older_table_is_refused():
    game = OverPassSpiral()
    data = encode(game, 3, build(game, 3, centre=False)[-1])
    head, gaps = data[:len(MAGIC) + 17], zlib.decompress(data[len(MAGIC) + 17:])
    with pytest.raises(ValueError, match="not an endgame table"):
        decode(game, b"gameboard endgame 1\n" + data[len(MAGIC):])
    with pytest.raises(ValueError, match="truncated"):
        decode(game, head + zlib.compress(gaps[:-3]))
    with pytest.raises(ValueError, match="out of order"):
        decode(game, head + zlib.compress(gaps + bytes(8)))


def test_a_table_for_other_rules_is_refused_and_the_search_goes_on_without_it(tmp_path, monkeypatch, caplog):
    spiral, jumps = OverPassSpiral(), CrookedJumps()
    data = encode(jumps, 2, build(jumps, 2, centre=False)[-1])
    with pytest.raises(ValueError, match="other rules than overpass-spiral's"):
        decode(spiral, data)
    (tmp_path / table_path(spiral.name).name).write_bytes(data)
    monkeypatch.setattr("engine.solvers.endgame.DATA", tmp_path)
    shipped_table.cache_clear()
    try:
        with caplog.at_level(logging.WARNING):
            assert shipped_table(spiral.name) is None
        assert "python -m engine.solvers.endgame" in caplog.text
    finally:
        shipped_table.cache_clear()


def test_a_search_with_the_table_finds_the_whole_way_to_one_piece():
    game, table = OverPassSpiral(), shipped_table("overpass-spiral")
    rng, outcomes = random.Random(8), set()
    line = json.loads(GOLDEN.read_text())["moves"]
    for ply in range(30, 37):  # along the golden record, every other time with a move of one's own
        state = new_game(game.name)
        for text in line[:ply]:
            state.apply(text)
        if ply % 2:
            state.push(state.random_move(rng))
        with_table = RemovalSearch(game, Budget(60), centre=False, table=table).run(state.mask)
        plain = RemovalSearch(game, Budget(60), centre=False).run(state.mask)
        assert with_table.solved == plain.solved and (with_table.exhausted or with_table.solved)
        outcomes.add(with_table.solved)
        if with_table.solved:
            for step in with_table.path:
                state.apply(str(game.move_of(step)))
            assert state.outcome() is not None and state.outcome().winners == (0,)
    assert outcomes == {True, False}


def test_the_table_answers_only_for_one_piece_anywhere():
    game = OverPassSpiral()
    with pytest.raises(ValueError, match="not in the centre"):
        RemovalSearch(game, Budget(1), centre=True, table=shipped_table(game.name))
