"""Game records: every game round-trips (random playout -> record -> text -> parse -> replay gives the same
state), a bad record is refused naming its line, an illegal move by its number, and docs/records.md's
examples replay."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine import available_games, new_game
from engine.record import (RecordError, Stepper, parse_record, record_game, replay, result_words, write_record)

GAMES = available_games()
#: Plies of each random playout: enough to reach dice, captures and set-up stages, short enough to stay lean.
PLIES = 160
DOCS = Path(__file__).parents[2] / "docs" / "records.md"


def playout(name: str, seed: int, plies: int = PLIES):
    rng = random.Random(f"{name}:{seed}")
    state = GAMES[name]().new_initial_state()
    while not state.is_terminal() and len(state.history) < plies:
        state.push(state.random_move(rng))
    return state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_random_game_round_trips_through_its_record(name: str) -> None:
    for seed in range(2):
        state = playout(name, seed)
        start = GAMES[name]().new_initial_state()
        record = record_game(start, state.history, seats=["human"] * start.game.num_players, date=1.8e9)
        text = write_record(record)
        read = parse_record(text)
        assert read == record and write_record(read) == text
        replayed = replay(read)
        assert replayed.position() == state.position()
        assert [str(move) for move in replayed.history] == [str(move) for move in state.history]
        assert read.result == result_words(state)


def test_the_header_says_game_options_seats_result_and_date() -> None:
    state = new_game("hexover")
    start = state.clone()
    for text in ("h8", "h9", "h10"):
        state.apply(text)
    text = write_record(record_game(start, state.history, seats=["human", "computer:hard"], date=0))
    assert text == ('[Game "hexover"]\n[Options ""]\n[Seats "human computer:hard"]\n[Result "*"]\n'
                    '[Date "1970-01-01T00:00:00Z"]\n\n1. h8\n2. h9\n3. h10\n')


def test_a_game_started_from_a_position_keeps_it_in_setup() -> None:
    state = playout("squareoff", 7, plies=12)
    start = state.clone()
    state.apply(str(next(iter(state.legal_moves))))
    record = record_game(start, state.history[-1:], date=None)
    assert record.setup == start.position()
    assert '[Setup "{' in write_record(record)
    assert replay(parse_record(write_record(record))).position() == state.position()


def test_options_with_every_kind_of_value_read_back() -> None:
    state = GAMES["pawns-crossing"](players=3, seed=12345, fair_colours=False).new_initial_state()
    text = write_record(record_game(state, []))
    assert '[Options "players=3 seed=12345 fair_colours=false"]' in text
    assert parse_record(text).options == {"players": 3, "seed": 12345, "fair_colours": False}


def test_an_illegal_move_is_refused_with_its_number_its_line_and_what_was_legal() -> None:
    text = '[Game "squareoff"]\n\n1. p1\n2. p1\n'
    with pytest.raises(RecordError, match=r"^line 4: move 2 \(p1\) is refused: 'p1' is not a legal move here; "
                                          r"legal: p2, p3, "):
        replay(parse_record(text))


@pytest.mark.parametrize(("text", "message"), [
    ('[Game "squareoff"]\n1. p1\n[Date "?"]\n', r"^line 3: a tag after the moves"),
    ('[Game squareoff]\n', r'^line 1: a tag is written \[Name "value"\]'),
    ('[Game "chess"]\n', r"^line 1: \[Game\]: unknown game 'chess'; games: overpass, "),
    ('1. p1\n', r'^no \[Game "NAME"\] tag: a record starts with its game'),
    ('[Game "squareoff"]\n[Game "hexover"]\n', r"^line 2: a second \[Game\] tag \(the first on line 1\)"),
    ('[Game "squareoff"]\n\n1. p1\n3. p2\n', r"^line 4: move number 3 where 2 comes next"),
    ('[Game "squareoff"]\n\np1\n', r"^line 3: 'p1' is neither a tag nor a move; .* 1\. MOVE$"),
    ('[Game "squareoff"]\n[Options "variant"]\n', r"^line 2: \[Options\]: 'variant': write KEY=VALUE pairs"),
    ('[Game "squareoff"]\n[Setup "[1]"]\n', r"^line 2: \[Setup\]: a position is a JSON object"),
])
def test_a_badly_written_record_is_refused_naming_the_line(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_record(text)


def test_options_the_game_does_not_take_are_refused_on_the_options_line() -> None:
    record = parse_record('[Game "squareoff"]\n[Options "variant=chess"]\n')
    with pytest.raises(RecordError, match=r"^line 2: \[Options\]: squareoff: option variant='chess' is not one of"):
        replay(record)


def test_a_result_the_moves_do_not_reach_is_refused() -> None:
    text = '[Game "hexover"]\n[Result "black wins: black completed a winning path"]\n\n1. h8\n'
    with pytest.raises(RecordError, match=r"^line 2: \[Result\]: the record says .* but its moves end in '\*'"):
        replay(parse_record(text))


def test_comments_and_blank_lines_are_skipped() -> None:
    record = parse_record('; exported by hand\n[Game "hexover"]\n\n1. h8\n; a fine move\n\n2. h9\n')
    assert record.moves == ("h8", "h9") and record.lines == (4, 7)


def test_the_stepper_shows_each_position_and_the_move_that_made_it() -> None:
    state = playout("overpass", 3, plies=60)
    stepper = Stepper(replay(parse_record(write_record(record_game(new_game("overpass"), state.history)))))
    positions = [new_game("overpass")]
    for move in state.history:
        positions.append(positions[-1].clone())
        positions[-1].push(move)
    for ply in (0, 60, 17, 18, 5, 59, 1):
        shown = stepper.go(ply)
        assert shown.contents == positions[ply].contents() and shown.ply == ply and shown.plies == 60
        if ply:
            move = state.history[ply - 1]
            assert shown.move == str(move)
            assert set(positions[ply - 1].footprint(move).locations) <= set(shown.places)
    assert stepper.go(99).ply == 60 and stepper.go(-3).ply == 0


def test_every_example_in_the_docs_replays() -> None:
    examples = re.findall(r"```text\n(\[Game .*?)```", DOCS.read_text(), re.S)
    games = {parse_record(example).game for example in examples}
    assert games == set(GAMES), f"docs/records.md lacks an example of {sorted(set(GAMES) - games)}"
    for example in examples:
        record = parse_record(example)
        replay(record)
        assert write_record(record) == example, "an example is written as `gameboard record export` writes it"
