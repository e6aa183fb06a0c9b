"""The long games' last plies, as test data: where a seeded game of random moves stands 150 plies from its end.

Over-Pass, Groups-of-Three and Pawns Crossing played at random last thousands of plies, too
long for every test run; their fault tests start from such a position and play to the end
exactly as the whole game would (``board_target.py`` draws each move from the seed and the
game's ply).  ``python tests/remote/late_positions.py`` writes ``tests/data/remote_late.json``
again (after a rules change makes the old positions fail).
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

from engine.registry import game_class

DATA = Path(__file__).parents[1] / "data" / "remote_late.json"
GAMES = {"overpass": {"players": 2}, "groups-of-three": {}, "pawns-crossing": {}}
SEED = 0
BEFORE_END = 150


def pick_module():
    spec = importlib.util.spec_from_file_location("late_hands", Path(__file__).parents[1] / "daemon" / "hands.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.pick


def late_position(name: str, options: dict, seed: int = SEED) -> dict:
    """The game played with ``pick`` from ``seed`` and each ply to its end, kept ``BEFORE_END`` plies before it."""
    pick = pick_module()
    state = game_class(name)(**options).new_initial_state()
    while not state.is_terminal():
        state.push(pick(state, random.Random(f"{seed}:{len(state.history)}")))
    end = len(state.history)
    for _ in range(BEFORE_END):
        state.pop()
    return {"seed": seed, "offset": end - BEFORE_END, "end": end, "setup": state.to_json()}


if __name__ == "__main__":
    DATA.write_text(json.dumps({name: late_position(name, options) for name, options in GAMES.items()},
                               sort_keys=True, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {DATA}")
