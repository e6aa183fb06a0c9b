"""The Full House solver, the solver registry and ``gameboard solve``, on instances with known answers."""

import io
import json
import random
from collections import deque

import pytest

from engine.games.full_house import FullHouse
from engine.games.groups_of_three_layout import Layout
from engine.games.groups_of_three_movement import Step
from engine.solvers import LINES, SOLVERS, Budget, Hint, Progress, SolverError, solver
from engine.solvers.full_house import hint, solve
from engine.solvers.full_house_search import Search
from engine.solvers.full_house_space import Space, node_key
from firmware_host.cli import main
from firmware_host.commands.solve import ProgressLine


def replay(game, moves):
    """Apply a solution's moves, checked, to the puzzle's start; the final state."""
    state = game.new_initial_state()
    for text in moves:
        state.apply(text)
    return state


def fewest_moves_by_brute_force(game, start_state=None):
    """0-1 breadth-first search through the game's own legal moves (steps cost 1, adds 0), from the start
    or ``start_state``."""
    def key(position):
        return frozenset(position["pieces"]), tuple(position["pending_adds"])

    start = (start_state or game.new_initial_state()).position()
    best = {key(start): 0}
    frontier = deque([(0, start)])
    while frontier:
        cost, position = frontier.popleft()
        if best[key(position)] < cost:
            continue
        state = game.state_from_position(position)
        if state.is_solved():
            return cost
        for move in list(state.legal_moves):
            step = isinstance(move, Step)
            state.push(move)
            after = state.position()
            state.pop()
            if best.get(key(after), cost + 2) > cost + step:
                best[key(after)] = cost + step
                if step:
                    frontier.append((cost + 1, after))
                else:
                    frontier.appendleft((cost, after))
    return None


@pytest.mark.parametrize("pieces", [4, 5, 6])
def test_the_solver_agrees_with_brute_force_on_small_instances(pieces):
    game = FullHouse(pieces=pieces)
    solution = solve(time_limit=20, state=game.new_initial_state())
    assert solution.solved and solution.optimal
    assert solution.cost == solution.lower_bound == fewest_moves_by_brute_force(game)
    final = replay(game, solution.moves)
    assert final.is_solved() and final.moves == solution.cost


def test_one_move_brings_in_the_fourth_piece():
    solution = solve(time_limit=5, state=FullHouse(pieces=4).new_initial_state())
    assert solution.cost == 1 and len([m for m in solution.moves if not m.startswith("+")]) == 1
    assert "proved no shorter solution" in solution.explanation


def test_a_ten_piece_instance_is_solved_optimally_in_seven_moves():
    game = FullHouse(pieces=10)
    solution = solve(time_limit=20, state=game.new_initial_state())
    assert (solution.cost, solution.optimal) == (7, True)
    assert replay(game, solution.moves).moves == 7


def test_the_full_puzzle_under_a_short_limit_gives_the_best_found_and_a_bound():
    game = FullHouse()
    solution = solve(time_limit=1.5, state=game.new_initial_state())
    assert solution.solved and not solution.optimal
    assert 19 <= solution.lower_bound <= solution.cost  # 37 pieces to bring in, at most 2 a step
    assert replay(game, solution.moves).moves == solution.cost
    assert "best found" in solution.explanation and f"at least {solution.lower_bound}" in solution.explanation


def test_a_lone_piece_can_never_bring_another_in():
    state = FullHouse(pieces=5).state_from_position(
        {"pieces": {"f33": "piece"}, "reserve": {"piece": 4}, "borne_off": {"piece": 0}, "pending_adds": []})
    solution = solve(time_limit=5, state=state)
    assert not solution.solved and solution.moves == []
    assert solution.explanation.startswith("no solution: a piece brings another in only")


def impossible_toy():
    """A toy network a - b - c forming one group: two pieces can fill it, never hold four."""
    toy = Layout(faces=("center", "a", "b", "c"), index={"center": 0, "a": 1, "b": 2, "c": 3},
                 adjacent=((), (2,), (1, 3), (2,)), center=0, transit=frozenset(), no_rest=frozenset({0}),
                 groups=((1, 2, 3),),
                 groups_at=((), ((2, 3),), ((3, 1),), ((1, 2),)), starts={}, full_house_start=(1, 2))
    state = FullHouse(pieces=4).new_initial_state()
    state.layout, state.occupied = toy, 0b0110
    return state


def test_a_search_that_exhausts_every_position_says_no_solution_exists():
    solution = solve(time_limit=5, state=impossible_toy())
    assert not solution.solved and solution.optimal
    assert "was searched and none has 4 pieces on the board" in solution.explanation


def test_the_hint_says_impossible_where_the_search_proves_it():
    assert hint(impossible_toy(), time_limit=5) == Hint(
        (), None, "impossible from here: every one of the 5 positions reachable was searched and none has 4 pieces "
                  "on the board", lost=True)
    lone = FullHouse(pieces=5).state_from_position(
        {"pieces": {"f33": "piece"}, "reserve": {"piece": 4}, "borne_off": {"piece": 0}, "pending_adds": []})
    found = hint(lone, time_limit=5)
    assert found.lost and found.explanation.startswith("impossible from here: a piece brings another in only")


def test_a_hint_out_of_time_says_how_many_moves_it_takes_at_least():
    found = hint(FullHouse(pieces=30).new_initial_state(), time_limit=0.0)
    assert not found.moves and not found.lost
    assert found.explanation.startswith("no way to all 30 pieces on the board found within 0 s; it takes at least ")


def test_a_full_board_needs_no_move():
    game = FullHouse(pieces=3)
    assert solve(time_limit=1, state=game.new_initial_state()).cost == 0


def test_progress_is_reported_while_searching():
    reports = []
    solve(time_limit=1, progress=reports.append, state=FullHouse().new_initial_state())
    assert reports and all(isinstance(r, Progress) for r in reports)
    assert [r.elapsed for r in reports] == sorted(r.elapsed for r in reports)
    assert reports[-1].stage == "done" and reports[-1].best is not None


# -- the registry and the command ---------------------------------------------------------


def test_the_registry_lists_every_puzzle():
    assert SOLVERS == {"full-house": "engine.solvers.full_house:solve",
                       "crooked-jumps": "engine.solvers.crooked_jumps:solve",
                       "overpass-spiral": "engine.solvers.overpass_spiral:solve"}
    assert solver("full-house") is solve


def test_an_unknown_puzzle_is_named_in_the_error():
    with pytest.raises(SolverError, match="unknown puzzle 'sudoku'; puzzles: full-house"):
        solver("sudoku")


def test_a_solver_not_written_yet_is_explained(monkeypatch):
    monkeypatch.setitem(SOLVERS, "future", "engine.solvers.not_there:solve")
    with pytest.raises(SolverError, match="the solver for future is not written yet"):
        solver("future")


def test_gameboard_solve_prints_the_solution(capsys):
    assert main(["solve", "full-house", "--time-limit", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("full-house: best found:") and "\nmoves: f" in out


def test_the_progress_line_appends_once_a_second_when_not_a_terminal():
    stream = io.StringIO()
    line = ProgressLine(stream)
    for elapsed in (0.0, 0.5, 1.2):
        line(Progress(elapsed, 1000, 40, 20, "beam search"))
    assert stream.getvalue().count("\n") == 2 and "best   40  bound   20  beam search" in stream.getvalue()


@pytest.mark.parametrize("pieces", [5, 6])
def test_the_hint_from_any_position_of_a_small_instance_starts_a_shortest_solution(pieces):
    """Along random games, with adds pending or not, the hint's moves replay to a full board in as
    few steps as plain exhaustive search needs from there."""
    game = FullHouse(pieces=pieces)
    rng = random.Random(pieces)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal() and len(state.history) < 8:
            found = hint(state, time_limit=20)
            fewest = fewest_moves_by_brute_force(game, state)
            assert found.moves and found.lost_at is None and "(the fewest possible)" in found.explanation
            after = game.state_from_position(state.position())
            for text in found.moves:
                after.apply(text)
            assert after.is_solved() and after.moves - state.moves == fewest
            assert found.explanation.startswith(f"{fewest} more move")
            state.push(state.random_move(rng))


def test_solving_with_adds_still_open_searches_each_choice_of_them():
    """Off any line that ships, right after a step that opened adds: the fewest moves from there, as plain
    exhaustive search finds them, whether the adds are best taken or left (taking them all can cost a move)."""
    game, rng, checked = FullHouse(pieces=6), random.Random(7), 0
    while checked < 4:
        state = game.new_initial_state()
        while not state.is_terminal() and not (state.pending and len(state.pending) < state.reserve[0]):
            state.push(state.random_move(rng))
        if state.is_terminal():
            continue
        solution = solve(time_limit=20, state=state)
        fewest = fewest_moves_by_brute_force(game, state)
        assert solution.solved and solution.optimal and solution.cost == fewest
        assert "(each choice of the adds still open searched)" in solution.explanation
        after = game.state_from_position(state.position())
        for text in solution.moves:
            after.apply(text)
        assert after.is_solved() and after.moves - state.moves == fewest
        checked += 1


def test_the_hint_on_the_full_puzzle_answers_in_its_time_with_the_fewest_found():
    state = FullHouse().new_initial_state()
    found = hint(state, time_limit=0.5)
    state.parse_move(found.moves[0])
    assert "more moves to all 40 pieces on the board (the fewest found)" in found.explanation


def test_the_hint_on_a_full_board_says_it_is_solved():
    game = FullHouse(pieces=4)
    state = game.new_initial_state()
    for text in solve(time_limit=5, state=state).moves:
        state.apply(text)
    assert hint(state, time_limit=1) == Hint((), None, "solved: all 4 pieces are on the board")


def test_a_known_line_is_followed_with_its_steps_counted():
    state = FullHouse(pieces=6).new_initial_state()
    line = solve(time_limit=5, state=state).moves
    state.apply(line[0])
    found = hint(state, time_limit=0.001, known=line)
    assert found.moves == tuple(line[1:])
    assert found.explanation == f"{sum(not m.startswith('+') for m in line[1:])} more moves to all 6 pieces on " \
                                f"the board (the fewest found)"


SHIPPED = next(line for line in json.loads(LINES.read_text(encoding="utf-8"))["lines"] if line["game"] == "full-house")


def test_the_full_puzzle_answers_at_once_with_the_36_move_line_that_ships():
    solution = solve(time_limit=0.2, state=FullHouse().new_initial_state())
    assert solution.cost == 36 and solution.moves == SHIPPED["moves"]
    assert "36 moves bring all 40 pieces onto the board (a line that ships with the puzzle)" in solution.explanation
    assert replay(FullHouse(), solution.moves).moves == 36


@pytest.mark.parametrize("made", [9, 10, 11])  # after a step: both its adds open, one, none
def test_solving_from_along_the_shipped_line_gives_its_rest(made):
    game = FullHouse()
    state = replay(game, SHIPPED["moves"][:made])
    solution = solve(time_limit=0.2, state=state)
    assert solution.moves == SHIPPED["moves"][made:] and solution.cost == 36 - state.moves
    for text in solution.moves:
        state.apply(text)
    assert state.is_solved() and state.moves == 36


def test_the_adds_still_open_that_fill_the_board_are_the_whole_solution():
    state = replay(FullHouse(), SHIPPED["moves"][:-1])  # the last step made, its add still open
    solution = solve(time_limit=0.2, state=state)
    assert (solution.moves, solution.cost, solution.optimal) == ([SHIPPED["moves"][-1]], 0, True)


def test_a_hint_at_the_start_follows_the_shipped_line():
    found = hint(FullHouse().new_initial_state(), time_limit=0.0)  # no time to search: the line answers
    assert found.moves == tuple(SHIPPED["moves"])
    assert found.explanation == "36 more moves to all 40 pieces on the board (the fewest found)"


def exhaust(pieces, bound, cap=1_000_000, seconds=120.0):
    """How ``Search.exhaust`` ends for every way of at most ``bound`` steps from the start of ``pieces``."""
    state = FullHouse(pieces=pieces).new_initial_state()
    space = Space(state.layout, pieces)
    return Search(space, node_key(state.occupied, state.transit), Budget(seconds), None).exhaust(bound, cap)


@pytest.mark.parametrize("pieces", [5, 6, 7, 8])
def test_every_way_within_a_bound_is_exhausted_as_brute_force_counts(pieces):
    fewest = fewest_moves_by_brute_force(FullHouse(pieces=pieces))
    assert exhaust(pieces, fewest - 1) == "none"
    assert exhaust(pieces, fewest) == "solved"


def test_exhausting_the_full_puzzle_stops_at_its_caps_proving_nothing():
    assert exhaust(40, 33, cap=100) == "memory"
    assert exhaust(40, 33, seconds=0.0) == "time"


def test_the_layout_has_the_board_s_eight_symmetries_each_keeping_every_side_and_group():
    layout = FullHouse().new_initial_state().layout
    sides = {(i, j) for i, near in enumerate(layout.adjacent) for j in near}
    groups = set(map(frozenset, layout.groups))
    assert len(layout.symmetries) == 8 and layout.symmetries[0] == tuple(range(len(layout.faces)))
    for perm in layout.symmetries:
        assert {(perm[i], perm[j]) for i, j in sides} == sides
        assert {frozenset(perm[c] for c in group) for group in groups} == groups
