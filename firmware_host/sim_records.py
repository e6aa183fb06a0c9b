"""The simulator page's records: the header of the game under way (the page adds its moves to export it), a
replay of it to step through without disturbing the game, and a record imported to play on (docs/records.md)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from engine.core import EngineError, State
from engine.draw import Overlay, svg
from engine.record import Record, Stepper, parse_record, record_game, replay, result_words, write_record
from engine.registry import state_from_json
from firmware_host.presenter import PALETTE
from firmware_host.records import game_started, into_journal
from firmware_host.sim_actions import SimError

#: How wide the replay's drawing is (the page scales it to its place, as the board's).
REPLAY_WIDTH = 760


class SimRecords:
    """One simulated board's record keeping: which move the page replays (None: the game as it is)."""

    def __init__(self, journal: Path) -> None:
        self.journal = journal
        self.ply: int | None = None
        self._start: tuple[int | None, State, Record] | None = None
        self._stepper: tuple[tuple[Any, ...], Stepper] | None = None
        self._drawn: tuple[tuple[Any, ...], str] | None = None

    def _game_start(self, daemon: Any) -> tuple[State, Record]:
        """The position the journal's game started from, and its record without moves (read once a game)."""
        game_id = daemon.journal.game_id
        if self._start is None or self._start[0] != game_id:
            start = state_from_json(daemon.journal.setup())
            started = game_started(self.journal, game_id) if game_id is not None else None
            self._start = (game_id, start, record_game(start, [], date=started))
        return self._start[1], self._start[2]

    def header(self, daemon: Any) -> str:
        """The record's header for the game under way, with the blank line that ends it: the page writes the
        moves it lists after it (``write_record``'s "N. MOVE" lines)."""
        _, empty = self._game_start(daemon)
        seats = tuple(str(seat) for seat in daemon.seats)
        return write_record(replace(empty, seats=seats, result=result_words(daemon.state))).removesuffix("\n")

    def step(self, ply: int | None) -> None:
        """Replay the game to the position after ``ply`` moves; None: back to the game as it is."""
        if ply is not None and ply < 0:
            raise SimError(f"a replay shows the position after move 0 (the start) or later, not {ply}")
        self.ply = ply

    def view(self, daemon: Any) -> dict[str, Any] | None:
        """The replayed position as the page shows it, or None while the page shows the game as it is."""
        if self.ply is None:
            return None
        start, _ = self._game_start(daemon)
        moves = daemon.state.history
        key = (daemon.journal.game_id, tuple(map(str, moves)))
        if self._stepper is None or self._stepper[0] != key:
            state = start.clone()
            for move in moves:
                state.push(move)
            self._stepper = (key, Stepper(state))
        shown = self._stepper[1].go(self.ply)
        self.ply = shown.ply
        game = start.game
        drawn_key = key + (shown.ply,)
        if self._drawn is None or self._drawn[0] != drawn_key:
            overlay = Overlay(pieces={loc: content for loc, content in shown.contents.items() if content},
                              leds=dict.fromkeys(shown.places, PALETTE["last_move"]), piece_colours=game.pieces)
            self._drawn = (drawn_key, svg(game.board, overlay, width=REPLAY_WIDTH))
        return {"ply": shown.ply, "plies": shown.plies, "move": shown.move, "places": list(shown.places),
                "result": shown.result, "svg": self._drawn[1]}

    def imported(self, text: str) -> Record:
        """The record in ``text``, replayed and written into the journal as its game under way (at its end even
        when it is over, to step through): the session then resumes it.  A mistake is refused by its line."""
        try:
            record = parse_record(text)
            replay(record)
        except EngineError as exc:
            raise SimError(f"the record: {exc}") from None
        into_journal(record, self.journal, open_ended=True)
        self.ply = None
        return record
