"""Pawns Crossing: one test (or a few) per rule sentence, on positions built from JSON.

Positions start from a seeded deal and are rearranged by swapping tiles and dominoes,
so every position keeps the real kit and goes through ``state_from_position``.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine import CHANCE, TERMINAL, Footprint, IllegalMoveError, new_game
from engine.ai.hidden import sample
from engine.games.pawns_crossing import PawnsCrossing
from engine.hidden import PUBLIC
from engine.public import public_text

ALL_OFF = {"red": None, "black": None, "blue": None, "green": None}


def base(players: int = 2, seed: int = 0) -> dict:
    """A dealt position, rearranged so the aces lie in the bottom row, away from the play area.

    Every pawn is off the board (tests place the ones they need); player 0 is to choose a turn.
    """
    pos = copy.deepcopy(new_game("pawns-crossing", players=players, seed=seed).position())
    for place, name in zip(("t4.1", "t4.2", "t4.3", "t4.4"), ("red-1", "black-1", "green-1", "blue-1")):
        put_tile(pos, place, name)
    aces = {name.split("-")[0]: place for place, name in pos["tiles"].items() if name.endswith("-1")}
    for token, entry in pos["tokens"].items():
        entry["at"] = aces[token.rsplit("-", 1)[0]]
    pos["pawns"] = {c: None for c in pos["pawns"]}
    pos["turn"] = turn("choose")
    return pos


def turn(phase: str, player: int = 0, **fields) -> dict:
    return {"phase": phase, "player": player, "dice": {}, "moved": 0, "pawn_moved": "", "arrived": [],
            "last_slide": None, "winner": None, **fields}


def put_tile(pos: dict, place: str, name: str) -> None:
    """Swap the tile ``name`` into ``place``."""
    other = next(p for p, n in pos["tiles"].items() if n == name)
    pos["tiles"][other], pos["tiles"][place] = pos["tiles"][place], name


def put_domino(pos: dict, slot: str, pips: tuple[int, int]) -> None:
    """Swap the domino ``pips`` (in that orientation) into ``slot``, from wherever it lies."""
    holders = {s: d for s, d in pos["dominoes"].items()}
    holders["pusher"] = pos["pusher"]["domino"]
    other = next(s for s, d in holders.items() if sorted(d) == sorted(pips))
    current = pos["dominoes"][slot]
    if other == "pusher":
        pos["pusher"]["domino"] = current
    else:
        pos["dominoes"][other] = current
    pos["dominoes"][slot] = list(pips)


def state_of(pos: dict, players: int = 2):
    return PawnsCrossing(players=players).state_from_position(copy.deepcopy(pos))


def texts(state) -> set[str]:
    return {str(m) for m in state.legal_moves}


def corridor(**turn_fields) -> dict:
    """Row 1 and the hole h1.1 set up for token tests: red-a on t1.1, red to move with a 3.

    d1.1e = 0|2 (north|south), d1.1s = 1|5 (west|east), d2.1e = 4|3, d1.2s = 6|1.
    """
    pos = base()
    for slot, pips in (("d1.1e", (0, 2)), ("d1.1s", (1, 5)), ("d2.1e", (4, 3)), ("d1.2s", (6, 1))):
        put_domino(pos, slot, pips)
    pos["tokens"]["red-a"]["at"] = "t1.1"
    pos["turn"] = turn("tokens", **{"dice": {"red": 3}, **turn_fields})
    return pos


def red_a_targets(state) -> set[str]:
    return {m.target for m in state.legal_moves if getattr(m, "token", "") == "red-a" and hasattr(m, "target")}


# -- set-up -------------------------------------------------------------------------

def test_two_players_take_red_black_and_blue_green():
    state = new_game("pawns-crossing", players=2, seed=4)
    assert state.seats == (("red", "black"), ("blue", "green"))


def test_placing_pawns_goes_in_roll_order_and_the_last_placer_starts():
    state = new_game("pawns-crossing", players=3, seed=11)
    placers = []
    while state.position()["turn"]["phase"] == "place":
        placers.append(state.current_player)
        state.apply(min(state.legal_moves, key=str))
    assert placers == list(state.order)
    assert state.current_player == state.order[-1]
    assert all(state.pawns[c] for c in ("red", "green", "blue"))


def test_a_pawn_is_placed_in_an_open_hole_of_the_placers_choice():
    state = new_game("pawns-crossing", players=2, seed=1)
    first = state.current_player
    state.apply(f"place {state.seats[first][0]} h2.2")
    assert state.contents()["h2.2"] == state.seats[first][0]
    assert not any(str(m).endswith("h2.2") for m in state.legal_moves)


# -- a turn -------------------------------------------------------------------------

def test_a_turn_offers_a_roll_a_pawn_move_or_a_slide():
    pos = base()
    pos["pawns"]["red"] = "h2.2"
    state = state_of(pos)
    offered = texts(state)
    assert "roll" in offered and "pawn red h2.2>h1.1" in offered and "slide row1 east" in offered
    assert len([t for t in offered if t.startswith("slide")]) == 16


def test_rolling_two_players_throws_both_dice_at_once():
    state = state_of(base())
    state.apply("roll")
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert "dice red=3 black=blank" in {str(m) for m, _ in outcomes}


def test_rolling_three_or_four_players_throws_one_die():
    state = state_of(base(players=4), players=4)
    state.apply("roll")
    assert [str(m) for m, _ in state.chance_outcomes()] == [
        "dice red=blank", "dice red=1", "dice red=2", "dice red=3", "dice red=4", "dice red=5"]


def test_two_players_move_a_token_of_each_colour_or_just_one():
    pos = corridor(dice={"red": 3, "black": 2})
    state = state_of(pos)
    assert {m.token.split("-")[0] for m in state.legal_moves if hasattr(m, "token")} == {"red", "black"}
    state.apply("red-a t1.1>d1.1e-n")
    assert "end turn" in texts(state)
    assert all(str(m).startswith(("black", "end")) for m in state.legal_moves)
    state.apply("end turn")
    assert state.current_player == 1


def test_a_roll_that_moves_no_token_ends_the_turn():
    pos = corridor()
    for token, place in (("blue-a", "d1.1e-n"), ("blue-b", "d1.1e-s"), ("blue-c", "d1.1s-w"),
                         ("green-a", "d1.1s-e")):
        pos["tokens"][token]["at"] = place
    pos["tokens"]["red-b"]["at"] = pos["tokens"]["red-c"]["at"] = None
    pos["pawns"]["blue"] = "h1.1"  # the only way on from those halves
    pos["turn"] = turn("dice")
    state = state_of(pos)
    state.apply("dice red=3 black=blank")  # black's pawn is off the board: nothing to force
    assert state.current_player == 1


def test_a_single_colour_turn_ends_after_its_token_move():
    pos = corridor()
    state = state_of(pos)
    state.apply("red-a t1.1>d1.1e-n")
    assert state.current_player == 1 and state.position()["turn"]["phase"] == "choose"


# -- token movement ---------------------------------------------------------------

def test_a_token_stops_at_or_before_the_first_space_at_or_above_the_roll():
    state = state_of(corridor())
    # 0 and 2 are passed; 5 (d1.1s-e), 4 (d2.1e-n) and 6 (d1.2s-w) are as far as the token goes.
    assert red_a_targets(state) == {"d1.1e-n", "d1.1e-s", "d1.1s-w", "d1.1s-e", "d2.1e-n", "d1.2s-w"}


def test_a_blank_half_is_passed_and_an_ace_roll_stops_on_any_number():
    state = state_of(corridor(dice={"red": 1}))
    # d1.1e-n (blank) is passed to d1.1e-s (2 >= 1); nothing beyond.
    assert red_a_targets(state) == {"d1.1e-n", "d1.1e-s", "d1.1s-w", "d1.1s-e"}


def test_tokens_turn_at_right_angles_through_a_hole_which_is_no_space():
    pos = corridor(dice={"red": 6 - 1})
    pos["tokens"]["red-a"]["at"] = "d1.1e-s"
    state = state_of(pos)
    targets = red_a_targets(state)
    assert {"d2.1e-n", "d1.1s-e", "d1.2s-w"} <= targets  # straight on and both turns
    assert "h1.1" not in targets


def test_a_pawn_of_another_colour_blocks_the_hole_and_one_of_the_same_colour_does_not():
    pos = corridor()
    pos["pawns"]["blue"] = "h1.1"
    assert red_a_targets(state_of(pos)) == {"d1.1e-n", "d1.1e-s", "d1.1s-w", "d1.1s-e"}
    pos["pawns"]["blue"], pos["pawns"]["red"] = None, "h1.1"
    assert {"d2.1e-n", "d1.2s-w"} <= red_a_targets(state_of(pos))


def test_a_players_own_pawn_of_the_other_colour_blocks_too():
    pos = corridor()
    pos["pawns"]["black"] = "h1.1"
    assert red_a_targets(state_of(pos)) == {"d1.1e-n", "d1.1e-s", "d1.1s-w", "d1.1s-e"}


def test_a_token_on_a_half_counts_zero_and_is_passed_but_not_stopped_on():
    pos = corridor(dice={"red": 2})
    assert "d2.1e-n" not in red_a_targets(state_of(pos))  # the 2 stops a roll of 2
    pos["tokens"]["blue-a"]["at"] = "d1.1e-s"
    targets = red_a_targets(state_of(pos))
    assert "d1.1e-s" not in targets
    assert "d2.1e-n" in targets


def test_any_number_of_tokens_share_a_tile():
    pos = corridor(dice={"red": 3})
    pos["tokens"]["red-a"]["at"] = "d1.1e-n"
    pos["tokens"]["blue-a"]["at"] = "t1.2"
    pos["tokens"]["blue-b"]["at"] = "t1.2"
    state = state_of(pos)
    state.apply("red-a d1.1e-n>t1.2")
    assert state.contents()["t1.2"] == "blue+blue+red"


def test_one_transition_per_move_at_its_start_or_its_end():
    targets = red_a_targets(state_of(corridor(dice={"red": 5})))
    assert targets and not {t for t in targets if t.startswith("t")}, "tile, dominoes, tile: two transitions"
    pos = corridor(dice={"red": 5})
    pos["tokens"]["red-a"]["at"] = "d1.1e-n"
    # Along the dominoes (0, 2, through h1.1, 4) and onto a tile at the end: one transition.
    assert {"t1.1", "t1.2", "t2.1", "t2.2"} <= red_a_targets(state_of(pos))


def test_a_blank_die_forbids_the_token_and_forces_the_pawn_of_that_colour():
    pos = corridor(dice={"red": 0, "black": 3})
    pos["pawns"]["red"] = "h2.2"
    state = state_of(pos)
    offered = texts(state)
    assert offered and all(t.startswith("pawn red h2.2>") for t in offered)
    assert "pawn red h2.2>h2.2" not in offered
    state.apply("pawn red h2.2>h1.1")
    assert not any(t.startswith("red") for t in texts(state))
    assert any(t.startswith("black") for t in texts(state))


# -- pawns ----------------------------------------------------------------------------

def test_a_pawn_moves_to_any_open_hole():
    pos = base(players=3)
    pos["pawns"].update({"red": "h1.1", "green": "h2.2", "blue": "h3.3"})
    state = state_of(pos, players=3)
    moves = {t for t in texts(state) if t.startswith("pawn")}
    assert moves == {f"pawn red h1.1>{h}" for h in ("h1.2", "h1.3", "h2.1", "h2.3", "h3.1", "h3.2")}
    state.apply("pawn red h1.1>h3.1")
    assert state.current_player == 1


def test_two_players_move_one_or_both_pawns():
    pos = base()
    pos["pawns"].update({"red": "h1.1", "black": "h1.2"})
    state = state_of(pos)
    state.apply("pawn red h1.1>h2.2")
    assert state.current_player == 0
    assert texts(state) == {"end turn"} | {f"pawn black h1.2>{h}" for h in
                                          ("h1.1", "h1.3", "h2.1", "h2.3", "h3.1", "h3.2", "h3.3")}
    state.apply("pawn black h1.2>h1.1")
    assert state.current_player == 1


def late_position() -> dict:
    """Blue and green are down to one token: the late stage for everyone."""
    pos = base()
    for token in ("blue-a", "blue-b", "blue-c", "green-a", "green-b"):
        pos["tokens"][token]["at"] = None
    pos["pawns"].update({"red": "h1.1", "black": "h1.2", "blue": "h2.2"})
    return pos


def test_with_one_token_left_pawns_move_only_when_forced_and_then_leave_the_board():
    pos = late_position()
    state = state_of(pos)
    assert state.late
    assert not any(t.startswith("pawn") for t in texts(state))
    pos["turn"] = turn("tokens", dice={"red": 0, "black": 2})
    state = state_of(pos)
    assert texts(state) == {"pawn red h1.1>off"}
    move = state.parse_move("pawn red h1.1>off")
    assert state.footprint(move).changes[0].location == "h1.1"
    state.apply(move)
    assert state.pawns["red"] is None and state.contents()["h1.1"] is None


def test_a_blank_die_for_a_pawn_off_the_board_does_nothing():
    pos = late_position()
    pos["pawns"]["red"] = None
    pos["turn"] = turn("dice")
    state = state_of(pos)
    state.apply("dice red=blank black=blank")
    assert state.current_player == 0 and texts(state) == {"pawn black h1.2>off"}


# -- sliding --------------------------------------------------------------------------

def test_a_slide_reenters_the_pushed_out_tile_and_makes_the_pushed_out_domino_the_pusher():
    pos = base()
    before_tiles = [pos["tiles"][f"t1.{c}"] for c in range(1, 5)]
    before_dominoes = [pos["dominoes"][f"d1.{c}e"] for c in range(1, 4)]
    pusher = pos["pusher"]["domino"]
    state = state_of(pos)
    state.apply("slide row1 east")
    layout = state.layout()
    assert [layout[f"t1.{c}"] for c in range(1, 5)] == [before_tiles[3]] + before_tiles[:3]
    assert [layout[f"d1.{c}e"] for c in range(1, 4)] == ["{}|{}".format(*d) for d in [pusher] + before_dominoes[:2]]
    assert layout["push-e1"] == "{}|{}".format(*before_dominoes[2])
    assert state.current_player == 1


def test_a_slide_carries_every_token_on_the_line_and_the_footprint_lists_them():
    pos = base()
    pos["pusher"]["at"] = "push-n2"
    pos["tokens"]["red-a"]["at"] = "t1.4"
    pos["tokens"]["red-b"]["at"] = "d1.3e-n"
    pos["tokens"]["blue-a"]["at"] = "push-n2-w"
    pos["tokens"]["blue-b"]["at"] = "t1.2"
    pos["tokens"]["green-a"]["at"] = "d1.1e-s"
    pos["pawns"]["blue"] = "h1.1"
    state = state_of(pos)
    move = state.parse_move("slide row1 east")
    before = state.contents()
    footprint = state.footprint(move)
    state.apply(move)
    where = {t: state.where[t] for t in ("red-a", "red-b", "blue-a", "blue-b", "green-a")}
    assert where == {"red-a": "t1.1", "red-b": "push-e1-n", "blue-a": "d1.1e-n", "blue-b": "t1.3",
                     "green-a": "d1.2e-s"}
    assert footprint == Footprint.between(before, state.contents())
    assert state.pawns["blue"] == "h1.1", "holes lie between the tiles' corners: pawns stay put"
    assert {c.location for c in footprint.changes} == {
        "t1.4", "t1.1", "d1.3e-n", "push-e1-n", "push-n2-w", "d1.1e-n", "t1.2", "t1.3", "d1.1e-s", "d1.2e-s"}


def test_the_pusher_is_carried_from_the_far_end_to_push_with_its_token_on_it():
    pos = base()
    pos["pusher"]["at"] = "push-n3"  # the far end of column 3 when it is pushed north (from the south)
    pos["tokens"]["red-a"]["at"] = "push-n3-e"
    pos["tokens"]["blue-a"]["at"] = "d1.3s-w"  # pushed out at the north end: the new pusher
    pusher = pos["pusher"]["domino"]
    state = state_of(pos)
    footprint = state.footprint(state.parse_move("slide col3 north"))
    state.apply("slide col3 north")
    assert state.where["red-a"] == "d3.3s-e" and state.where["blue-a"] == "push-n3-w"
    assert state.layout()["d3.3s"] == "{}|{}".format(*pusher) and state.pusher_at == "push-n3"
    # The green tokens on their ace (t4.3) ride north to t3.3.
    assert {c.location for c in footprint.changes} == {
        "push-n3-e", "d3.3s-e", "d1.3s-w", "push-n3-w", "t4.3", "t3.3"}


def test_the_pusher_halves_are_spaces_beside_their_edge_tile():
    pos = corridor(dice={"red": 5})
    pos["pusher"]["at"] = "push-w1"
    assert {"push-w1-n", "push-w1-s"} <= red_a_targets(state_of(pos))
    pos["pusher"]["at"] = None
    assert not {t for t in red_a_targets(state_of(pos)) if t.startswith("push")}


def test_the_next_player_may_not_undo_the_slide_but_may_after_a_turn_in_between():
    state = state_of(base(players=3), players=3)
    state.apply("slide col2 south")
    offered = texts(state)
    assert "slide col2 north" not in offered and "slide col2 south" in offered
    state.apply("slide row3 east")  # another sliding move is a turn in between
    assert "slide col2 north" in texts(state)
    assert "slide row3 west" not in texts(state)


# -- arrival and winning --------------------------------------------------------------------

def arrival(value_tile: str, token: str = "red-a"):
    """``token`` has just moved onto t1.2, where the tile ``value_tile`` lies."""
    pos = corridor(dice={"red": 3})
    put_tile(pos, "t1.2", value_tile)
    pos["tokens"][token]["at"] = "d1.1e-n"
    state = state_of(pos)
    state.apply(f"{token} d1.1e-n>t1.2")
    return state


def test_a_declared_token_on_its_matching_tile_leaves_the_board():
    state = arrival("red-2")
    assert state.values["red-a"] == 2
    move = state.parse_move("declare red-a t1.2")
    assert [(c.location, c.before, c.after) for c in state.footprint(move).changes] == [("t1.2", "red", None)]
    state.apply(move)
    assert state.where["red-a"] is None


def test_a_wrong_declaration_sends_the_token_back_to_its_ace():
    state = arrival("red-3")
    state.apply("declare red-a t1.2")
    assert state.where["red-a"] == "t4.1" and state.tile_at["t4.1"] == ("red", 1)
    assert state.contents()["t4.1"] == "red+red+red"


def test_declaring_is_offered_only_on_a_destination_tile_of_the_tokens_colour():
    state = arrival("blue-2")
    assert not any(t.startswith("declare") for t in texts(state))


def test_a_null_token_is_home_on_any_of_its_colours_destination_tiles():
    pos = base(players=4)
    null = next(t for t, e in pos["tokens"].items() if t.startswith("red") and e["value"] == 0)
    put_tile(pos, "t1.2", "red-4")
    pos["tokens"][null]["at"] = "t1.2"
    pos["turn"] = turn("tokens", arrived=[null], moved=1)
    state = state_of(pos, players=4)
    state.apply(f"declare {null} t1.2")
    assert state.where[null] is None


def test_the_first_player_to_bring_all_tokens_home_wins():
    pos = corridor(dice={"red": 3})
    put_tile(pos, "t1.2", "red-2")
    for token, entry in pos["tokens"].items():
        if token.startswith(("red", "black")):
            entry["at"] = None
    pos["tokens"]["red-a"]["at"] = "d1.1e-n"
    state = state_of(pos)
    state.apply("red-a d1.1e-n>t1.2")
    state.apply("declare red-a t1.2")
    assert state.current_player == TERMINAL
    assert state.outcome().winner == 0 and state.returns() == (1.0, -1.0)


# -- hidden values ----------------------------------------------------------------------------

def test_the_board_shows_token_colours_never_values():
    state = new_game("pawns-crossing", players=2, seed=5)
    shown = {v for v in state.contents().values() if v}
    assert shown and all(set(v.split("+")) <= {"red", "black", "blue", "green"} for v in shown)
    mine = state.token_values(0)
    assert set(mine) == {t for t in state.values if t.startswith(("red", "black"))}
    assert sorted(v for t, v in mine.items() if t.startswith("red")) == [2, 3, 4]


def test_a_player_sees_their_own_values_and_those_shown_on_going_home():
    state = arrival("red-2")
    state.apply("declare red-a t1.2")
    for player, own in ((0, ("red", "black")), (1, ("blue", "green"))):
        seen = state.position_seen_by(player)["tokens"]
        hidden = {t for t, entry in seen.items() if entry["value"] is None}
        assert hidden == {t for t in seen if not t.startswith(own) and t != "red-a"}
        assert seen["red-a"]["value"] == 2


def test_a_wrong_declaration_shows_the_value_to_everyone_for_the_rest_of_the_game():
    """"It is only when a player declares ... that it must be revealed": turned up, wrong or right."""
    state = arrival("red-3")
    state.apply("declare red-a t1.2")
    assert state.where["red-a"] == "t4.1" and state.values["red-a"] == 2
    for player in (0, 1, PUBLIC):
        assert state.position_seen_by(player)["tokens"]["red-a"] == {"value": 2, "at": "t4.1", "shown": True}
    assert "token red-a t4.1 2\n" in public_text(state)
    again = state_of(json.loads(json.dumps(state.position())))  # a saved position, history gone
    assert again.position_seen_by(1) == state.position_seen_by(1)
    state.pop()
    assert "shown" not in state.position()["tokens"]["red-a"]
    assert state.position_seen_by(1)["tokens"]["red-a"]["value"] is None


def test_the_computer_never_deals_a_shown_value_differently():
    """The other seat's sampled deals (what its search plays on) all carry the value a wrong declaration showed:
    before, a fresh guess each time, right in about a third of them (62 of 200)."""
    state = arrival("red-3")
    state.apply("declare red-a t1.2")
    rng = random.Random(0)
    assert [sample(state, 1, rng).values["red-a"] for _ in range(200)] == [2] * 200


def test_an_illegal_move_is_refused_with_the_reason():
    state = state_of(corridor())
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        state.apply("red-a t1.1>t1.2")
