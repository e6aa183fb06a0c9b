"""Random playouts of every Square Off variant and of Hexover, checking rule invariants,
and golden playthroughs that catch any change of behaviour.

The golden files in tests/data/{squareoff,hexover}/ record, for a seeded random game,
the legal moves at every step, the move made and the final position.  After a rule
change that is meant, rewrite them with
``python tests/engine/test_squareoff_and_hexover_play.py --regold`` and review the diff.
"""

import json
import random
import sys
from pathlib import Path

import pytest

from engine import Footprint, game_class
from engine.boards import load_board
from engine.games.hexover import Drop, Pass
from engine.games.squareoff_moves import PIECES_EACH, Capture, Jump, Place, Slide, Trade

DATA = Path(__file__).parents[1] / "data"
PLAYOUTS = 6
MOVE_CAP = 400
GOLDEN_CAP = 150
SQUAREOFF_OPTIONS = [{"variant": v, "first_player": f} for v in ("classic", "jump-off", "trading-places")
                     for f in ("black", "white")]
#: (game, options, file, seed): the Hexover seed was picked for a game with a forced pass.
GOLDEN = [("squareoff", {"variant": v}, f"playthrough-{v}.json", v) for v in ("classic", "jump-off", "trading-places")]
GOLDEN.append(("hexover", {}, "playthrough-with-pass.json", "hexover-1418"))


def squareoff_rows() -> list[set[str]]:
    """Three-in-a-row sets straight from the board's lines, independent of the game's tables."""
    return [set(line.points[k:k + 3]) for line in load_board("squareoff").lines for k in range(len(line.points) - 2)]


def in_row(contents: dict, point: str, rows: list[set[str]]) -> bool:
    return any(point in row and all(contents[p] == contents[point] for p in row) for row in rows)


def check_squareoff_step(state, move, before: dict, after: dict, captured: dict, rows) -> None:
    variant = state.game.options["variant"]
    colour = state.turn_piece()
    hands = state.position()["in_hand"]
    if isinstance(move, Capture):
        victim = before[move.point]
        assert victim and victim != colour
        others = [p for p, c in before.items() if c == victim]
        assert not in_row(before, move.point, rows) or all(in_row(before, p, rows) for p in others)
        captured[victim] += 1
    elif isinstance(move, Place):
        assert hands[colour] > 0
    else:
        assert hands[colour] == 0, "stage 2 moves wait for an empty hand"
        if isinstance(move, Slide):
            assert move.target in load_board("squareoff").neighbours[move.origin]
        else:
            assert isinstance(move, Jump if variant == "jump-off" else Trade)
            assert variant != "classic"
    assert set(Footprint.between(before, after).changes) == set(state.footprint(move).changes)


def check_hexover_step(state, move, before: dict, after: dict) -> None:
    colour = state.turn_piece()
    if isinstance(move, Pass):
        assert before == after and not any(isinstance(m, Drop) for m in state.legal_moves)
        return
    flipped = [p for p in before if before[p] and before[p] != after[p]]
    assert before[move.cell] is None and after[move.cell] == colour and flipped
    assert all(before[p] != colour and after[p] == colour for p in flipped)
    assert sum(map(bool, after.values())) == sum(map(bool, before.values())) + 1
    assert set(Footprint.between(before, after).changes) == set(state.footprint(move).changes)


def check_squareoff_end(state, captured: dict) -> None:
    outcome = state.outcome()
    loser = 1 - outcome.winner
    colour = ("black", "white")[loser]
    assert captured[colour] >= PIECES_EACH - 2 or f"{colour} cannot move" == outcome.reason


def check_hexover_end(state) -> None:
    contents, outcome = state.contents(), state.outcome()
    complete = [path for path in load_board("hexover").paths if len({contents[c] for c in path}) == 1
                and contents[path[0]]]
    if complete:
        assert outcome.winner == ("white", "black").index(contents[complete[0][0]])
    else:
        assert outcome.reason.startswith("neither can move")


@pytest.mark.parametrize("name, options", [("squareoff", o) for o in SQUAREOFF_OPTIONS] + [("hexover", {})],
                         ids=lambda v: v if isinstance(v, str) else "-".join(v.values()) or "default")
def test_random_playouts_keep_the_rules(name, options):
    rng = random.Random(f"{name}{options}")
    game = game_class(name)(**options)
    rows = squareoff_rows()
    for _ in range(PLAYOUTS):
        state = game.new_initial_state()
        captured = {"black": 0, "white": 0}
        for _ in range(MOVE_CAP):
            if state.is_terminal():
                break
            move = rng.choice(list(state.legal_moves))
            before, position = state.contents(), state.position()
            state.push(move)
            after = state.contents()
            state.pop()
            assert state.position() == position
            if name == "squareoff":
                check_squareoff_step(state, move, before, after, captured, rows)
            else:
                check_hexover_step(state, move, before, after)
            state.push(move)
        if state.is_terminal():
            check_squareoff_end(state, captured) if name == "squareoff" else check_hexover_end(state)


def playthrough(name: str, options: dict, seed: str) -> dict:
    """A seeded random game: the legal moves at every step, the moves, the final position."""
    rng = random.Random(seed)
    state = game_class(name)(**options).new_initial_state()
    steps = []
    while not state.is_terminal() and len(steps) < GOLDEN_CAP:
        legal = sorted(str(m) for m in state.legal_moves)
        move = rng.choice(legal)
        steps.append({"legal": " ".join(legal), "move": move})
        state.apply(move)
    outcome = state.outcome()
    return {"game": name, "options": options, "seed": seed, "steps": steps, "final": state.position(),
            "outcome": outcome and {"winners": list(outcome.winners), "reason": outcome.reason}}


@pytest.mark.parametrize("name, options, filename, seed", GOLDEN, ids=[g[2] for g in GOLDEN])
def test_golden_playthrough(name, options, filename, seed):
    record = json.loads((DATA / name / filename).read_text())
    state = game_class(name)(**record["options"]).new_initial_state()
    for n, step in enumerate(record["steps"]):
        assert " ".join(sorted(str(m) for m in state.legal_moves)) == step["legal"], f"step {n}"
        state.apply(step["move"])
    assert state.position() == record["final"]
    outcome = state.outcome()
    assert (outcome and {"winners": list(outcome.winners), "reason": outcome.reason}) == record["outcome"]


def regold() -> None:
    for name, options, filename, seed in GOLDEN:
        record = playthrough(name, options, seed)
        (DATA / name / filename).write_text(json.dumps(record, indent=1) + "\n")
        print(f"wrote {DATA / name / filename}: {len(record['steps'])} steps")


if __name__ == "__main__" and sys.argv[1:] == ["--regold"]:
    regold()
