"""The baselines: greedy looks through its own turn (a Square Off mill's capture is its next ply) and
counts the decisions where it tells moves apart; random plays legal moves."""

from __future__ import annotations

from engine import new_game
from engine.ai.baselines import GreedyPlayer, RandomPlayer
from engine.games.squareoff import SquareOff


def squareoff_mill_then_win():
    """Black to move: one move closes a mill, and its capture leaves white two pieces: black wins."""
    return SquareOff().state_from_position({"board": {"p6": "black", "p2": "black", "p1": "black", "p23": "black",
                                                      "p22": "white", "p24": "white", "p17": "white"},
                                            "in_hand": {"black": 0, "white": 0}, "to_move": "black"})


def test_greedy_sees_the_capture_its_mill_earns_and_wins():
    for seed in range(4):
        state = squareoff_mill_then_win()
        greedy = GreedyPlayer(seed)
        while state.current_player == 0:
            state.push(greedy.choose(state))
        assert state.is_terminal() and state.outcome().winner == 0, (seed, state.history)
        assert (greedy.decisions, greedy.told_apart) == (2, 1), "every capture then wins: a tie"


def test_greedy_counts_the_decisions_where_every_move_ties_and_leaves_the_state_as_found():
    state = new_game("squareoff")
    position = state.position()
    greedy = GreedyPlayer(0, budget=500)  # the first placement: no row can form, every piece stays on the board
    assert greedy.choose(state) in state.legal_moves and state.position() == position
    assert (greedy.decisions, greedy.told_apart) == (1, 0)


def test_random_plays_legal_moves():
    state = new_game("hexover")
    move = RandomPlayer(3).choose(state)
    assert move in state.legal_moves and not state.history
