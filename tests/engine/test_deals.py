"""engine.deals: a game with a random set-up is dealt from a fresh seed unless one is asked for."""

from __future__ import annotations

import random

from engine.deals import deals_afresh, fresh_deal, match_deal, same_game
from engine.registry import GAMES, game_class


def test_only_a_game_with_a_random_set_up_and_no_seed_asked_is_dealt_afresh():
    assert {name for name in GAMES if game_class(name).deal_option} == {"pawns-crossing"}
    pawns = game_class("pawns-crossing")
    assert deals_afresh(pawns(players=3)) and not deals_afresh(pawns(seed=0))
    hexover = game_class("hexover")()
    assert fresh_deal(hexover) is hexover
    dealt = fresh_deal(pawns(players=3, fair_colours=False))
    assert dealt.options["players"] == 3 and not deals_afresh(dealt), "the options asked kept, the seed now asked"
    assert fresh_deal(pawns(players=3)).options["seed"] != dealt.options["seed"]
    assert fresh_deal(pawns(), random.Random(1)).options == fresh_deal(pawns(), random.Random(1)).options


def test_a_game_dealt_afresh_is_the_game_asked_whatever_its_seed():
    pawns = game_class("pawns-crossing")
    assert same_game(pawns(), fresh_deal(pawns())) and same_game(pawns(), pawns(seed=0))
    assert not same_game(pawns(seed=4), pawns(seed=5)) and not same_game(pawns(), pawns(players=3))
    assert not same_game(pawns(), game_class("hexover")())


def test_a_match_deals_each_game_from_its_seed_and_number():
    pawns = game_class("pawns-crossing")()
    assert match_deal(pawns, 1, 0).options == match_deal(pawns, 1, 0).options
    assert len({match_deal(pawns, 1, number).options["seed"] for number in range(20)}) == 20
    assert match_deal(pawns, 2, 0).options != match_deal(pawns, 1, 0).options
    assert match_deal(game_class("pawns-crossing")(seed=9), 1, 0).options["seed"] == 9
