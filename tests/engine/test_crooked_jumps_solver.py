"""The Crooked Jumps solver: known small answers, the standard layout, proofs of none, time limits."""

import json
import random
from pathlib import Path

import pytest

from engine import new_game
from engine.games.crooked_jumps import CrookedJumps
from engine.solvers import Budget, SolverError, removal, solver
from engine.solvers import crooked_jumps as search
from engine.solvers.chains import fewest_chains
from engine.solvers.removal import RemovalSearch, chains
from firmware_host.cli import main

RECORDS = Path(__file__).parent.parent / "data" / "crooked_jumps"


def position(*pieces, **options):
    return CrookedJumps(**options).state_from_position({"pieces": list(pieces)})


def replay(state, moves):
    for move in moves:
        state.apply(move)
    return state


def test_the_registry_finds_this_solver():
    assert solver("crooked-jumps") is search.solve


def test_a_one_jump_puzzle_is_solved_by_that_jump():
    solution = search.solve(time_limit=5, state=position("p9", "p1"))
    assert solution.solved and solution.moves == ["p9>p1>center"]


def test_a_three_piece_puzzle_needs_the_right_first_jump():
    state = position("p13", "p9", "p1")
    solution = search.solve(time_limit=5, state=state)
    assert solution.solved and len(solution.moves) == 2
    assert replay(state, solution.moves).position() == {"pieces": ["center"]}


def test_the_standard_layout_is_solved_and_the_moves_replay_to_one_piece_in_the_centre():
    solution = search.solve(time_limit=20)
    assert solution.solved and solution.optimal and len(solution.moves) == 15
    state = replay(CrookedJumps().new_initial_state(), solution.moves)
    assert state.position() == {"pieces": ["center"]} and state.outcome().winners == (0,)
    assert "leaving one piece, in the centre" in solution.explanation


def test_with_straight_jumps_only_the_standard_layout_is_proved_impossible():
    solution = search.solve(time_limit=20, state=CrookedJumps(jumps="straight").new_initial_state())
    assert not solution.solved
    assert solution.explanation.startswith("no solution: every position reachable from the start that could still "
                                           "end in the centre was examined")
    replay(CrookedJumps(jumps="straight").new_initial_state(), solution.moves)  # the best found is playable


def test_with_straight_jumps_no_16_piece_position_can_finish_in_the_centre():
    """Every position that straight jumps can turn into one piece in the centre, found backwards."""
    game = CrookedJumps(jumps="straight")
    into = [[] for _ in game.locations]  # for each landing: the (start, jumped) pairs that reach it
    for start, jumps in enumerate(game.jumps):
        for over, to in jumps:
            into[to].append((start, over))
    seen, frontier = set(), [1 << game.goal]
    while frontier:
        mask = frontier.pop()
        if mask in seen:
            continue
        seen.add(mask)
        for to in (i for i in range(len(game.locations)) if mask >> i & 1):
            for start, over in into[to]:
                if not mask >> start & 1 and not mask >> over & 1:
                    frontier.append(mask ^ (1 << to) | (1 << start) | (1 << over))
    assert max(mask.bit_count() for mask in seen) == 12


def test_no_jump_at_all_is_explained():
    solution = search.solve(time_limit=5, state=position("p97", "p104"))
    assert not solution.solved and solution.moves == []
    assert "the best leaves 2 pieces" in solution.explanation


def test_one_piece_that_can_never_reach_the_centre_is_explained():
    solution = search.solve(time_limit=5, state=position("p73", "p89"))  # two pieces far out on one line
    assert not solution.solved and len(solution.moves) == 1
    assert "none leaves one piece in the centre; the best leaves one piece, on" in solution.explanation


def test_the_time_limit_stops_the_search_with_the_best_found(monkeypatch):
    monkeypatch.setattr(removal, "CHECK_EVERY", 10)
    state = CrookedJumps(layout="ring").new_initial_state()
    reports = []
    solution = search.solve(time_limit=0.0, progress=reports.append, state=state)
    assert not solution.solved and "search not finished" in solution.explanation
    replay(CrookedJumps(layout="ring").new_initial_state(), solution.moves)


def test_progress_is_reported_with_positions_and_the_best_count(monkeypatch):
    monkeypatch.setattr(removal, "CHECK_EVERY", 1)
    reports = []
    search.solve(time_limit=30, progress=reports.append)
    assert reports and reports[0].explored >= 1 and reports[-1].best >= 1


def test_symmetric_positions_share_one_memo_key():
    game = CrookedJumps()
    symmetries = RemovalSearch(game, Budget(1.0)).symmetries
    mask = game.start_mask ^ (1 << game.index["p1"]) ^ (1 << game.index["p13"])
    for perm in game.symmetries:
        image = sum(1 << perm[i] for i in range(len(game.locations)) if mask >> i & 1)
        assert symmetries.canonical(image) == symmetries.canonical(mask)


def test_a_position_of_another_game_is_refused_with_a_clear_error():
    with pytest.raises(SolverError, match="not a mono-line one"):
        search.solve(time_limit=1, state=new_game("mono-line"))


def test_chains_count_a_piece_jumping_on_from_where_it_landed_as_one():
    assert chains([(1, 2, 9), (2, 3, 9), (5, 6, 9), (6, 1, 9)]) == 2


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.json")), ids=lambda p: p.stem)
def test_golden_records_replay(path):
    record = json.loads(path.read_text())
    state = replay(CrookedJumps(**record["options"]).new_initial_state(), record["moves"])
    assert state.position() == record["final_position"]


def test_gameboard_solve_prints_the_solution(capsys):
    assert main(["solve", "crooked-jumps", "--quiet", "--time-limit", "20"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("crooked-jumps: solved in 15 moves") and "moves: " in out


def fewest_chains_by_brute_force(state) -> int | None:
    """Every sequence of legal moves through the state API, a chain ending where the next move is by another
    piece than the one that just landed: the fewest chains to one piece in the centre, or None."""
    memo: dict[tuple[frozenset[str], str | None], int | None] = {}

    def walk(landed: str | None) -> int | None:
        key = (frozenset(p for p, piece in state.contents().items() if piece), landed)
        if key not in memo:
            outcome = state.outcome()
            if outcome is not None:
                memo[key] = 0 if outcome.winners else None
            else:
                best = None
                for move in list(state.legal_moves):
                    state.push(move)
                    rest = walk(move.to)
                    state.pop()
                    if rest is not None:
                        cost = rest + (move.start != landed)
                        best = cost if best is None else min(best, cost)
                memo[key] = best
        return memo[key]

    return walk(None)


@pytest.mark.parametrize("seed", range(8))
def test_the_fewest_chains_agree_with_brute_force_on_small_positions(seed):
    rng = random.Random(seed)
    state = new_game("crooked-jumps")
    while len(state.history) < 9 and not state.is_terminal():  # seven pieces left: 1 to 3 chains, or none
        state.push(state.random_move(rng))
    start = state.game.state_from_position(state.position())
    found = fewest_chains(start, time_limit=60)
    expected = fewest_chains_by_brute_force(start)
    assert found.chains == expected and found.proved
    if expected is not None:
        for move in found.moves:
            start.apply(move)
        assert start.outcome().returns == (1.0,) and chains_of(found.moves) == expected


def test_one_piece_jumping_round_the_board_is_one_chain():
    state = position("p9", "p1", "p2", "p5", "p6", "p10")
    found = fewest_chains(state, time_limit=10)
    assert found.chains == 1 and len(found.moves) == 5
    assert found.explanation.startswith("1 chain (5 moves), and no fewer")


def test_no_solution_is_proved_for_chains_too():
    found = fewest_chains(position("p73", "p89"), time_limit=10)
    assert (found.chains, found.proved, found.moves) == (None, True, ())
    assert found.explanation.startswith("no solution")


def chains_of(moves) -> int:
    steps = [tuple(move.split(">")) for move in moves]
    return sum(1 for k, (start, _, _) in enumerate(steps) if k == 0 or start != steps[k - 1][2])
