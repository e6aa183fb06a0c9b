"""``gameboard games``: the games this installation plays, with their options (for ``[game]`` in the config)."""

from __future__ import annotations

import argparse
import json

from engine.registry import available_games


def register(subparsers: argparse._SubParsersAction) -> None:
    games = subparsers.add_parser("games", help="list the games and their options",
                                  description="The games and their options, as [game] name and options take them.")
    games.add_argument("--json", action="store_true", help="print JSON")
    games.set_defaults(handler=list_games)


def describe() -> dict[str, dict]:
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


def list_games(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps(describe(), indent=2))
        return 0
    for name, cls in available_games().items():
        print(f"{name}: {cls.title} (board {cls.board_name})")
        for key, option in cls.options_spec.items():
            takes = f"; {option.takes(json.dumps)}" if option.choices else ""
            print(f"    {key} = {json.dumps(option.default)}{takes}\n        {option.help}")
    return 0
