"""The canonical public position and the chained hash, as docs/protocol.md defines them: its examples are read
from the page and the engine must produce exactly them, so a change of the engine cannot silently change the
hashes every other client computes."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path

import pytest

from engine.core import EngineError
from engine.hidden import PUBLIC, deal_unseen, seen_by
from engine.public import public_text
from engine.public import VERSION as ENCODING_VERSION
from engine.registry import GAMES, game_class
from firmware_host.remote.moves import Chain
from firmware_host.remote.protocol import VERSION, chained_hash, position_hash

PAGE = Path(__file__).parents[2] / "docs" / "protocol.md"
EXAMPLE = re.compile(r"^### (?P<title>[^\n]+)\n\n```json\n(?P<data>.*?)\n```\n\n```text\n(?P<text>.*?)```$", re.M | re.S)


def examples() -> list[tuple[str, dict, str]]:
    _, section = PAGE.read_text(encoding="utf-8").split("\n## Examples\n")
    found = [(match["title"], json.loads(match["data"]), match["text"]) for match in EXAMPLE.finditer(section)]
    assert len(found) == section.count("\n### "), "an example of docs/protocol.md is not a json block and a text block"
    return found


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


EXAMPLES = examples()


@pytest.mark.parametrize(("title", "example", "text"), EXAMPLES, ids=[title for title, _, _ in EXAMPLES])
def test_the_engine_produces_each_example_of_the_page(title: str, example: dict, text: str) -> None:
    state = game_class(example["game"])(**example["options"]).new_initial_state()
    for move in example["moves"]:
        state.apply(move)
    assert public_text(state) == text, title
    assert position_hash(state) == example["position"] == sha(text)  # the hash of the text as the page shows it
    assert Chain(state).hashes == [example["setup"], *example["chain"]]
    *_, before, last = [example["setup"], *example["chain"]]
    plies = len(example["moves"])
    assert sha(f"{before}\n{plies}\n{example['moves'][-1]}\n{sha(text)}") == last == \
        chained_hash(before, plies, example["moves"][-1], example["position"])


def test_every_game_has_an_example_and_the_page_walks_through_a_chained_hash() -> None:
    assert {example["game"] for _, example, _ in EXAMPLES} == set(GAMES)
    head = PAGE.read_text(encoding="utf-8").split("\n## Examples\n")[0]
    start = game_class("hexover")().new_initial_state()
    assert f"```text\n{public_text(start)}```" in head and f"is\n`{position_hash(start)}`" in head
    start.apply("h11")
    move_1 = chained_hash(position_hash(game_class("hexover")().new_initial_state()), 1, "h11", position_hash(start))
    assert f"`{position_hash(start)}`" in head and f"cut to `{move_1}`" in head


def test_the_text_is_of_what_everyone_sees_and_tied_to_the_protocol_version() -> None:
    assert ENCODING_VERSION == VERSION
    game = game_class("pawns-crossing")()
    mine = game.new_initial_state()
    theirs = game.state_from_position(deal_unseen(mine, seen_by(mine, PUBLIC), random.Random(7)))
    assert theirs.values != mine.values and public_text(theirs) == public_text(mine)
    assert public_text(mine).startswith(f"gameboard-position {VERSION} pawns-crossing\n")


def test_the_text_loses_nothing_of_the_public_position() -> None:
    """Over random games of every game, two positions with the same text are the same public position."""
    for name in GAMES:
        game, seen = game_class(name)(), {}
        for seed in range(3):
            state, rng = game.new_initial_state(), random.Random(seed)
            for _ in range(60):
                public = (json.dumps(seen_by(state, PUBLIC), sort_keys=True), state.current_player)
                assert seen.setdefault(public_text(state), public) == public, name
                if state.is_terminal():
                    break
                state.push(state.random_move(rng))


def test_a_position_field_the_encoding_does_not_name_is_refused() -> None:
    state = game_class("hexover")().new_initial_state()
    engine_position = state.position
    state.position = lambda: {**engine_position(), "ko": "h3"}  # an engine change: a new field
    with pytest.raises(EngineError, match="hexover: the public position's fields ko have no canonical encoding"):
        public_text(state)
