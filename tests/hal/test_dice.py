"""Dice rolled by the daemon or entered by the players."""

from __future__ import annotations

from collections import Counter

import pytest

from hal.dice import DiceEntryError, EnteredDice, RandomDice

OUTCOMES = [("roll 1", 0.5), ("roll 2", 0.5), ("roll 3", 0.0)]


def test_random_dice_follow_the_probabilities_and_repeat_from_the_seed():
    rolls = [RandomDice(seed=4).roll(OUTCOMES) for _ in range(3)]
    assert len(set(rolls)) == 1  # the same seed rolls the same first outcome
    dice = RandomDice(seed=4)
    counts = Counter(dice.roll(OUTCOMES) for _ in range(2000))
    assert counts["roll 3"] == 0
    assert 800 < counts["roll 1"] < 1200 and counts["roll 1"] + counts["roll 2"] == 2000


def test_random_dice_need_outcomes():
    with pytest.raises(DiceEntryError, match="at least one outcome"):
        RandomDice().roll([])


def test_entered_dice_wait_for_the_players_then_take_entries_in_order():
    dice = EnteredDice()
    assert dice.roll(OUTCOMES) is None
    dice.enter(" roll 2 ")
    dice.enter("roll 1")
    assert dice.roll(OUTCOMES) == "roll 2"
    assert dice.roll(OUTCOMES) == "roll 1"
    assert dice.roll(OUTCOMES) is None


def test_an_entry_that_is_not_on_offer_is_refused_with_the_choices():
    dice = EnteredDice()
    dice.enter("roll 7")
    with pytest.raises(
        DiceEntryError, match="'roll 7' is not a roll on offer here; enter one of: roll 1, roll 2, roll 3"
    ):
        dice.roll(OUTCOMES)
    assert dice.roll(OUTCOMES) is None
