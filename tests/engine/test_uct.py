"""Plain UCT, the honest opponent: legal moves, the state left as found, wins found and proven, a
deadline kept, a turn's time shared by its steps, and hidden values never read."""

from __future__ import annotations

import random

import pytest

from engine import new_game
from engine.ai.uct import UCTPlayer, playout, search
from engine.core import CHANCE, TERMINAL
from engine.games.squareoff import SquareOff
from engine.positions import random_position

#: Every game of 2-4 players.
CASES = [("hexover", {}), ("mono-line", {}), ("squareoff", {}), ("overpass", {"players": 2}),
         ("overpass", {"players": 3}), ("groups-of-three", {}), ("pawns-crossing", {})]


@pytest.mark.parametrize(("name", "options"), CASES, ids=[f"{n}{o.get('players', '')}" for n, o in CASES])
def test_plain_uct_plays_legal_moves_and_leaves_the_state_as_it_found_it(name, options):
    state = random_position(name, options, 20, 3)
    position, history = state.position(), list(state.history)
    move = UCTPlayer("easy", 1, simulations=4, playout_cap=300).choose(state)
    assert state.position() == position and state.history == history
    assert move in state.legal_moves


def squareoff_win_in_one():
    # Black closes a row, and the capture it earns leaves white two pieces: black wins.
    return SquareOff().state_from_position({"board": {"p6": "black", "p2": "black", "p1": "black", "p23": "black",
                                                      "p22": "white", "p24": "white", "p17": "white"},
                                            "in_hand": {"black": 0, "white": 0}, "to_move": "black"})


def test_plain_uct_finds_and_proves_a_win_in_one_turn_of_two_plies():
    state = squareoff_win_in_one()
    root = search(state, 400, random.Random(0))
    assert root.outcome == (1.0, -1.0), "the solver proves the win and stops"
    player = UCTPlayer("easy", 0, simulations=400)
    while state.current_player == 0:
        state.push(player.choose(state))
    assert state.is_terminal() and state.outcome().winner == 0


def test_a_playout_runs_to_the_end_or_counts_a_draw_at_the_cap():
    state = new_game("groups-of-three")
    assert playout(state, random.Random(1), cap=50) == (0.0, 0.0) and not state.history
    state = new_game("hexover")
    returns = playout(state, random.Random(1))
    assert sorted(returns) == [-1.0, 1.0] and not state.history


def test_the_search_stops_at_its_deadline_once_every_move_has_a_node():
    state = random_position("hexover", {}, 4, 2)
    root = search(state, 1000, random.Random(0), deadline=2.0, clock=lambda: 2.0)
    assert root.children and root.visits == 2, "one playout from the root, one to expand it"


def test_chance_nodes_are_sampled_and_each_node_holds_its_movers_returns():
    rng = random.Random(5)
    state = new_game("groups-of-three")
    while True:  # to a decision whose first move ends the turn: the dice are rolled next
        while state.is_chance_node():
            state.push(state.random_move(rng))
        state.push(next(iter(state.legal_moves)))
        if state.is_chance_node():
            state.pop()
            break
        state.pop()
        state.push(state.random_move(rng))
    mover = state.current_player
    root = search(state, 60, random.Random(0), playout_cap=60)
    assert root.visits == 60 and all(child.player == mover for child in root.children)
    rolls = [node for child in root.children for node in (child.chances or {}).values()]
    assert rolls and all(node.player == CHANCE for node in rolls)


def test_the_steps_of_a_turn_share_its_time_and_a_new_turn_starts_afresh():
    now = [0.0]
    player = UCTPlayer("normal", 0, speed=1.0, clock=lambda: now[0])  # 3 s a turn
    state = squareoff_win_in_one()
    step, turn = player._deadlines(state)
    assert (step, turn) == (1.5, 3.0)
    move = player.choose(state)
    state.push(move)
    now[0] = 2.0
    assert player._deadlines(state) == (2.5, 3.0), "the capture of the same turn gets half of what is left"
    state.pop()
    assert player._deadlines(state)[1] == 5.0, "another position: a new turn"


def test_plain_uct_cannot_read_values_its_seat_does_not_see():
    state = random_position("pawns-crossing", {}, 30, 6)
    player = state.current_player
    assert state.current_player not in (CHANCE, TERMINAL)
    unseen = [t for t, entry in state.position_seen_by(player)["tokens"].items() if entry["value"] is None]
    assert unseen, "the position has tokens whose values the seat cannot see"
    expected = UCTPlayer("easy", 3, simulations=6, playout_cap=300).choose(state)
    values = [state.values[t] for t in unseen]
    for shift in range(1, 3):
        for token, value in zip(unseen, values[shift:] + values[:shift]):
            state.values[token] = value
        assert UCTPlayer("easy", 3, simulations=6, playout_cap=300).choose(state) == expected


def test_a_step_that_ends_the_turn_searches_to_the_turns_deadline_as_the_computers_does():
    now = [0.0]

    def clock() -> float:  # a tick a reading: the search's length is counted, not timed
        now[0] += 0.01
        return now[0]

    state = random_position("hexover", {}, 4, 2)
    UCTPlayer("normal", 0, speed=1.0, clock=clock).choose(state)
    assert 3.0 <= now[0] < 3.1, "a Hexover turn is one step: all of its 3 s, not the first step's share"
