"""A recorded game replayed on the LEDs of an idle board: after each move, every piece's place glows dim in its
player's colour and the places the move changed glow in the last-move colour, stepped by the board's buttons.

"Idle" means no daemon is playing on the board: ``gameboard record replay`` takes the LEDs and buttons through
the HAL as ``gameboard leds test`` does (on the Pi, stop the service first), and gives them back dark.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine.core import stack_pieces
from engine.record import Shown, Stepper
from firmware_host.presenter import PALETTE, Presenter, indicator
from hal.base import RGB, ButtonPanel, LedSink

#: How bright a piece's place glows beside the move's places (a share of its player's colour).
PIECE_SHARE = 0.3
#: What each button does in a replay; the new-game button ends it.
STEPS: dict[str, str] = {"end_turn": "next", "confirm": "next", "undo": "back", "hint": "last", "new_game": "stop"}
BUTTON_WORDS = "end turn or confirm: next move · undo: back · hint: the last move · new game: stop"


def replay_colours(shown: Shown, pieces: Mapping[str, str]) -> dict[str, RGB]:
    """Location -> colour of the position ``shown``: the top piece of each place, dimmed, in its player's LED
    colour; the move's places in the last-move colour."""
    colours: dict[str, RGB] = {}
    for location, content in shown.contents.items():
        codes = stack_pieces(content)
        if codes and codes[-1] in pieces:
            colour = indicator(codes[-1], pieces[codes[-1]])
            colours[location] = tuple(round(c * PIECE_SHARE) for c in colour)  # type: ignore[assignment]
    colours.update(dict.fromkeys(shown.places, PALETTE["last_move"]))
    return colours


def step_words(shown: Shown) -> str:
    """The terminal's line for a step: "12/40 p4-p12 (p4, p12)", "0/40 the start", and the result at the end."""
    if shown.ply == 0:
        return f"0/{shown.plies} the start"
    places = f" ({', '.join(shown.places)})" if shown.places else ""
    end = f"; {shown.result}" if shown.ply == shown.plies and shown.result != "*" else ""
    return f"{shown.ply}/{shown.plies} {shown.move}{places}{end}"


class LedReplay:
    """A game to step through on the strips."""

    def __init__(self, stepper: Stepper, leds: LedSink, presenter: Presenter, pieces: Mapping[str, str],
                 report: Callable[[str], None]) -> None:
        self.stepper = stepper
        self.leds = leds
        self.presenter = presenter
        self.pieces = pieces
        self.report = report

    def show(self, ply: int) -> Shown:
        """Light the position after ``ply`` moves and say it."""
        shown = self.stepper.go(ply)
        frame, _ = self.presenter.frame(replay_colours(shown, self.pieces))
        self.leds.show(frame)
        self.report(step_words(shown))
        return shown

    def by_buttons(self, buttons: ButtonPanel, pause: Callable[[float], None], first: int, poll_s: float = 0.02
                   ) -> None:
        """Show ply ``first``, then step as the buttons say until the new-game button."""
        self.report(BUTTON_WORDS)
        shown = self.show(first)
        while True:
            for event in buttons.events():
                step = STEPS.get(event.button)
                if step == "stop":
                    return
                target = {"next": shown.ply + 1, "back": shown.ply - 1, "last": shown.plies}.get(step, shown.ply)
                if target != shown.ply and 0 <= target <= shown.plies:
                    shown = self.show(target)
            pause(poll_s)

    def by_clock(self, pause: Callable[[float], None], first: int, seconds: float) -> None:
        """Show every position from ply ``first`` to the end, ``seconds`` apart."""
        for ply in range(first, self.stepper.plies + 1):
            if ply > first:
                pause(seconds)
            self.show(ply)
