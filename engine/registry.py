"""The games the engine knows, imported only when asked for."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from engine.core import EngineError, Game, State, refuse_unknown_keys

#: Game name -> "module:Class".  A game is added here and nowhere else.
GAMES: dict[str, str] = {
    "overpass": "engine.games.overpass:OverPass",
    "groups-of-three": "engine.games.groups_of_three:GroupsOfThree",
    "mono-line": "engine.games.mono_line:MonoLine",
    "full-house": "engine.games.full_house:FullHouse",
    "crooked-jumps": "engine.games.crooked_jumps:CrookedJumps",
    "overpass-spiral": "engine.games.overpass_spiral:OverPassSpiral",
    "squareoff": "engine.games.squareoff:SquareOff",
    "hexover": "engine.games.hexover:Hexover",
    "pawns-crossing": "engine.games.pawns_crossing:PawnsCrossing",
}

#: The keys of ``State.to_json()``.
SAVED_KEYS = ("game", "options", "position")


def available_games() -> dict[str, type[Game]]:
    """Every registered game whose module is present, by name."""
    found = {}
    for name in GAMES:
        try:
            found[name] = game_class(name)
        except ModuleNotFoundError:
            continue
    return found


def game_class(name: str) -> type[Game]:
    if name not in GAMES:
        raise EngineError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    module, cls = GAMES[name].split(":")
    return getattr(import_module(module), cls)


def new_game(name: str, **options: Any) -> State:
    """The initial state of the game ``name`` with the given options."""
    return game_class(name)(**options).new_initial_state()


def state_from_json(data: dict[str, Any]) -> State:
    """Rebuild a state from ``State.to_json()`` output, validating the position."""
    if not isinstance(data, dict) or "game" not in data:
        raise EngineError('a saved position must be an object with "game", "options" and "position"')
    refuse_unknown_keys(data, SAVED_KEYS, "saved position")
    game = game_class(data["game"])(**data.get("options", {}))
    return game.state_from_position(data.get("position", {}))
