"""A fresh deal for each new game whose set-up is random, unless a seed is asked for.

Pawns Crossing shuffles its tiles, dominoes and hidden values from an option (the game's
``deal_option``, its ``seed``).  The engine's default keeps tests and benches repeatable, but
a board, the simulator or the arena dealing from it would give every game the same layout
and values.  So they deal each new game from a fresh seed unless the options give one.  The
seed dealt becomes one of the game's options, which the journal keeps with the game's
set-up (``State.to_json``): the game resumes, replays and is salvaged as it was dealt.
"""

from __future__ import annotations

import random
import zlib
from typing import Any

from engine.core import Game

#: Seeds are drawn below this: whole numbers that JSON, TOML and the browser's page keep exactly.
SEEDS = 2**31


def deals_afresh(game: Game) -> bool:
    """Whether each new game of ``game`` is dealt from a fresh seed: its set-up is random and no seed was asked."""
    return game.deal_option is not None and game.deal_option not in game.asked


def fresh_deal(game: Game, rng: random.Random | None = None) -> Game:
    """``game`` dealt from a fresh seed drawn from ``rng`` (default: the operating system's random source) when
    it deals afresh (``deals_afresh``); otherwise ``game`` itself."""
    key = game.deal_option
    if key is None or key in game.asked:
        return game
    asked = {name: game.options[name] for name in game.asked}
    return type(game)(**asked, **{key: (rng or random.SystemRandom()).randrange(SEEDS)})


def same_game(asked: Game, played: Game) -> bool:
    """Whether ``played`` (a journal's unfinished game) is a game of ``asked``: the same game and options, any
    deal where ``asked`` deals afresh."""
    free = {asked.deal_option} if deals_afresh(asked) else set()
    return asked.name == played.name and all(
        played.options.get(key) == value for key, value in asked.options.items() if key not in free)


def match_deal(game: Game, seed: int, number: int) -> Game:
    """Game ``number`` of an arena match seeded ``seed``: dealt from both (unless a seed is asked for), so
    the games of a match differ and a match repeats from its seed."""
    return fresh_deal(game, random.Random(zlib.crc32(f"deal:{seed}:{number}".encode())))
