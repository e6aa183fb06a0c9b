"""The games at a glance, JSON-ready: what ``gameboard games --json`` prints and the simulator's new-game form offers."""

from __future__ import annotations

from engine.registry import available_games


def describe_games() -> dict[str, dict]:
    """Each game's title, board, and options (default, the values it takes, what it means)."""
    return {
        name: {
            "title": cls.title,
            "board": cls.board_name,
            "options": {key: {"default": option.default, "choices": list(option.choices), "help": option.help}
                        for key, option in cls.options_spec.items()},
        }
        for name, cls in available_games().items()
    }
