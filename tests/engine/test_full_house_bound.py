"""Full House's potential bound: the weights that ship are sound, and the bound never overestimates."""

import itertools
import json
import logging
import random

import pytest

from engine.games.full_house import FullHouse
from engine.games.groups_of_three_layout import load_layout
from engine.solvers import full_house_bound
from engine.solvers.full_house_space import Space
from engine.solvers.full_house_bound import Potential, shipped_potential
from tests.engine.test_full_house_solver import fewest_moves_by_brute_force


@pytest.fixture(scope="module")
def potential():
    found = shipped_potential(load_layout())
    assert found is not None, "the potential that ships was refused"
    return found


def test_no_step_gains_more_pieces_than_the_potential_pays_for(potential):
    """The proof's one premise, checked exactly: every step, every pattern of the compartments around it,
    every choice of its adds, ``adds - 1 <= the potential's change``."""
    assert next(potential.violations(), None) is None


def test_a_potential_that_pays_too_little_is_caught(potential):
    layout = potential.layout
    pieces = list(potential.pieces)
    pieces[layout.index["f17"]] += 2 * potential.scale  # stepping off f17 would then lose more than one piece
    broken = Potential(layout, potential.windows, potential.weights, pieces, potential.scale)
    found = next(broken.violations())
    assert found.startswith("f17-") and "adding nothing" in found


def test_the_check_finds_exactly_the_steps_that_plain_enumeration_finds(potential):
    """The check takes, per pattern of a step's groups, the worst pattern of the windows around them without
    listing every one; against listing every one, on a potential with noise added (so some steps fail)."""
    layout, rng = potential.layout, random.Random(11)
    weights = [tuple(w + rng.randrange(-potential.scale // 2, potential.scale // 2) if p else 0
                     for p, w in enumerate(ws)) for ws in potential.weights]
    noisy = Potential(layout, potential.windows, weights, potential.pieces, potential.scale)
    sources = [layout.index[face] for face in ("f33", "f25")]
    found = set(noisy.violations(sources))
    assert found == set(_violations_by_enumeration(noisy, sources))
    assert found  # the noise broke some step, so the comparison compared something


def _violations_by_enumeration(potential, sources):
    """Every step from ``sources`` with every pattern of every compartment of the windows it touches."""
    layout = potential.layout
    for s in sources:
        for x in layout.adjacent[s]:
            if x == layout.center:
                continue
            near = {s, x, *(c for pair in layout.groups_at[x] for c in pair)} - {layout.center}
            core = sorted(near - {s, x})
            around = sorted({c for cells in potential.windows if near & set(cells) for c in cells} - near)
            for pieces in itertools.product((0, 1), repeat=len(core) + len(around)):
                before = 1 << s | sum(1 << c for c, on in zip(core + around, pieces) if on)
                moved = before ^ (1 << s) ^ (1 << x)
                targets = layout.add_targets(moved, x)
                for adds in (a for n in range(len(targets) + 1) for a in itertools.combinations(targets, n)):
                    after = moved | sum(1 << c for c in adds)
                    if (len(adds) - 1) * potential.scale > potential.value(after) - potential.value(before):
                        yield full_house_bound._describe(layout, s, x, [c for c in core if before >> c & 1], adds)


def test_the_most_bounds_the_potential_of_every_position_of_that_many_pieces(potential):
    layout, rng = potential.layout, random.Random(3)
    rest = [c for c in range(len(layout.faces)) if c not in layout.no_rest]
    for total in (3, 10, 25, 40):
        top = potential.most(total)
        for _ in range(300):
            assert potential.value(sum(1 << c for c in rng.sample(rest, total))) <= top


def test_the_bound_never_exceeds_the_fewest_moves_on_small_instances():
    """Along random games of small puzzles, wherever the potential says more than two pieces per step
    does, the A* bound against plain exhaustive search through the game's own moves."""
    rng, checked = random.Random(5), 0
    for pieces in (7, 8):
        game = FullHouse(pieces=pieces)
        space = Space(game.new_initial_state().layout, pieces)
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal() and len(state.history) < 8:
                by_step = -(-(pieces - state.occupied.bit_count()) // 2)
                if not state.pending and space.heuristic(state.occupied) > by_step:  # open adds are free
                    assert space.heuristic(state.occupied) <= fewest_moves_by_brute_force(game, state)
                    checked += 1
                state.push(state.random_move(rng))
    assert checked >= 5


def test_from_the_start_the_potential_proves_more_than_two_pieces_per_step(potential):
    layout = potential.layout
    start = sum(1 << c for c in layout.full_house_start)
    assert potential.steps_needed(start, 40) >= 32 > -(-37 // 2)


def test_a_potential_made_for_another_layout_is_refused_and_the_search_goes_on(tmp_path, monkeypatch, caplog):
    layout = load_layout()
    data = json.loads(full_house_bound.DATA_FILE.read_text())
    with pytest.raises(ValueError, match="another layout"):
        Potential.from_json(layout, {**data, "layout": "0" * 32})
    stale = tmp_path / "potential.json"
    stale.write_text(json.dumps({**data, "layout": "0" * 32}))
    monkeypatch.setattr(full_house_bound, "DATA_FILE", stale)
    monkeypatch.setattr(full_house_bound, "_shipped", {})
    with caplog.at_level(logging.WARNING):
        assert shipped_potential(layout) is None
    assert "potential.json: not used (made for another layout" in caplog.text
    space = Space(layout, 40)
    assert space.heuristic(sum(1 << c for c in layout.full_house_start)) == 19  # two pieces per step
