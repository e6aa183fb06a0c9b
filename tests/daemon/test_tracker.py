"""The move tracker fed observed boards directly: matching, settling, hints, ambiguity, takeback, sync."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from engine.boards import load_board
from engine.core import STACK, State, stack_pieces
from engine.games.pawns_crossing import PawnsCrossing, TokenMove
from firmware_host.daemon import Daemon
from firmware_host.presenter import PALETTE
from firmware_host.expectation import Expectation, Takeback
from firmware_host.todo import Todo, describe
from firmware_host.tracker import MoveTracker, Status
from hal.clock import ManualClock
from wiring.model import PRESENT, straight_wiring

SETTLE, OUT_OF_SYNC = 0.25, 3.0
CLASSES = {"black": "north", "white": "south"}


class Table:
    """A toy position with its tracker, and a hand that changes what the sensors read."""

    def __init__(self, toy, contents: Mapping[str, str], *, pips: int = 2, hand: int = 0, sensing: str = "presence",
                 takeback: Mapping[str, str] | None = None, restoring: bool = False, mover: int = 0) -> None:
        game = toy.ToyGame()
        self.state = game.state_from_position({"contents": dict(contents), "hand": [hand, hand], "to_move": mover,
                                               "mover": mover, "pips": pips, "plies": 0})
        self.wiring = straight_wiring(game.board, sensing, CLASSES if sensing == "analog" else None)
        board = load_board("squareoff")
        self.tracker = MoveTracker({loc: board.locations[loc].xy for loc in board.locations}, SETTLE, OUT_OF_SYNC)
        self.now = 0.0
        self.board = {loc: self.wiring.expected(contents.get(loc)) for loc in game.locations}
        back = (1, dict(takeback)) if takeback is not None else None
        self.tracker.expect(Expectation(self.state, self.wiring, back), self.board, self.now, restoring=restoring)

    def see(self, **changes: str | None) -> Status:
        """The sensors now read ``changes`` (location=observation), a tenth of a second later."""
        self.now += 0.1
        self.tracker.observe(changes, self.now)
        return self.tracker.view.status

    def lift(self, location: str) -> Status:
        return self.see(**{location: None})

    def put(self, location: str, piece: str = "black") -> Status:
        return self.see(**{location: self.wiring.expected(piece)})

    def wait(self, seconds: float):
        self.now += seconds
        return self.tracker.poll(self.now)


def test_a_lifted_piece_lights_its_destinations_and_a_capture_lights_the_piece_it_takes(toy) -> None:
    table = Table(toy, {"p1": "black", "p9": "white", "p8": "white"})
    assert table.lift("p1") is Status.MOVING
    view = table.tracker.view
    assert view.lifted == {"p1"}
    assert view.destinations == {"p5", "p17"}  # p5 by a slide, p17 by jumping p9; p8 is white with nothing beyond
    assert view.removals == {"p9"}
    table.put("p17")
    assert table.tracker.view.status is Status.MOVING and table.tracker.view.destinations == frozenset()
    assert table.tracker.view.removals == {"p9"}
    assert table.lift("p9") is Status.SETTLING
    assert str(table.tracker.view.candidates[0].move) == "p1xp9-p17"


def test_a_move_is_accepted_only_after_it_holds_still_for_the_settle_time(toy) -> None:
    table = Table(toy, {"p1": "black"})
    table.lift("p1")
    assert table.put("p5") is Status.SETTLING
    assert table.wait(SETTLE * 0.8) is None
    plan = table.wait(SETTLE * 0.3)
    assert plan is not None and str(plan.move) == "p1-p5"


def test_the_same_footprint_at_two_costs_takes_the_cheaper_and_says_so(toy) -> None:
    table = Table(toy, {"p1": "black"}, pips=2)
    table.lift("p1")
    table.put("p5")
    view = table.tracker.view
    assert [str(plan.move) for plan in view.candidates] == ["p1-p5"]
    assert view.note == "took p1-p5, the cheapest of the moves that look the same (dash p1-p5)"


def test_a_bumped_piece_put_back_changes_nothing(toy) -> None:
    table = Table(toy, {"p1": "black", "p20": "white"})
    assert table.lift("p20") is Status.UNMATCHED  # white's piece, out of black's reach
    assert table.put("p20", "white") is Status.READY
    assert table.wait(OUT_OF_SYNC * 2) is None
    assert table.tracker.view.status is Status.READY


def test_a_trade_under_presence_sensing_waits_for_confirm(toy) -> None:
    table = Table(toy, {"p1": "black", "p9": "white"}, pips=2)
    table.lift("p1")
    table.lift("p9")
    table.put("p1", "white")
    assert table.put("p9") is Status.CONFIRM
    view = table.tracker.view
    assert [str(plan.move) for plan in view.candidates] == ["trade p1 p9"]
    assert table.wait(OUT_OF_SYNC * 2) is None  # never taken without the button
    assert str(table.tracker.confirm().move) == "trade p1 p9"


def test_a_trade_awaiting_confirm_survives_a_bumped_piece_put_back(toy) -> None:
    table = Table(toy, {"p1": "black", "p9": "white", "p17": "white"}, pips=2)
    for step in (lambda: table.lift("p1"), lambda: table.lift("p9"), lambda: table.put("p1", "white"),
                 lambda: table.put("p9")):
        step()
    assert table.tracker.view.status is Status.CONFIRM
    table.lift("p17")  # the hand knocks a neighbour off...
    assert table.put("p17", "white") is Status.CONFIRM  # ...and puts it back: the Trade still waits
    assert [str(plan.move) for plan in table.tracker.view.candidates] == ["trade p1 p9"]
    assert str(table.tracker.confirm().move) == "trade p1 p9"


def test_a_trade_under_analog_sensing_is_read_from_the_classes(toy) -> None:
    table = Table(toy, {"p1": "black", "p9": "white"}, pips=2, sensing="analog")
    table.lift("p1")
    table.lift("p9")
    table.put("p1", "white")
    assert table.put("p9", "black") is Status.SETTLING
    assert str(table.wait(SETTLE * 1.1).move) == "trade p1 p9"


def test_a_flip_is_invisible_to_reed_switches_and_waits_for_confirm(toy) -> None:
    table = Table(toy, {"p1": "black"}, pips=1)
    table.lift("p1")
    assert table.put("p1") is Status.CONFIRM
    assert [str(plan.move) for plan in table.tracker.view.candidates] == ["flip p1"]
    assert table.put("p20") is Status.UNMATCHED  # touching anything else withdraws the offer
    assert table.tracker.confirm() is None


def test_a_flip_under_analog_sensing_is_seen(toy) -> None:
    table = Table(toy, {"p1": "black"}, pips=1, sensing="analog")
    assert table.see(p1="south") is Status.SETTLING
    assert str(table.wait(SETTLE * 1.1).move) == "flip p1"


def test_moves_that_look_the_same_wait_for_confirm_and_hint_steps_through_them(toy) -> None:
    # Placing on p5 reads exactly like putting back the previous position (a black piece on p5).
    table = Table(toy, {"p1": "black"}, hand=1, takeback={"p1": "black", "p5": "black"})
    assert table.put("p5") is Status.CONFIRM
    view = table.tracker.view
    assert [str(plan.move) for plan in view.candidates] == ["@p5", "takeback"]
    assert table.wait(OUT_OF_SYNC * 2) is None
    assert str(table.tracker.confirm().move) == "@p5"
    assert table.tracker.next_candidate()
    assert isinstance(table.tracker.confirm().move, Takeback)


def test_the_previous_position_put_back_is_a_takeback(toy) -> None:
    table = Table(toy, {"p5": "black"}, takeback={"p1": "black"}, mover=1)  # black slid p1-p5; white to move
    table.lift("p5")
    assert "p1" in table.tracker.view.destinations
    assert table.put("p1") is Status.SETTLING
    assert isinstance(table.wait(SETTLE * 1.1).move, Takeback)


def test_a_placed_piece_lifted_again_is_in_the_hand_not_a_takeback(toy) -> None:
    """Lifting the piece a placement just put down is how its next move starts (Over-Pass: enter, then move
    it off the Center Square); held however long, it is not taken back. The undo button takes it back."""
    table = Table(toy, {"p5": "black"}, takeback={}, mover=0)  # black placed on p5; black to move on
    assert table.lift("p5") is Status.MOVING
    assert table.tracker.view.destinations
    assert table.wait(SETTLE * 10) is None
    target = sorted(table.tracker.view.destinations)[0]
    assert table.put(target) is Status.SETTLING
    assert str(table.wait(SETTLE * 1.1).move) == f"p5-{target}"


def test_a_board_that_matches_nothing_goes_out_of_sync_shows_fixes_and_resumes(toy) -> None:
    table = Table(toy, {"p1": "black", "p9": "white"})
    table.lift("p1")
    assert table.put("p24") is Status.UNMATCHED
    assert table.wait(OUT_OF_SYNC - 0.2) is None and table.tracker.view.status is Status.UNMATCHED
    table.wait(0.3)
    view = table.tracker.view
    assert view.status is Status.OUT_OF_SYNC
    assert [str(fix) for fix in view.fixes] == ["p24 -> p1"]
    table.lift("p24")
    assert table.tracker.view.status is Status.MOVING  # a legal move is possible again
    assert table.put("p1") is Status.READY


def test_restoring_shows_fixes_at_once_and_accepts_no_move_until_the_board_matches(toy) -> None:
    table = Table(toy, {"p1": "black"}, restoring=True)
    table.tracker.expect(table.tracker.expectation, {**table.board, "p1": None, "p5": PRESENT}, 0.0, restoring=True)
    view = table.tracker.view
    assert view.status is Status.RESTORING and [str(fix) for fix in view.fixes] == ["p5 -> p1"]
    assert table.wait(SETTLE * 4) is None  # p1-p5 is legal, but the board must be restored first
    table.lift("p5")
    assert table.put("p1") is Status.READY
    table.lift("p1")
    assert table.put("p5") is Status.SETTLING


@pytest.mark.parametrize("sensing", ["presence", "analog"])
def test_fixes_pair_each_extra_piece_with_the_nearest_missing_place(toy, sensing: str) -> None:
    table = Table(toy, {"p1": "black", "p2": "white", "p24": "black"}, sensing=sensing)
    table.lift("p1")
    table.lift("p2")
    table.put("p9", "black")  # near p1
    table.put("p10", "white")  # near p2
    table.put("p20", "white")  # a piece too many
    table.wait(OUT_OF_SYNC + 0.1)
    assert sorted(map(str, table.tracker.view.fixes)) == ["p10 -> p2", "p9 -> p1", "remove the piece on p20"]


def test_a_confirm_pressed_during_a_bump_is_kept_until_the_offer_comes_back(toy) -> None:
    table = Table(toy, {"p1": "black", "p9": "white", "p17": "white"}, pips=2)
    for step in (lambda: table.lift("p1"), lambda: table.lift("p9"), lambda: table.put("p1", "white"),
                 lambda: table.put("p9")):
        step()
    table.lift("p17")  # a bump interrupts the offer ...
    assert table.tracker.confirm() is None and table.tracker.armed  # ... and the press is kept
    assert table.wait(0.01) is None
    assert table.put("p17", "white") is Status.CONFIRM
    assert str(table.wait(0.01).move) == "trade p1 p9"


def test_a_kept_confirm_is_forgotten_when_the_board_settles_elsewhere_or_is_held(toy) -> None:
    table = Table(toy, {"p1": "black", "p9": "white", "p17": "white"}, pips=2)
    for step in (lambda: table.lift("p1"), lambda: table.lift("p9"), lambda: table.put("p1", "white"),
                 lambda: table.put("p9")):
        step()
    table.lift("p17")
    table.tracker.confirm()
    table.put("p21", "white")  # the bumped piece lands elsewhere and stays there ...
    assert table.tracker.armed
    table.wait(OUT_OF_SYNC)  # ... until the board is out of sync: the press is forgotten
    assert table.tracker.view.status is Status.OUT_OF_SYNC and not table.tracker.armed
    table.lift("p21")
    table.put("p17", "white")
    assert table.tracker.view.status is Status.CONFIRM and table.wait(0.01) is None
    table.lift("p17")
    table.tracker.confirm()
    table.tracker.hold(table.now)  # the sensors went blind meanwhile
    table.put("p17", "white")
    assert table.wait(0.01) is None



def wrong_colour_token_move(another_stack: bool = False) -> tuple[State, TokenMove, str]:
    """A Pawns Crossing position (from a seeded random game) where a token may leave a stack of several colours
    for an empty place that no other colour of that stack may reach (and, if asked, another stack stands that
    the move leaves as it is); the move, and a colour it may not take."""
    rng = random.Random(0)
    state = PawnsCrossing().new_initial_state()
    while not state.is_terminal():
        for move in state.legal_moves if not state.is_chance_node() else ():
            if not isinstance(move, TokenMove) or state.contents()[move.target] is not None:
                continue
            others = set(stack_pieces(state.contents()[move.origin])) - {state.colour_of[move.token]}
            if others and not any(state.footprint(other).after().get(move.target) in others
                                  for other in state.legal_moves) and (not another_stack or stacks_apart(state, move)):
                return state.clone(), move, sorted(others)[0]
        state.push(rng.choice([move for move, _ in state.chance_outcomes()] or list(state.legal_moves)))
    raise AssertionError("no such position in this game")


def stacks_apart(state: State, move: TokenMove) -> list[str]:
    """The stacks ``move`` leaves as they are."""
    return [location for location, content in state.contents().items()
            if len(stack_pieces(content)) > 1 and location not in (move.origin, move.target)]


def test_a_token_of_the_wrong_colour_off_a_stack_is_not_taken_for_another_colours_move(tmp_path, tables) -> None:
    """Presence sensors see a token, never its colour: the move waits for confirm and the status names the
    colour the game expects (it used to settle as the other colour's move, the board out of step unseen)."""
    state, move, wrong = wrong_colour_token_move()
    colour, after = state.colour_of[move.token], state.footprint(move).after()
    daemon, mock, clock = tables.open_board(state, tmp_path / "j.sqlite3")
    stack = stack_pieces(mock.lift(move.origin))  # lifted whole, as the status asks
    tick(daemon, clock, 0.1)
    stack.remove(wrong)
    mock.place(move.target, wrong)
    tick(daemon, clock, 0.1)
    mock.place(move.origin, STACK.join(stack))
    tick(daemon, clock, 3 * tables.LOOP.settle_ms / 1000)
    assert not daemon.state.history, f"took the {wrong} token on {move.target} for {move}"
    assert daemon.tracker.view.status is Status.CONFIRM
    assert f"make {move.target} hold a {colour}" in daemon.status_text()
    mock.lift(move.target)  # the person puts there the colour named, and sets the stack as said
    mock.place(move.target, colour)
    mock.lift(move.origin)
    mock.place(move.origin, after[move.origin])
    tick(daemon, clock, 0.1)
    daemon.press("confirm")
    assert daemon.state.history == [move]
    assert {loc: piece for loc, piece in daemon.state.contents().items() if piece} == dict(mock.contents)
    assert not daemon.left_to_do  # what confirm said the places hold is not asked again


@pytest.mark.parametrize("sensing", ["presence", "analog"])
def test_analog_sensors_tell_a_lone_tokens_colour_and_need_no_confirm(sensing: str) -> None:
    state, move, _ = wrong_colour_token_move()
    classes = {colour: f"{colour} magnet" for colour in state.game.pieces}
    wiring = straight_wiring(state.game.board, sensing, classes if sensing == "analog" else None)
    after = state.footprint(move).after()
    assert set(Expectation(state, wiring).unsure(state.footprint(move))) == (set() if sensing == "analog" else {
        Todo("restack", location, tuple(stack_pieces(after[location]))) for location in (move.target, move.origin)})


def tick(daemon: Daemon, clock: ManualClock, seconds: float) -> None:
    for _ in range(round(seconds / 0.01)):
        clock.advance(0.01)
        daemon.step()


def test_a_stack_touched_on_the_way_is_named_and_blinks_with_the_move(tmp_path, tables) -> None:
    """The hand that lifted another stack whole held its tokens too: the move waits for confirm, the status
    says what that stack must hold, and it blinks with the move."""
    state, move, _ = wrong_colour_token_move(another_stack=True)
    contents, after, other = state.contents(), state.footprint(move).after(), stacks_apart(state, move)[0]
    daemon, mock, clock = tables.open_board(state, tmp_path / "j.sqlite3")
    mock.lift(move.origin)
    mock.lift(other)  # lifted whole on the way ...
    tick(daemon, clock, 0.1)
    mock.place(other, contents[other])  # ... and put back
    mock.place(move.target, state.colour_of[move.token])
    mock.place(move.origin, after[move.origin])
    tick(daemon, clock, 3 * tables.LOOP.settle_ms / 1000)
    assert not daemon.state.history and daemon.tracker.view.status is Status.CONFIRM
    assert describe([Todo("restack", other, tuple(stack_pieces(contents[other])))]) in daemon.status_text()
    seen = set()
    for _ in range(8):
        tick(daemon, clock, tables.LOOP.blink_ms / 1000 / 2)
        seen.add(mock.leds.location_colour(other))
    assert PALETTE["selected"] in seen
    daemon.press("confirm")
    assert daemon.state.history == [move]
