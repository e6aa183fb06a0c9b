"""Pawns Crossing set-up: the seeded deal is reproducible and uses the kit exactly."""

from __future__ import annotations

import random

import pytest

from engine import OptionError, new_game
from engine.boards import load_board
from engine.games.pawns_setup import colour_distances, deal, fair_seats, start_order

BOARD = load_board("pawns")


class ScriptedDice(random.Random):
    """Dice that roll the given faces in order (for the starting-roll ties)."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def choice(self, seq):
        return self.faces.pop(0)


def test_the_same_seed_gives_the_same_layout():
    assert deal(BOARD, 2, 42) == deal(BOARD, 2, 42)
    assert new_game("pawns-crossing", seed=42).position() == new_game("pawns-crossing", seed=42).position()


def test_different_seeds_give_different_layouts():
    layouts = {tuple(deal(BOARD, 2, seed).tiles.values()) for seed in range(20)}
    assert len(layouts) == 20


@pytest.mark.parametrize("seed", range(5))
def test_the_deal_uses_every_tile_once_and_every_domino_but_the_big_sixes_once(seed):
    layout = deal(BOARD, 4, seed)
    assert sorted(layout.tiles.values()) == sorted(BOARD.equipment.tiles)
    used = sorted(tuple(sorted(d)) for d in [*layout.dominoes.values(), layout.pusher])
    assert used == sorted(BOARD.equipment.dominoes)
    assert set(layout.dominoes) == set(BOARD.slots) and layout.pusher_at is None


@pytest.mark.parametrize("players, per_colour, colours, values", [
    (2, 3, {"red", "black", "blue", "green"}, [2, 3, 4]),
    (3, 4, {"red", "green", "blue"}, [0, 2, 3, 4]),
    (4, 4, {"red", "black", "blue", "green"}, [0, 2, 3, 4]),
])
def test_tokens_start_on_the_ace_of_their_colour(players, per_colour, colours, values):
    layout = deal(BOARD, players, 7)
    by_colour: dict[str, list[int]] = {}
    for token, value in layout.values.items():
        colour = token.rsplit("-", 1)[0]
        by_colour.setdefault(colour, []).append(value)
        assert layout.tiles[layout.where[token]] == (colour, 1)
    assert set(by_colour) == colours
    assert all(sorted(v) == values and len(v) == per_colour for v in by_colour.values())


def test_three_players_leave_the_black_ace_empty():
    state = new_game("pawns-crossing", players=3, seed=3)
    black_ace = next(p for p, t in state.tile_at.items() if t == ("black", 1))
    assert state.contents()[black_ace] is None and "black" not in state.pawns


def test_token_names_do_not_give_their_values_away():
    firsts = {deal(BOARD, 2, seed).values["red-a"] for seed in range(30)}
    assert firsts == {2, 3, 4}


def test_starting_ties_are_rolled_again_among_the_tied_players():
    # Players 0-3 roll 4, 5, 5, 2: players 1 and 2 roll again (3, then 1).
    assert start_order(ScriptedDice([4, 5, 5, 2, 3, 1]), 4, (0, 1, 2, 3, 4, 5)) == (1, 2, 0, 3)


def test_two_players_sum_their_two_dice_for_the_start():
    # Player 0 rolls 5 + 0, player 1 rolls 1 + 1.
    assert start_order(ScriptedDice([5, 0, 1, 1]), 2, (0, 1, 2, 3, 4, 5)) == (0, 1)


def test_fair_colours_give_one_player_the_longest_and_shortest_totals():
    for seed in range(10):
        layout = deal(BOARD, 2, seed, fair_colours=True)
        totals = colour_distances(BOARD, layout.tiles)
        first, second = layout.seats
        ranked = sorted(totals, key=lambda c: (totals[c], list(BOARD.equipment.suits).index(c)))
        assert set(first) == {ranked[0], ranked[-1]} and set(second) == {ranked[1], ranked[2]}
        assert layout.seats == fair_seats(BOARD, layout.tiles)


def test_colour_distances_count_tiles_away_ignoring_dominoes():
    tiles = dict(deal(BOARD, 2, 0).tiles)
    for place, tile in (("t1.1", ("red", 1)), ("t1.2", ("red", 2)), ("t2.2", ("red", 3)), ("t4.4", ("red", 4))):
        other = next(p for p, t in tiles.items() if t == tile)
        tiles[other], tiles[place] = tiles[place], tile
    assert colour_distances(BOARD, tiles)["red"] == 1 + 2 + 6


@pytest.mark.parametrize("options, message", [
    ({"players": 3, "fair_colours": True}, "2-player option"),
    ({"seed": "abc"}, "seed='abc' is of the wrong kind: its default is 0"),
    ({"players": 2.0}, "players=2.0 is of the wrong kind"),  # once a TypeError deep in the set-up
    ({"fair_colours": 1}, "fair_colours=1 is of the wrong kind"),
    ({"players": 5}, "is not one of"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(OptionError, match=message):
        new_game("pawns-crossing", **options)
