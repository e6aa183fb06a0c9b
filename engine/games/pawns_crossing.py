"""Pawns Crossing: race tokens home over a board of tiles and dominoes that slides.

A turn is one of: roll and move tokens, move pawns, slide a row or column.  The grid
of places is fixed (``engine.boards.pawns_layout``); the state records which tile and
domino lie in each place, where each token is, and the hidden value under each token
(``contents()`` shows colours only).  Rule readings are recorded in docs/rules.md.

The game and its state are here; beside them ``pawns_moves`` (the moves and their notation),
``pawns_setup`` (the deal and the saved layout), ``pawns_turn`` (a saved turn), ``pawns_paths``
(where a token may go) and ``pawns_slide`` (a line pushed).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from engine.boards import load_board
from engine.boards.pawns_layout import PawnsBoard
from engine.core import (CHANCE, TERMINAL, Content, Footprint, Game, Move, Option, OptionError, Outcome, PositionError,
                         State)
from engine.games.pawns_moves import (Declare, Dice, EndTurn, PawnMove, PlacePawn, Roll, Slide, TokenMove,
                                      dice_outcomes, reverse_slides)
from engine.games.pawns_paths import destinations
from engine.games.pawns_setup import (ACE, NULL, SEATS, Layout, colour_of, deal, layout_json, pieces_seen, read_layout,
                                      tile_name)
from engine.games.pawns_slide import push_line
from engine.games.pawns_turn import read_turn

BOARD: PawnsBoard = load_board("pawns")
#: Location -> its rank on the board, so footprints list changes in board order.
LOCATION_ORDER = {location: n for n, location in enumerate(BOARD.locations)}
EMPTY: dict[str, Content] = dict.fromkeys(BOARD.locations)


#: Every slide, mapped to the slide that undoes it (the same line pushed from the other end).
REVERSE: dict[Slide, Slide] = reverse_slides(BOARD)


# -- the game -------------------------------------------------------------------

class PawnsCrossing(Game):
    """Options: players (2-4), seed (the deal), fair_colours (2 players: pair the colours fairly)."""

    name = "pawns-crossing"
    title = "Pawns Crossing"
    board_name = "pawns"
    options_spec: ClassVar[dict[str, Option]] = {
        "players": Option(2, (2, 3, 4), "number of players"),
        "seed": Option(0, (), "seed of the shuffled tiles and dominoes, the token values and the start rolls; "
                              "left out, each new game on the board, in the simulator or the arena is dealt "
                              "from a fresh one"),
        "fair_colours": Option(False, (False, True), "2 players: one takes the colours with the longest and "
                                                     "shortest ace-to-destination totals"),
    }
    pieces: ClassVar[dict[str, str]] = dict(BOARD.equipment.suits)
    position_keys = ("seats", "order", "tiles", "dominoes", "pusher", "tokens", "pawns", "turn")
    deal_option = "seed"

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if self.options["fair_colours"] and self.options["players"] != 2:
            raise OptionError(f"{self.name}: fair_colours is a 2-player option; drop it or set players=2")
        missing = {c for seat in SEATS[self.num_players] for c in seat} - set(BOARD.equipment.suits)
        if missing:
            raise OptionError(f"{self.name}: the board file lacks the suit(s) {', '.join(sorted(missing))}")

    @property
    def num_players(self) -> int:
        return self.options["players"]

    @property
    def locations(self) -> tuple[str, ...]:
        return tuple(BOARD.locations)

    def piece_set(self) -> dict[str, int]:
        """Each colour's tokens and its pawn (the tiles and dominoes are the board)."""
        state = self.new_initial_state()
        counts = {colour: 1 for colour in state.pawns}
        for colour in state.colour_of.values():
            counts[colour] = counts.get(colour, 0) + 1
        return counts

    def new_initial_state(self) -> PawnsState:
        return PawnsState(self, deal(BOARD, self.num_players, self.options["seed"], self.options["fair_colours"]))

    def _read_position(self, position: dict[str, Any]) -> PawnsState:
        layout = read_layout(BOARD, self.num_players, position)
        turn = read_turn(BOARD, layout, position.get("turn"))
        state = PawnsState(self, layout)
        state.phase, state.player, state.dice, state.moved = turn.phase, turn.player, turn.dice, turn.moved
        state.pawn_moved, state.arrived, state.winner = turn.pawn_moved, turn.arrived, turn.winner
        state.last_slide = turn.last_slide
        if turn.phase in ("tokens", "pawns") and all(isinstance(m, EndTurn) for m in state.generate_moves()):
            raise PositionError(f"position: nothing is left to do in this {turn.phase} phase; the turn is over, "
                                f"so save it as the next player's choose phase")
        return state


class PawnsState(State):
    """A Pawns Crossing position: the layout plus where the current turn stands."""

    game: PawnsCrossing

    def __init__(self, game: PawnsCrossing, layout: Layout) -> None:
        super().__init__(game)
        self.seats = layout.seats
        self.order = layout.order
        #: The hidden value of every token (NULL for a null token): fixed for the game.
        self.values = layout.values
        #: Tokens whose values a declaration showed everyone (right or wrong): public for good.
        self.shown = layout.shown
        self.colour_of = {t: colour_of(t) for t in layout.values}
        self.owner = {c: p for p, seat in enumerate(layout.seats) for c in seat}
        self.tile_at = dict(layout.tiles)
        self.domino_at = dict(layout.dominoes)
        self.pusher = layout.pusher
        self.pusher_at = layout.pusher_at
        self.where = dict(layout.where)
        self.pawns = dict(layout.pawns)
        self.phase = "place"
        self.player = layout.order[0]
        #: Dice of this turn not yet used: colour -> face (0 is blank: that pawn must move).
        self.dice: dict[str, int] = {}
        #: Tokens moved this turn, and the pawn moved in a two-pawn turn.
        self.moved = 0
        self.pawn_moved = ""
        #: Tokens that ended a move this turn on a destination tile of their colour.
        self.arrived: tuple[str, ...] = ()
        #: The slide of the previous turn (its reverse is not allowed now).
        self.last_slide: Slide | None = None
        self.winner: int | None = None
        self._next_placer()

    # -- reading the position ------------------------------------------------------

    def position(self) -> dict[str, Any]:
        layout = Layout(self.tile_at, self.domino_at, self.pusher, self.pusher_at, self.seats, self.order,
                        self.values, self.where, self.pawns, self.shown)
        return {**layout_json(layout), "turn": {
            "phase": self.phase, "player": self.player, "dice": dict(self.dice), "moved": self.moved,
            "pawn_moved": self.pawn_moved, "arrived": list(self.arrived),
            "last_slide": str(self.last_slide) if self.last_slide else None, "winner": self.winner}}

    @property
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return CHANCE if self.phase == "dice" else self.player

    def turn_piece(self) -> Content:
        return None if self.phase == "over" else self.seats[self.player][0]

    def token_values(self, player: int) -> dict[str, int]:
        """The hidden values a player may see: their own tokens' only."""
        return {t: v for t, v in self.values.items() if self.owner[self.colour_of[t]] == player}

    def position_seen_by(self, player: int) -> dict[str, Any]:
        """The position as ``player`` may see it: the values of other players' tokens are null unless a
        declaration showed them to everyone (on going home, or a wrong one that sent the token back)."""
        seen = self.position()
        for token, entry in seen["tokens"].items():
            if token not in self.shown and self.owner[self.colour_of[token]] != player:
                entry["value"] = None
        return seen

    def tokens_left(self, player: int) -> int:
        return sum(1 for t, at in self.where.items() if at and self.owner[self.colour_of[t]] == player)

    @property
    def late(self) -> bool:
        """Once any player has one token left, pawns move only when forced, and then off the board."""
        return any(self.tokens_left(p) == 1 for p in range(len(self.seats)))

    def layout(self) -> dict[str, str]:
        """What lies in each place now: tile names and domino pips ("3|5", first half first)."""
        shown = {place: tile_name(tile) for place, tile in self.tile_at.items()}
        shown.update({slot: f"{a}|{b}" for slot, (a, b) in self.domino_at.items()})
        if self.pusher_at:
            shown[self.pusher_at] = "{}|{}".format(*self.pusher)
        return shown

    def contents(self) -> dict[str, Content]:
        shown = dict(EMPTY)
        shown.update(self._held())
        return shown

    def _contents(self, locations: list[str]) -> dict[str, Content]:
        held = self._held()
        return {location: held.get(location) for location in locations}

    def _held(self) -> dict[str, str]:
        return pieces_seen(self.where, self.colour_of, self.pawns)

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        n = len(self.seats)
        returns = tuple(1.0 if p == self.winner else -1.0 / (n - 1) for p in range(n))
        return Outcome((self.winner,), "brought all tokens home", returns)

    # -- moves -------------------------------------------------------------------------

    def open_holes(self) -> list[str]:
        taken = set(self.pawns.values())
        return [h for h in BOARD.holes if h not in taken]

    def _forced(self) -> list[str]:
        return [c for c, face in self.dice.items() if face == 0]

    def _pawn_moves(self, colour: str, late: bool) -> Iterator[PawnMove]:
        origin = self.pawns.get(colour)
        if not origin:
            return
        if late:
            yield PawnMove(colour, origin, "")
        else:
            for hole in self.open_holes():
                yield PawnMove(colour, origin, hole)

    def _token_moves(self) -> Iterator[TokenMove]:
        for colour, face in self.dice.items():
            if face:
                for token, at in self.where.items():
                    if at and self.colour_of[token] == colour:
                        for target in destinations(BOARD, at, colour, face, self.tile_at, self.domino_at,
                                                   self.pusher, self.pusher_at, self.where, self.pawns):
                            yield TokenMove(token, at, target)

    def slides(self) -> Iterator[Slide]:
        """Every slide except the one that would undo a slide made the turn before."""
        undo = REVERSE.get(self.last_slide) if self.last_slide else None
        return (slide for slide in REVERSE if slide != undo)

    def generate_moves(self) -> Iterator[Move]:
        seat = self.seats[self.player]
        if self.phase == "place":
            for colour in seat:
                if self.pawns[colour] is None:
                    yield from (PlacePawn(colour, hole) for hole in self.open_holes())
        elif self.phase == "choose":
            yield Roll()
            if not self.late:
                for colour in seat:
                    yield from self._pawn_moves(colour, False)
            yield from self.slides()
        elif self.phase == "dice":
            yield from (move for move, _ in self.chance_outcomes())
        elif self.phase == "tokens":
            forced = self._forced()
            if forced:
                late = self.late
                for colour in forced:
                    yield from self._pawn_moves(colour, late)
                return
            yield from (Declare(t, self.where[t]) for t in self.arrived)
            yield from self._token_moves()
            if self.moved:
                yield EndTurn()
        elif self.phase == "pawns":
            for colour in seat:
                if colour != self.pawn_moved:
                    yield from self._pawn_moves(colour, False)
            yield EndTurn()

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.phase != "dice":
            return []
        return dice_outcomes(BOARD.equipment.die_faces, self.seats[self.player])

    # -- footprints ---------------------------------------------------------------------

    def footprint(self, move: Move) -> Footprint:
        touched = sorted(set(self._touched(move)), key=LOCATION_ORDER.__getitem__)
        if not touched:
            return Footprint()
        before = self._contents(touched)
        self.push(move)
        after = self._contents(touched)
        self.pop()
        return Footprint.between(before, after)

    def _touched(self, move: Move) -> list[str]:
        """Every location ``move`` may change."""
        if isinstance(move, (TokenMove, PawnMove)):
            return [move.origin, move.target] if move.target else [move.origin]
        if isinstance(move, PlacePawn):
            return [move.hole]
        if isinstance(move, Declare):
            return [move.tile, self._ace_place(self.colour_of[move.token])]
        if isinstance(move, Slide):
            line = BOARD.lines[move.line]
            slots = [*line.slots, *line.ends] + ([self.pusher_at] if self.pusher_at else [])
            return list(line.tiles) + [half for slot in slots for half in BOARD.halves(slot)]
        return []

    # -- playing -------------------------------------------------------------------------

    def _snapshot(self) -> Any:
        return (dict(self.tile_at), dict(self.domino_at), self.pusher, self.pusher_at, dict(self.where),
                dict(self.pawns), self.shown, self.phase, self.player, dict(self.dice), self.moved,
                self.pawn_moved, self.arrived, self.last_slide, self.winner)

    def _restore(self, snapshot: Any) -> None:
        (self.tile_at, self.domino_at, self.pusher, self.pusher_at, self.where, self.pawns, self.shown,
         self.phase, self.player, self.dice, self.moved, self.pawn_moved, self.arrived, self.last_slide,
         self.winner) = snapshot

    def _play(self, move: Move) -> None:
        if isinstance(move, PlacePawn):
            self.pawns[move.colour] = move.hole
            self._next_placer()
        elif isinstance(move, Roll):
            self.phase = "dice"
        elif isinstance(move, Dice):
            self.phase = "tokens"
            self.dice = {c: f for c, f in move.faces if f or self.pawns.get(c)}
            self._settle()
        elif isinstance(move, TokenMove):
            self.where[move.token] = move.target
            colour = self.colour_of[move.token]
            del self.dice[colour]
            self.moved += 1
            tile = self.tile_at.get(move.target)
            if tile and tile[0] == colour and tile[1] != ACE:
                self.arrived += (move.token,)
            self._settle()
        elif isinstance(move, Declare):
            self._declare(move.token, move.tile)
        elif isinstance(move, PawnMove):
            self._move_pawn(move)
        elif isinstance(move, Slide):
            self._slide(move)
            self._end_turn(move)
        elif isinstance(move, EndTurn):
            self._end_turn()

    def _next_placer(self) -> None:
        for player in self.order:
            if any(self.pawns[c] is None for c in self.seats[player]):
                self.player = player
                return
        self.phase = "choose"
        self.player = self.order[-1]

    def _move_pawn(self, move: PawnMove) -> None:
        self.pawns[move.colour] = move.target or None
        if self.phase == "tokens":
            del self.dice[move.colour]
            self._settle()
        elif self.phase == "choose" and len(self.seats[self.player]) > 1:
            self.phase = "pawns"
            self.pawn_moved = move.colour
            self._settle()
        else:
            self._end_turn()

    def _declare(self, token: str, place: str) -> None:
        colour, rank = self.tile_at[place]
        self.arrived = tuple(t for t in self.arrived if t != token)
        self.shown |= {token}  # the token is turned up: everyone has seen its value, whatever follows
        value = self.values[token]
        if colour == self.colour_of[token] and (value == rank or value == NULL):
            self.where[token] = None
            if self.tokens_left(self.player) == 0:
                self.winner = self.player
                self.phase = "over"
                return
        else:
            self.where[token] = self._ace_place(self.colour_of[token])
        self._settle()

    def _ace_place(self, colour: str) -> str:
        return next(place for place, tile in self.tile_at.items() if tile == (colour, ACE))

    def _settle(self) -> None:
        """End the turn once nothing but ending it is left to do."""
        if not any(not isinstance(m, EndTurn) for m in self.generate_moves()):
            self._end_turn()

    def _end_turn(self, slide: Slide | None = None) -> None:
        self.player = (self.player + 1) % len(self.seats)
        self.phase = "choose"
        self.dice = {}
        self.moved = 0
        self.pawn_moved = ""
        self.arrived = ()
        self.last_slide = slide

    def _slide(self, move: Slide) -> None:
        """Push the line (``pawns_slide``), the tokens on it riding along."""
        moved_to, self.pusher, self.pusher_at = push_line(BOARD, move, self.tile_at, self.domino_at, self.pusher,
                                                          self.pusher_at)
        self.where = {t: moved_to.get(at, at) if at else at for t, at in self.where.items()}
