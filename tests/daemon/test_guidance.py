"""What the LEDs and the status ask of a person, game by game (issue 13).

At the start of a turn where a piece may come from the box, the places light; what a
move leaves to do (a capture to take off, a flip) blinks in its own colour until it is
done, or, where the sensors cannot see it, until confirm or the next move; a lifted
piece that cannot move says so at once; a piece put where no move ends is shown wrong,
with its fix, once the board holds still for the settle time.  Each position comes
from a seeded random game; what should light is worked out from the engine's
footprints, not from the tracker.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.core import Footprint, State, stack_pieces
from engine.registry import available_games, game_class
from firmware_host.presenter import PALETTE
from firmware_host.tracker import Status

SETTLE = 0.4  # tables.LOOP's settle time
BLINK = 0.2  # tables.LOOP's blink period


def position(name: str, wanted: Callable[[State], bool], seed: int = 0) -> State:
    """The first position of a seeded random game of ``name`` where the player to move has ``wanted``."""
    game = game_class(name)()
    for attempt in range(seed, seed + 20):
        rng = random.Random(attempt)
        state = game.new_initial_state()
        for _ in range(300):
            if state.is_terminal():
                break
            if not state.is_chance_node() and wanted(state):
                return state.clone()
            state.push(rng.choice(list(state.legal_moves)))
    raise AssertionError(f"no {name} position found")


def footprints(state: State) -> list[Footprint]:
    return [footprint for move in state.legal_moves if (footprint := state.footprint(move)).changes]


def placing(state: State) -> list:
    """The changes of the moves that put a new piece from the box and take none off (a drop may turn others
    over), where the new piece goes."""
    return [change for footprint in footprints(state)
            if all(change.after is not None and "+" not in (change.before or "") for change in footprint.changes)
            for change in footprint.changes if change.before is None]


def placements(state: State) -> set[str]:
    return {change.location for change in placing(state)}


def takeoffs(state: State) -> set[str]:
    """The pieces a move only takes off (a capture to choose)."""
    return {change.location for footprint in footprints(state)
            if all(change.after is None for change in footprint.changes) for change in footprint.changes}


def dead(state: State) -> list[str]:
    """The pieces no legal move touches."""
    touched = {location for footprint in footprints(state) for location in footprint.locations}
    return sorted(location for location, content in state.contents().items() if content and location not in touched)


def lit(mock, light: str) -> set[str]:
    """The locations the strips show in ``light``'s colour (brightness 1 and no budget in these tables)."""
    return {location for location in mock.wiring.channels.values()
            if mock.leds.location_colour(location) == PALETTE[light]}


def run(daemon, clock, seconds: float) -> None:
    for _ in range(round(seconds / 0.01)):
        clock.advance(0.01)
        daemon.step()


def run_to_blink(daemon, clock, on: bool) -> None:
    """Run until the blinking lights are in the phase asked for."""
    run(daemon, clock, 0.01)
    while (int(clock() / BLINK) % 2 == 0) != on:
        run(daemon, clock, 0.01)


PLACING = [name for name in available_games() if name not in ("crooked-jumps", "overpass-spiral")]


@pytest.mark.parametrize("name", PLACING)
def test_the_places_a_piece_from_the_box_may_go_light_while_the_board_waits(tmp_path, tables, name) -> None:
    state = position(name, lambda state: bool(placements(state)))
    daemon, mock, clock = tables.open_board(state, tmp_path / "j.sqlite3")
    run(daemon, clock, 0.1)
    assert lit(mock, "destination") == placements(state)
    pieces = " or ".join(sorted({change.after for change in placing(state)}))
    assert f"place a {pieces} piece on " in daemon.status_text()
    assert set(daemon.snapshot()["destinations"]) == placements(state)


@pytest.mark.parametrize("name", ["squareoff", "groups-of-three"])
def test_the_pieces_a_capture_may_take_light_orange(tmp_path, tables, name) -> None:
    state = position(name, lambda state: bool(takeoffs(state)))
    daemon, mock, clock = tables.open_board(state, tmp_path / "j.sqlite3")
    run(daemon, clock, 0.1)
    assert lit(mock, "removal") == takeoffs(state)
    assert "take off " in daemon.status_text() and "lit orange" in daemon.status_text()


@pytest.mark.parametrize("name", list(available_games()))
def test_a_lifted_piece_that_cannot_move_says_so_at_once(tmp_path, tables, name) -> None:
    state = position(name, lambda state: bool(dead(state)))
    stuck = dead(state)[0]
    daemon, mock, clock = tables.open_board(state, tmp_path / "j.sqlite3")
    piece = mock.lift(stuck)
    run(daemon, clock, 0.05)  # the debounce time, not the settle time
    assert lit(mock, "fix_to") == {stuck}
    assert daemon.status_text() == f"no legal move takes the piece lifted from {stuck}: put it back (pink)"
    mock.place(stuck, piece)
    run(daemon, clock, 0.05)
    assert daemon.tracker.view.status is Status.READY and not lit(mock, "fix_to")


def misplacement(state: State) -> tuple[str | None, str] | None:
    """A piece to lift (None: one from the box) and an empty place where no legal move puts one."""
    footprint_list = footprints(state)
    filled = {change.location for footprint in footprint_list for change in footprint.changes if change.after}
    contents = state.contents()
    empty = sorted(location for location, content in contents.items() if content is None and location not in filled)
    if not empty:
        return None
    movers = sorted(change.location for footprint in footprint_list for change in footprint.changes
                    if change.after is None and contents[change.location] and "+" not in contents[change.location])
    return (movers[0] if movers else None), empty[0]


@pytest.mark.parametrize("name", list(available_games()))
def test_a_piece_put_where_no_move_ends_is_shown_wrong_with_its_fix_once_it_holds_still(tmp_path, tables,
                                                                                      name) -> None:
    state = position(name, lambda state: misplacement(state) is not None)
    source, target = misplacement(state)
    daemon, mock, clock = tables.open_board(state, tmp_path / "j.sqlite3")
    piece = mock.lift(source) if source else next(iter(state.game.pieces))
    run(daemon, clock, 0.05)
    mock.place(target, piece)
    run(daemon, clock, SETTLE / 2)
    assert target not in lit(mock, "fix_from"), "a hand on its way is not told off"
    run(daemon, clock, SETTLE / 2 + 0.05)
    fix = f"{target} -> {source}" if source else f"remove the piece on {target}"
    assert daemon.status_text() == f"no legal move ends like this: {fix}"
    assert lit(mock, "fix_from") == {target} and lit(mock, "fix_to") == ({source} if source else set())
    mock.lift(target)
    if source:
        mock.place(source, piece)
    run(daemon, clock, 0.05)
    assert daemon.tracker.view.status is Status.READY


def drop_with_flips(state: State):
    return next((move for move in state.legal_moves if len(state.footprint(move).changes) > 1), None)


def test_hexover_flips_the_reed_switches_cannot_see_blink_until_confirm(tmp_path, tables) -> None:
    state = position("hexover", lambda state: drop_with_flips(state) is not None)
    move = drop_with_flips(state)
    drop, *flips = state.footprint(move).changes
    daemon, mock, clock = tables.open_board(state, tmp_path / "j.sqlite3")
    mock.place(drop.location, drop.after)
    run(daemon, clock, SETTLE + 0.1)
    assert daemon.state.history[-1] == move
    run_to_blink(daemon, clock, on=True)
    assert lit(mock, "todo_flip") == {change.location for change in flips}
    run_to_blink(daemon, clock, on=False)
    assert not any(mock.leds.location_colour(change.location) != (0, 0, 0) for change in flips)
    where = sorted(change.location for change in flips)
    words = where[0] if len(where) == 1 else ", ".join(where[:-1]) + f" and {where[-1]}"
    assert daemon.status_text().startswith(f"flip {words} to {drop.after} (confirm when done); then ")
    for change in flips:
        mock.flip(change.location, change.after)
    daemon.press("confirm")
    run_to_blink(daemon, clock, on=True)
    assert not lit(mock, "todo_flip") and not daemon.status_text().startswith("flip")


def test_hexover_flips_pending_go_out_when_the_next_move_begins(tmp_path, tables) -> None:
    state = position("hexover", lambda state: drop_with_flips(state) is not None)
    move = drop_with_flips(state)
    drop = state.footprint(move).changes[0]
    daemon, mock, clock = tables.open_board(state, tmp_path / "j.sqlite3")
    mock.place(drop.location, drop.after)
    run(daemon, clock, SETTLE + 0.1)
    assert daemon.snapshot()["todo"]
    following = next(iter(placements(daemon.state)))
    mock.place(following, next(piece for piece in state.game.pieces if piece != drop.after))
    run(daemon, clock, 0.05)
    assert not daemon.snapshot()["todo"]


def test_hexover_under_analog_sensors_waits_for_the_flips_it_can_see(tmp_path, tables) -> None:
    state = position("hexover", lambda state: drop_with_flips(state) is not None)
    move = drop_with_flips(state)
    drop, *flips = state.footprint(move).changes
    daemon, mock, clock = tables.open_board(state, tmp_path / "j.sqlite3", sensing="analog",
                                            classes={"black": "north", "white": "south"})
    mock.place(drop.location, drop.after)
    run(daemon, clock, SETTLE + 0.1)
    assert daemon.state.history == [] and daemon.status_text().startswith("flip ")
    run_to_blink(daemon, clock, on=True)
    assert lit(mock, "todo_flip") == {change.location for change in flips}
    for change in flips:
        mock.flip(change.location, change.after)
        run(daemon, clock, 0.05)
    run(daemon, clock, SETTLE + 0.1)
    assert daemon.state.history == [move] and not daemon.snapshot()["todo"]


def unique_jumps(state: State) -> list:
    """The jumps that, once their piece has landed, leave one piece to take off.

    Where several do (the piece on the start might also have been jumped over, by a
    piece still standing), the sensors cannot tell which, and every one lights orange.
    """
    jumps = [move for move in state.legal_moves if type(move).__name__ == "Capture"]

    def left(move) -> set[str]:
        return {other.removed if other.start == move.start else other.start for other in jumps
                if other.to == move.to and move.start in (other.start, other.removed)}
    return [move for move in jumps if len(left(move)) == 1]


@pytest.mark.parametrize("name", ["crooked-jumps", "overpass-spiral"])
def test_a_jump_asks_for_the_piece_it_jumped_once_the_jumper_lands(tmp_path, tables, name) -> None:
    state = position(name, lambda state: bool(unique_jumps(state)))
    move = unique_jumps(state)[0]
    daemon, mock, clock = tables.open_board(state, tmp_path / "j.sqlite3")
    piece = mock.lift(move.start)
    run(daemon, clock, 0.05)
    assert move.to in lit(mock, "destination") | lit(mock, "todo_put")
    mock.place(move.to, piece)
    run(daemon, clock, SETTLE + 0.1)
    assert daemon.state.history == [] and daemon.status_text() == f"take the {piece} off {move.removed}"
    run_to_blink(daemon, clock, on=True)
    assert lit(mock, "todo_remove") == {move.removed}
    mock.lift(move.removed)
    run(daemon, clock, SETTLE + 0.1)
    assert daemon.state.history == [move]


def stack_move(state: State):
    """A move that takes a piece off a stack that keeps others, to a place that was empty."""
    for move in state.legal_moves:
        changes = state.footprint(move).changes
        if len(changes) == 2 and type(move).__name__ == "TokenMove":
            source, target = sorted(changes, key=lambda change: change.before is None)
            if len(stack_pieces(source.before)) > 1 and source.after and target.before is None:
                return move, source, target
    return None


def test_a_stack_lifted_whole_lights_where_its_pieces_may_go_and_asks_for_the_rest_back(tmp_path, tables) -> None:
    state = position("pawns-crossing", lambda state: stack_move(state) is not None)
    move, source, target = stack_move(state)
    reach = {change.location for other in state.legal_moves
             if source.location in (footprint := state.footprint(other)).locations
             for change in footprint.changes if change.before is None}
    daemon, mock, clock = tables.open_board(state, tmp_path / "j.sqlite3")
    assert "lift a glowing stack whole" in daemon.status_text()
    mock.lift(source.location)
    run(daemon, clock, 0.05)
    assert lit(mock, "destination") | lit(mock, "todo_put") == reach - {source.location}
    mock.place(target.location, target.after)
    run(daemon, clock, 0.05)
    assert f"on {source.location}" in daemon.status_text()
    mock.place(source.location, source.after)
    run(daemon, clock, SETTLE + 0.1)
    while daemon.tracker.view.status is Status.CONFIRM and daemon.tracker.view.candidates[
            daemon.tracker.view.selected].move != move:
        daemon.press("hint")
    if daemon.tracker.view.status is Status.CONFIRM:
        daemon.press("confirm")
    assert daemon.state.history[-1] == move
