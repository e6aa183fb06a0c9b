"""``gameboard games``: the games this installation plays, with their options (for ``[game]`` in the config) and
the notation of their moves (the journal's and remote play's)."""

from __future__ import annotations

import argparse
import json
import random
import re

from engine.catalogue import describe_games
from engine.core import Game
from engine.registry import available_games

#: The examples of a game's moves come from one game played at random (seeded): the legal moves of its first
#: ``LEGAL_PLIES`` plies (every kind of Over-Pass's opening), then the moves played up to ``PLAYED_PLIES``
#: (Pawns Crossing's tokens move and are declared late).  Every game's examples take 0.2-0.3 s on the 2-core
#: test machine, most of it listing Over-Pass's legal moves.
LEGAL_PLIES = 40
PLAYED_PLIES = 600
EXAMPLE_SEED = 0


def register(subparsers: argparse._SubParsersAction) -> None:
    games = subparsers.add_parser("games", help="list the games, their options and how their moves are written",
                                  description="The games and their options, as [game] name and options take them, "
                                              "and an example of each kind of move in the games' notation.")
    games.add_argument("--json", action="store_true", help="print JSON")
    games.set_defaults(handler=list_games)


def move_examples(game: Game) -> list[dict[str, str]]:
    """An example of each kind of move met in a game played at random (``LEGAL_PLIES``, ``PLAYED_PLIES``): its
    notation (``str(move)``, what ``parse_move`` reads, the journal keeps and remote play sends), its kind and
    what it means (the first sentence of the kind's docstring).  A kind that is rare in play may be missing."""
    state, rng = game.new_initial_state(), random.Random(EXAMPLE_SEED)
    examples: dict[type, str] = {}
    for ply in range(PLAYED_PLIES):
        if state.is_terminal():
            break
        if ply < LEGAL_PLIES:
            for move in state.legal_moves:
                examples.setdefault(type(move), str(move))
        move = state.random_move(rng)
        examples.setdefault(type(move), str(move))
        state.push(move)
    return [{"move": text, "kind": kind.__name__, "means": _meaning(kind)} for kind, text in examples.items()]


def _meaning(kind: type) -> str:
    """The first sentence of a docstring, on one line, quoted as in Markdown."""
    paragraph = " ".join((kind.__doc__ or "").strip().split("\n\n")[0].split())
    sentence = re.split(r"(?<=\.)\s", paragraph, maxsplit=1)[0]
    return sentence.replace("``", "`").rstrip(".")


def list_games(args: argparse.Namespace) -> int:
    games = available_games()
    if args.json:
        print(json.dumps({name: {**about, "moves": move_examples(games[name]())}
                          for name, about in describe_games().items()}, indent=2))
        return 0
    for name, cls in games.items():
        print(f"{name}: {cls.title} (board {cls.board_name})")
        for key, option in cls.options_spec.items():
            takes = f"; {option.takes(json.dumps)}" if option.choices else ""
            default = "a fresh one each game" if key == cls.deal_option else json.dumps(option.default)
            print(f"    {key} = {default}{takes}\n        {option.help}")
        examples = move_examples(cls())
        width = max(len(example["move"]) for example in examples)
        print("    moves, as the journal and remote play write them (from a game played at random):")
        for example in examples:
            print(f"        {example['move']:<{width}}  {example['means']}")
    return 0
