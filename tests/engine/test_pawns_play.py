"""Pawns Crossing in play: random-play invariants, JSON positions and seeded golden games.

Golden games are whole games played by a seeded policy and stored as move texts with
the dealt layout and the final position.  After a deliberate rule change, rewrite them
with ``PAWNS_WRITE_GOLDEN=1 pytest tests/engine/test_pawns_play.py`` and review the diff.
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections import Counter
from pathlib import Path

import pytest

from engine import Footprint, PositionError, new_game, state_from_json
from engine.boards import load_board
from engine.games.pawns_crossing import PawnsCrossing
from engine.games.pawns_moves import Declare, TokenMove

BOARD = load_board("pawns")
GOLDEN = Path(__file__).parents[1] / "data" / "pawns_crossing"
GOLDEN_GAMES = [
    {"players": 2, "seed": 1, "fair_colours": True},
    {"players": 3, "seed": 2, "fair_colours": False},
    {"players": 4, "seed": 3, "fair_colours": False},
]


def choose(state, rng: random.Random):
    """A seeded player that knows its own token values: it declares only true arrivals and
    takes a token onto a tile it can declare when it can; otherwise it plays at random."""
    if state.is_chance_node():
        outcomes, weights = zip(*state.chance_outcomes())
        return rng.choices(outcomes, weights)[0]
    moves = list(state.legal_moves)

    def home(token: str, place: str) -> bool:
        colour, rank = state.tile_at.get(place, ("", 0))
        return colour == state.colour_of[token] and state.values[token] in (0, rank)

    for move in moves:
        if isinstance(move, Declare) and home(move.token, move.tile):
            return move
    homing = [m for m in moves if isinstance(m, TokenMove) and home(m.token, m.target)]
    others = [m for m in moves if not isinstance(m, Declare)]
    return homing[0] if homing else rng.choice(others or moves)


def kit(state) -> tuple[Counter, Counter]:
    dominoes = Counter(tuple(sorted(d)) for d in [*state.domino_at.values(), state.pusher])
    return Counter(state.tile_at.values()), dominoes


@pytest.mark.parametrize("players, seed", [(2, 21), (3, 22), (4, 23)])
def test_random_play_keeps_footprints_positions_and_the_kit(players, seed):
    rng = random.Random(seed)
    state = new_game("pawns-crossing", players=players, seed=seed)
    start_kit = kit(state)
    for _ in range(250):
        if state.is_terminal():
            break
        position, before = state.position(), state.contents()
        for move in state.legal_moves:
            footprint = state.footprint(move)
            state.push(move)
            assert footprint == Footprint.between(before, state.contents()), f"footprint of {move}"
            if isinstance(move, TokenMove):
                assert [c.location for c in footprint.changes] in ([move.origin, move.target],
                                                                   [move.target, move.origin])
            state.pop()
            assert state.position() == position, f"pop after {move}"
        shown = state.contents()
        for place in BOARD.half_slot:
            assert "+" not in (shown[place] or ""), "a half-domino holds one token at most"
            if place in BOARD.pusher_halves and BOARD.half_slot[place][0] != state.pusher_at:
                assert shown[place] is None
        assert not any(ch.isdigit() for v in shown.values() if v for ch in v), "values stay hidden"
        assert kit(state) == start_kit
        assert state_from_json(json.loads(json.dumps(state.to_json()))).position() == position
        state.push(choose(state, rng))


def golden_path(options: dict) -> Path:
    fair = "-fair" if options["fair_colours"] else ""
    return GOLDEN / f"golden-{options['players']}p-seed{options['seed']}{fair}.json"


def play_golden(options: dict) -> dict:
    state = new_game("pawns-crossing", **options)
    rng = random.Random(options["seed"])
    layout, moves = state.layout(), []
    while not state.is_terminal():
        moves.append(str(state.apply(choose(state, rng))))
    return {"options": options, "layout": layout, "moves": moves, "winner": state.outcome().winner,
            "final": state.position()}


@pytest.mark.parametrize("options", GOLDEN_GAMES, ids=lambda o: golden_path(o).stem)
def test_seeded_golden_games_replay_exactly(options):
    path = golden_path(options)
    if os.environ.get("PAWNS_WRITE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(play_golden(options), indent=1) + "\n")
    record = json.loads(path.read_text())
    state = new_game("pawns-crossing", **record["options"])
    assert state.layout() == record["layout"], "the seeded layout changed"
    for text in record["moves"]:
        state.apply(text)
    assert state.is_terminal() and state.outcome().winner == record["winner"]
    assert state.position() == record["final"]


def broken(change) -> dict:
    pos = copy.deepcopy(new_game("pawns-crossing", seed=8).position())
    change(pos)
    return pos


def first_two_tiles_same(pos):
    pos["tiles"]["t1.1"] = pos["tiles"]["t1.2"]


def two_tokens_on_one_half(pos):
    pos["tokens"]["red-a"]["at"] = pos["tokens"]["blue-a"]["at"] = "d2.2e-n"


def domino_swapped_for_a_big_six(pos):
    pos["dominoes"]["d1.1e"] = [6, 6]


@pytest.mark.parametrize("change, message", [
    (lambda p: p.pop("tiles"), '"tiles" must be an object'),
    (first_two_tiles_same, "each of the tiles"),
    (domino_swapped_for_a_big_six, "domino set"),
    (lambda p: p["dominoes"].pop("d1.1e"), "fill exactly the slots"),
    (lambda p: p["pusher"].update(at="push-x9"), "not a pusher place"),
    (lambda p: p["tokens"]["red-a"].update(at="push-w1-n"), "active half-domino"),
    (two_tokens_on_one_half, "share a half-domino"),
    (lambda p: p["tokens"]["red-a"].update(value=7), "must hold the values"),
    (lambda p: p["tokens"].update({"red-z": {"value": 2, "at": None}}), "unknown token"),
    (lambda p: p["pawns"].update(red="h1.1", blue="h1.1"), "share a hole"),
    (lambda p: p["pawns"].update(red="h9.9"), "a hole"),
    (lambda p: p.update(seats=[["red", "blue"], ["black", "green"], ["x"]]), "seats"),
    (lambda p: p.update(seats=[["red", "blue", "black"], ["green"]]), "2 of the colours"),
    (lambda p: p["tokens"]["red-a"].update(at=["t1.1"]), "active half-domino"),
    (lambda p: p["tokens"]["red-a"].pop("at"), "active half-domino"),
    (lambda p: p.update(order=[0, 0]), "order"),
    (lambda p: p["turn"].update(phase="bidding"), "turn phase"),
    (lambda p: p["turn"].update(phase="tokens", player=0, dice={"blue": 3}), "turn dice"),
    (lambda p: p["turn"].update(last_slide="slide row9 east"), "last_slide"),
    (lambda p: p["turn"].update(phase="over", winner=0), "game is over"),
    (lambda p: p.pop("turn"), '"turn" must be an object'),
    (lambda p: p["turn"].update(moves=1), '"turn": unknown key \'moves\'; it takes phase, player, dice'),
    (lambda p: p["pusher"].update(place="push-w1"), '"pusher": unknown key \'place\'; it takes domino, at'),
    (lambda p: p["tokens"]["red-a"].update(colour="red"), "token red-a: unknown key 'colour'; it takes value, at"),
    (lambda p: p["tokens"]["red-a"].update(shown=1), "token red-a's \"shown\" must be true"),
    (lambda p: p["tokens"]["red-a"].update(shown=True, at=None), "back on the board"),
    (lambda p: p["turn"].update(player=1 - p["order"][0]), "the player to place"),
    (lambda p: p["turn"].update(phase="tokens", player=0, dice={}), "nothing is left to do"),
])
def test_a_position_that_breaks_the_rules_is_refused_with_the_reason(change, message):
    with pytest.raises(PositionError, match=message):
        PawnsCrossing(players=2).state_from_position(broken(change))
