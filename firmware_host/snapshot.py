"""The page's snapshot: a ``BoardState`` and the LEDs' last frame as JSON-ready data, for the simulator,
the mirror beside a real board and diagnostics.  Built only when someone asks (a subscriber, the page)."""

from __future__ import annotations

from typing import Any

from firmware_host.board_state import BoardState
from firmware_host.decided import Decided
from firmware_host.led_view import LedView
from firmware_host.presenter import css_colour
from firmware_host.tracker import Status
from firmware_host.voice import utterance
from firmware_host.words import status_text


def snapshot(board: BoardState, leds: LedView) -> dict[str, Any]:
    """What the board shows and expects, JSON-ready."""
    position, view, sensors, remote = board.position, board.view, board.sensors, board.remote
    outcome = position.outcome
    return {
        "game": position.game,
        "status": view.status.value,
        "status_text": status_text(board),
        "note": board.note,
        "faults": dict(board.faults),
        "sensors": {"connected": sensors.connected, "stale": sensors.stale, "problem": sensors.problem,
                    "errors": dict(sensors.errors)},
        "turn": position.current_player,
        "turn_piece": position.turn_piece,
        "expected": position.expected,
        "observed": dict(board.observed),
        "leds": {loc: css_colour(colour) for loc, colour in leds.colours.items()},
        # The lights over a whole blink, by name, for a page that blinks them itself; its arrows.
        "lights": {loc: list(light) for loc, light in leds.page_lights(board).items()},
        "blink_ms": leds.blink_ms,
        "arrows": _arrows(board),
        "legend": leds.legend,
        "dice": board.dice,
        "current_ma": round(leds.current_ma, 1),
        "budget_ma": leds.presenter.budget_ma,
        "lifted": sorted(view.lifted),
        "dead_ends": sorted(view.dead_ends),
        "todo": [{"kind": todo.kind, "location": todo.location, "pieces": list(todo.pieces)}
                 for todo in (*view.todo, *board.left_to_do)],
        "destinations": sorted(view.destinations),
        "candidates": [str(plan.move) for plan in view.candidates],
        "selected": view.selected,
        "fixes": [{"from": fix.source, "to": fix.target, "piece": fix.piece, "text": str(fix)}
                  for fix in view.fixes],
        "buttons": sorted({button for button, _ in position.buttons}
                          | ({"confirm", "hint"} if view.candidates else set())
                          | ({"confirm"} if board.left_to_do else set())  # the person says the flips are done
                          | ({"hint"} if position.hint_offered else set()) | {"undo", "new_game"}),
        "moves": list(position.unseen),
        "history": list(position.history),
        "seats": [{"player": player, "name": position.player_name(player), "kind": seat.kind,
                   "level": seat.level, "holder": seat.holder} for player, seat in enumerate(board.seats)],
        "remote": None if remote is None else {
            "game": remote.game, "name": remote.name, "broker": remote.broker, "connected": remote.connected,
            "online": dict(remote.online), "problem": remote.problem or remote.link_problem, "dice": remote.dice},
        "thinking": board.thinking,
        "decided": _decided_json(board.decided or board.hint, position.history),
        "carry": board.guide.json() if board.guide is not None else None,
        "outcome": None if outcome is None else {"winners": list(outcome.winners), "reason": outcome.reason,
                                                 "line": list(outcome.line)},
        "speech": None if (said := utterance(board)) is None else said.json(),  # what the voice says now
    }


def _arrows(board: BoardState) -> dict[str, list[str]]:
    """The page's arrows, each the places it passes through: the last move while the board waits, and the
    move to carry out (the computer's or a remote player's) or the hint shown."""
    status = board.view.status
    guide = board.guide.through if board.guide is not None and status in (Status.READY, Status.MOVING) else ()
    last = board.last_through if status is Status.READY else ()  # as its LEDs: while the board waits
    arrows = {"last_move": list(last), "hint" if board.hint is not None else "carry": list(guide)}
    return {kind: through for kind, through in arrows.items() if through}


def _decided_json(decided: Decided | None, history: tuple[str, ...]) -> dict[str, Any] | None:
    if decided is None:
        return None
    return {"by": decided.by, "player": decided.player, "text": decided.text(), "moves": list(decided.moves),
            "step": decided.step(history) or 0}
