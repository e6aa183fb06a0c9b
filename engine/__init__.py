"""The rules of the games: boards, states, moves and footprints. No hardware, no I/O."""

from engine.core import (CHANCE, TERMINAL, Change, Content, EngineError, Footprint, Game,
                         IllegalMoveError, Move, OptionError, Outcome, PositionError, State)
from engine.registry import available_games, game_class, new_game, state_from_json

__all__ = [
    "CHANCE", "TERMINAL", "Change", "Content", "EngineError", "Footprint", "Game", "IllegalMoveError",
    "Move", "OptionError", "Outcome", "PositionError", "State", "available_games", "game_class",
    "new_game", "state_from_json",
]
