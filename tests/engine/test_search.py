"""The computer player: legal moves only, the state left as found, the same move from the same seed,
wins it should not miss, per-seat values with 3-4 players, and hidden values never read."""

from __future__ import annotations

import gc
import random

import pytest

from engine import new_game
from engine.ai.baselines import GreedyPlayer
from engine.ai.candidates import MONO_LINE, candidates
from engine.ai.evaluate import evaluate
from engine.ai.hidden import sample
from engine.ai.levels import HINT_SECONDS, LEVELS, level
from engine.ai.mcts import Settings, search, search_dealt
from engine.ai.player import FIRST_STEP_SECONDS, STEP_SHARE, Computer, plan_turn
from engine.ai.playout import playout_move
from engine.core import CHANCE
from engine.games.squareoff import SquareOff
from engine.positions import random_position
from engine.registry import GAMES

#: Every game (Over-Pass with three players too), with the plies of random play before the computer is asked.
CASES = [(name, {}) for name in GAMES] + [("overpass", {"players": 3})]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}{o.get('players', '')}" for n, o in CASES])
def test_the_computer_plays_legal_moves_and_leaves_the_state_as_it_found_it(name, options):
    for seed, plies in ((1, 3), (2, 25)):
        state = random_position(name, options, plies, seed)
        if state.is_terminal():
            continue
        position, history = state.position(), list(state.history)
        plan = plan_turn(state, "easy", seed, simulations=40)
        assert state.position() == position and state.history == history
        assert plan, "a player to move always has a move"
        player = state.current_player
        for move in plan:
            assert state.current_player == player and move in state.legal_moves, f"{move} in {name}"
            state.push(move)
        assert state.current_player != player or state.is_terminal() or len(plan) == state.game.num_players == 1


@pytest.mark.parametrize("name", ["squareoff", "overpass", "pawns-crossing"])
def test_the_same_seed_gives_the_same_turn(name):
    state = random_position(name, {}, 12, 4)
    first = plan_turn(state, "easy", 7, simulations=40)
    assert plan_turn(state, "easy", 7, simulations=40) == first
    assert list(Computer("easy", 7, simulations=40).steps(state)) == first, "step by step, the same turn"
    assert plan_turn(state.clone(), "easy", 7, simulations=40) == first, "the position decides, not the history"


class Ticks:
    """A fake clock that advances one tick each time it is read: a search's time is the reads it makes
    (one a simulation), so a deadline is checked without timing anything."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


#: A machine a tenth of a Raspberry Pi 4: each Pi 4 second of a level is ten ticks of ``Ticks``.
TENTH = 0.1


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}{o.get('players', '')}" for n, o in CASES])
def test_every_level_holds_its_whole_turns_deadline_in_every_game(name, options):
    state = random_position(name, options, 14, 3)
    if state.is_terminal():
        state = random_position(name, options, 2, 3)
    for name_of_level, level_of in LEVELS.items():
        clock = Ticks()
        computer = Computer(name_of_level, 0, speed=TENTH, clock=clock)
        plan = computer.plan(state)
        # The first read starts the turn; past the deadline at most the read that finds it late and one more.
        assert clock.now - 1 <= level_of.seconds / TENTH + 2, (name_of_level, len(plan), clock.now)


def test_a_turn_of_many_steps_past_its_deadline_ends_at_once():
    state = random_position("overpass", {"players": 2}, 10, 1)
    clock = Ticks()
    plan = Computer("easy", 0, speed=1000.0, clock=clock).plan(state)  # a thousandth of a second: one tick
    assert len(plan) > 3 and clock.now <= 4, "steps without time left play what the tree knows, reading no clock"
    for move in plan:
        assert move in state.legal_moves
        state.push(move)


def test_the_first_step_of_a_turn_of_several_comes_within_its_share_and_the_state_is_as_found():
    state = random_position("overpass", {"players": 2}, 10, 1)
    position, clock = state.position(), Ticks()
    computer = Computer("hard", 0, speed=TENTH, clock=clock)
    steps = computer.steps(state)
    next(steps)
    first_share = min(FIRST_STEP_SECONDS, STEP_SHARE * LEVELS["hard"].seconds) / TENTH
    assert clock.now <= first_share + 4, "the board lights the first step while the rest is planned"
    assert state.position() == position
    rest = list(steps)
    assert rest and state.position() == position
    assert clock.now - 1 <= LEVELS["hard"].seconds / TENTH + 2


def test_a_single_step_turn_takes_the_whole_deadline():
    state = random_position("hexover", {}, 6, 2)
    clock = Ticks()
    assert len(Computer("normal", 0, speed=TENTH, clock=clock).plan(state)) == 1
    assert clock.now >= LEVELS["normal"].seconds / TENTH, "not only the first step's share"


def test_the_cycle_collector_waits_for_the_end_of_a_turn_even_one_left_half_way():
    # A collection walks every node of the trees (up to 195 ms here at hard): never within a turn's deadline.
    state = random_position("overpass", {"players": 2}, 10, 1)
    seen: list[bool] = []
    ticks = Ticks()

    def clock() -> float:
        seen.append(gc.isenabled())
        return ticks()

    assert gc.isenabled()
    steps = Computer("easy", 0, speed=TENTH, clock=clock).steps(state)
    next(steps)
    start, *during = seen  # the turn's clock starts, then every read is within the search
    assert start and during and not any(during) and not gc.isenabled(), "paused between the steps too"
    steps.close()  # the board moved on before the turn's end
    assert gc.isenabled()
    seen.clear()
    Computer("easy", 0, speed=TENTH, clock=clock).plan(state)
    assert not any(seen[1:]) and gc.isenabled()


def test_a_hint_is_capped_by_its_seconds():
    state = random_position("squareoff", {}, 12, 2)
    clock = Ticks()
    Computer("hard", 0, speed=TENTH, clock=clock, seconds=HINT_SECONDS).plan(state)
    assert clock.now - 1 <= HINT_SECONDS / TENTH + 2


def test_the_computer_finds_a_win_in_one_turn():
    # p1-p5 forms the row p5-p6... and the capture leaves white two pieces: black wins.
    state = SquareOff().state_from_position({"board": {"p6": "black", "p2": "black", "p1": "black", "p23": "black",
                                                       "p22": "white", "p24": "white", "p17": "white"},
                                             "in_hand": {"black": 0, "white": 0}, "to_move": "black"})
    plan = plan_turn(state, "easy", 0, simulations=40)
    for move in plan:
        state.push(move)
    assert state.is_terminal() and state.outcome().winner == 0, plan


def test_chance_nodes_are_sampled_and_values_are_per_seat():
    state = random_position("overpass", {"players": 3}, 40, 5)
    root = search(state, Settings(60, playout_plies=24), random.Random(0))
    assert root.visits == 60 and sum(child.visits for child in root.children) == 60
    mover = state.current_player
    assert all(child.mover == mover for child in root.children)
    # Below the end of the turn the dice are rolled: the tree's chance nodes hold sampled rolls.
    chance = [node for child in root.children for node in (child.outcomes or {}).values()]
    assert all(node.mover == CHANCE for node in chance)


def test_a_continued_search_runs_only_the_simulations_its_tree_lacks():
    state = random_position("squareoff", {}, 12, 2)
    rng = random.Random(0)
    root = search(state, Settings(50), rng)
    child = root.best_child()
    kept = child.visits
    state.push(child.move)
    continued = search(state, Settings(kept + 30), rng, root=child)
    state.pop()
    assert continued is child and child.visits == kept + 30
    assert search(state, Settings(40), rng, root=root).visits == 50, "a tree with enough visits is used as it is"


def test_asked_move_by_move_the_computer_carries_out_the_turn_it_planned_at_its_start():
    state = random_position("overpass", {"players": 2}, 10, 1)
    planned = plan_turn(state, "easy", 3, simulations=40)
    assert len(planned) > 1, "a turn of several moves"
    computer, played = Computer("easy", 3, simulations=40), []
    while len(played) < len(planned):
        played.append(computer.choose(state))
        state.push(played[-1])
    assert played == planned


def test_an_information_set_search_grows_one_tree_over_deals_that_differ():
    first, second = random_position("squareoff", {}, 10, 1), random_position("squareoff", {}, 10, 8)
    assert first.current_player == second.current_player
    legal = [set(first.legal_moves), set(second.legal_moves)]
    assert legal[0] != legal[1]
    positions = [first.position(), second.position()]
    root = search_dealt([first, second], Settings(120), random.Random(0))
    assert [first.position(), second.position()] == positions, "the deals are left as found"
    assert {child.move for child in root.children} == legal[0] | legal[1]
    assert root.visits == 120 and sum(child.visits for child in root.children) == 120
    for child in root.children:  # each move was only walked in a deal where it is legal
        walked_in = [n for n, moves in enumerate(legal) if child.move in moves]
        assert child.visits <= 60 * len(walked_in) + 1


def test_pawns_crossing_playouts_mostly_roll_and_always_play_legal_moves():
    pick = playout_move("pawns-crossing")
    assert pick is not None and playout_move("crooked-jumps") is None
    rng, rolls, chooses = random.Random(0), 0, 0
    state = new_game("pawns-crossing")
    for _ in range(400):
        if state.is_terminal():
            break
        move = pick(state, rng)
        assert move in state.legal_moves
        if state.phase == "choose":
            chooses += 1
            rolls += str(move) == "roll"
        state.push(move)
    assert chooses > 20 and rolls / chooses > 0.6


def test_evaluations_lie_in_range_for_every_player():
    for name, options in CASES:
        state = random_position(name, options, 60, 3)
        values = evaluate(state)
        assert len(values) == state.game.num_players and all(-1 <= v <= 1 for v in values), name


def test_levels_are_named_and_a_wrong_name_says_which_there_are():
    assert list(LEVELS) == ["easy", "normal", "hard"]
    assert LEVELS["easy"].seconds < LEVELS["normal"].seconds < LEVELS["hard"].seconds
    with pytest.raises(ValueError, match="levels: easy, normal, hard"):
        level("expert")


def test_the_computer_refuses_to_choose_at_a_dice_roll():
    state = new_game("overpass", players=2)
    state.push(next(iter(state.legal_moves)))  # enter: the dice are next
    assert state.is_chance_node()
    with pytest.raises(ValueError, match="dice"):
        Computer().choose(state)


# -- Pawns Crossing: the values under other players' tokens are hidden ----------------------------

def pawns_position():
    return random_position("pawns-crossing", {}, 30, 6)


def test_sampled_positions_keep_what_the_seat_sees_and_deal_the_rest():
    state = pawns_position()
    player = state.current_player
    for seed in range(5):
        sampled = sample(state, player, random.Random(seed))
        assert sampled.position_seen_by(player) == state.position_seen_by(player)
        assert sampled.contents() == state.contents()
        assert sorted(map(str, sampled.legal_moves)) == sorted(map(str, state.legal_moves))


def test_the_computer_cannot_read_values_its_seat_does_not_see():
    state = pawns_position()
    player = state.current_player
    unseen = [t for t, entry in state.position_seen_by(player)["tokens"].items() if entry["value"] is None]
    assert unseen, "the position has tokens whose values the seat cannot see"
    expected = Computer("easy", 3, simulations=40).choose(state)
    # Deal the unseen values differently: the seat cannot tell, so the computer must not either.
    values = [state.values[t] for t in unseen]
    for shift in range(1, len(values)):
        for token, value in zip(unseen, values[shift:] + values[:shift]):
            state.values[token] = value
        assert Computer("easy", 3, simulations=40).choose(state) == expected


@pytest.mark.parametrize("make_player", [lambda: Computer("easy", 1, simulations=40), lambda: GreedyPlayer(1)],
                         ids=["computer", "greedy"])
def test_players_never_touch_the_hidden_values(make_player):
    class Sealed(dict):
        """The real values, which raise if anything reads one the seat may not see."""

        def __init__(self, values, hidden):
            super().__init__(values)
            self.hidden = hidden

        def __getitem__(self, token):
            if token in self.hidden:
                raise AssertionError(f"the computer read the hidden value of {token}")
            return super().__getitem__(token)

        def items(self):
            return ((t, None if t in self.hidden else v) for t, v in super().items())

    state = pawns_position()
    player = state.current_player
    hidden = {t for t, entry in state.position_seen_by(player)["tokens"].items() if entry["value"] is None}
    expected = make_player().choose(state)
    state.values = Sealed(state.values, hidden)
    assert make_player().choose(state) == expected


def test_pawns_evaluation_rewards_a_token_nearer_its_destination_and_more_once_home():
    state = new_game("pawns-crossing")
    while state.phase == "place":
        state.push(state.random_move(random.Random(0)))
    player = state.current_player
    token = next(t for t in sorted(state.where) if state.owner[state.colour_of[t]] == player)
    colour, value = state.colour_of[token], state.values[token]
    destination = next(place for place, tile in state.tile_at.items() if tile == (colour, value))
    path = shortest_path(state.where[token], destination)  # from its start, a space at a time
    seen = []
    for space in path + [None]:
        state.where[token] = space
        seen.append(evaluate(state)[player])
    assert seen == sorted(seen) and len(set(seen)) == len(seen), seen


def shortest_path(start, goal):
    """The spaces after ``start`` on a shortest walk to ``goal`` over the board's links."""
    from collections import deque

    from engine.games.pawns_crossing import BOARD

    came = {start: None}
    frontier = deque([start])
    while frontier:
        space = frontier.popleft()
        for step, _ in BOARD.links[space]:
            if step not in came:
                came[step] = space
                frontier.append(step)
    path = [goal]
    while came[path[-1]] != start:
        path.append(came[path[-1]])
    return path[::-1]


def test_mono_line_evaluation_favours_the_player_who_blocks_more_of_the_board():
    state = new_game("mono-line")
    assert evaluate(state) == (0.0, 0.0)
    game = state.game
    # A piece on the most lines blocks the most intersections to the opponent: better than one on the fewest.
    reach = {point: game.sight[game.index[point]].bit_count() for point in game.locations}
    values = []
    for point in (max(reach, key=reach.get), min(reach, key=reach.get)):
        state.apply(f"black@{point}")
        values.append(evaluate(state)[0])
        state.pop()
    assert values[0] > values[1] > 0


@pytest.mark.parametrize("mode", ["strict", "faithful", "friendly"])
def test_mono_line_playouts_play_legal_moves_and_mostly_block_the_most(mode):
    pick, rng = playout_move("mono-line"), random.Random(1)
    blocking = placements = 0
    for _ in range(10):
        state = new_game("mono-line", mode=mode)
        while not state.is_terminal():
            move = pick(state, rng)
            assert move in state.legal_moves, (mode, move)
            if state.pending is None and not state.conflict():
                theirs, sight, index = state.open_points(1 - state.to_move), state.game.sight, state.game.index
                closed = {p: (sight[index[p]] & theirs).bit_count() for p in state.game.locations
                          if state.open_points(state.to_move) >> index[p] & 1}
                placements += 1
                blocking += closed.get(move.point, -1) == max(closed.values(), default=-1)
            state.push(move)
    if mode == "strict":  # elsewhere blocked placements and claims end many games early
        assert blocking / placements > 0.5, "half the placements block the most, and random ones sometimes do"


def test_mono_line_search_tries_the_placements_that_close_the_most_once_each():
    state = random_position("mono-line", {}, 6, 2)
    tried = candidates("mono-line")(state)
    assert candidates("crooked-jumps") is None
    assert 0 < len(tried) <= MONO_LINE and all(move in state.legal_moves for move in tried)
    assert len({move.point for move in tried}) == len(tried), "one colour per intersection"
    closing = dict(state.closing())
    kept = [closing[state.game.index[move.point]] for move in tried]
    assert min(kept) >= max(count for point, count in closing.items()
                            if state.game.locations[point] not in {move.point for move in tried})
