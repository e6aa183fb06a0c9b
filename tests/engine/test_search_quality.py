"""What narrows and guides the search: Hexover's wins at once, Over-Pass's ranked candidates and evaluation."""

from __future__ import annotations

import random

from engine import new_game
from engine.ai.candidates import OVERPASS, candidates
from engine.ai.evaluate import evaluate, overpass_steps
from engine.ai.playout import playout_move
from engine.ai.wins import hexover_winning_drop
from engine.games.hexover import Drop, Pass


def hexover_positions(games: int, seed: int):
    """Every position of ``games`` random Hexover games, one state walked with push and pop."""
    rng = random.Random(seed)
    for _ in range(games):
        state = new_game("hexover")
        while not state.is_terminal():
            yield state
            state.push(state.random_move(rng))


def winning_drops(state, player: int) -> set[int]:
    """The cells where a drop of ``player`` completes a path, found by making every drop."""
    mover, found = state.mover, set()
    cells = state.drops if player == mover else state._drop_cells(player)
    for cell in cells:
        state.mover = player
        state.push(Drop(state.t.cells[cell]))
        outcome = state.outcome()
        state.pop()
        state.mover = mover
        if outcome is not None and outcome.winners == (player,) and "path" in outcome.reason:
            found.add(cell)
    return found


def test_hexover_winning_drops_agree_with_making_every_drop_for_either_player():
    met = 0
    for state in hexover_positions(25, 1):
        for player in (state.mover, 1 - state.mover):
            wins = winning_drops(state, player)
            found = hexover_winning_drop(state, player)
            assert (found in wins) if wins else found is None, (state.position(), player)
            met += bool(wins)
    assert met > 40, "random games offer many wins at once"


def test_hexover_candidates_take_a_win_at_once_and_never_hand_one_over_where_they_need_not():
    tried = candidates("hexover")
    for state in hexover_positions(8, 2):
        moves = tried(state)
        legal = list(state.legal_moves)
        assert moves and all(move in legal for move in moves)
        if winning_drops(state, state.mover):
            assert len(moves) == 1 and state.t.index[moves[0].cell] in winning_drops(state, state.mover)
            continue
        handing = set()
        for move in legal:
            state.push(move)
            if not state.is_terminal() and winning_drops(state, state.mover):
                handing.add(move)
            state.pop()
        assert set(moves) == (set(legal) - handing or set(legal)), state.position()


def test_hexover_playouts_take_a_win_at_once_and_otherwise_play_legal_moves():
    pick, rng = playout_move("hexover"), random.Random(3)
    for state in hexover_positions(20, 4):
        move = pick(state, rng)
        assert move in state.legal_moves
        wins = winning_drops(state, state.mover)
        if wins:
            assert not isinstance(move, Pass) and state.t.index[move.cell] in wins


def overpass_decisions(count: int, seed: int):
    """Positions of random two-player Over-Pass where a player has many moves to choose from."""
    rng, state, found = random.Random(seed), new_game("overpass", players=2), []
    while len(found) < count and not state.is_terminal():
        if state.phase == "move" and len(list(state.legal_moves)) > OVERPASS + 1:
            found.append(state.clone())
        state.push(state.random_move(rng))
    return found


def test_overpass_candidates_are_a_few_legal_moves_with_every_exit_and_the_end_of_the_turn():
    tried = candidates("overpass")
    for state in overpass_decisions(12, 5):
        legal = list(state.legal_moves)
        moves = tried(state)
        assert len(set(moves)) == len(moves) and set(moves) <= set(legal)
        board_moves = [m for m in moves if str(m) not in ("end", "return")]
        assert len(board_moves) == OVERPASS
        assert {str(m) for m in legal if str(m) in ("end", "return")} <= {str(m) for m in moves}
        exits = [m for m in legal if str(m).startswith("X ")]
        assert set(exits) <= set(moves) or len(exits) > OVERPASS


def test_overpass_evaluation_rewards_a_piece_nearer_an_exit_point():
    state = new_game("overpass", players=2)
    steps = overpass_steps(state.game.board_name)
    position = state.position()
    black = [point for point, colour in position["board"].items() if colour == "black"][0]
    nearer = next(point for point, n in steps.items() if n < steps[black] and point not in position["board"])
    before = evaluate(state)
    moved = dict(position, board={**{p: c for p, c in position["board"].items() if p != black}, nearer: "black"})
    after = evaluate(state.game.state_from_position(moved))
    assert after[0] > before[0] and after[1] < before[1]
    assert all(-1 < v < 1 for v in after)


def test_square_off_playouts_play_legal_moves_and_mostly_form_a_row_where_one_can():
    pick, rng = playout_move("squareoff"), random.Random(6)
    could = formed = 0
    for _ in range(6):
        state = new_game("squareoff")
        while not state.is_terminal():
            move = pick(state, rng)
            assert move in state.legal_moves
            if not state.captures:
                player = state.current_player
                forming = set()
                for legal in state.legal_moves:
                    state.push(legal)
                    if state.captures and state.captures[0] == player:
                        forming.add(legal)
                    state.pop()
                could += bool(forming)
                formed += move in forming
            state.push(move)
    assert could > 20 and formed / could > 0.7
