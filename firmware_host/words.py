"""Every word the board says to people: the status line (systemd's STATUS, the simulator's banner, the
page), and the notes the loop sets when it does something.  A change of wording touches this file only.

``status_text`` is a function of one ``BoardState``; the notes are constants and small functions the
loop and the deciders call.
"""

from __future__ import annotations

from engine.core import stack_pieces
from firmware_host.board_state import BoardState, Position
from firmware_host.decided import Decided, Guide
from firmware_host.todo import Todo, describe
from firmware_host.tracker import Status, TrackerView

#: Each fault, in words for the status line (the order of ``board_state.FAULT_KINDS``).
FAULT_HEADS = {"sensors": "the board cannot see", "journal": "the journal cannot be written",
               "remote": "the remote game cannot go on"}

# -- the notes the loop sets ------------------------------------------------------------------
TOOK_BACK = "took back the last move"
NOTHING_TO_UNDO = "nothing to undo"
UNDONE = "undone: put the pieces back as the LEDs show"
NEW_GAME = "new game: set up the pieces as the LEDs show"
UNDO_OFF_REMOTE = "undo is off in a remote game: each move was sent to the others as it was made"
CONFIRM_KEPT = "confirm kept: the move is made once the board is back as it was"
HINTS_OFF = "hints are off (the hints setting)"
HINT_FOR_A_PERSON = "a hint is for a person's turn"
HINT_AT_REST = "a hint is for a board at rest: finish or undo the move under way"
#: What the loop tells the journal's fault while it waits: a move, undo, new game.
MOVE_WAITS = "the move waits until it is written"
UNDO_WAITS = "press undo again once it can be"
NEW_GAME_WAITS = "press new game again once it can be"


def journal_fault(error: Exception, meanwhile: str) -> str:
    """The journal's fault: what failed, and what waits meanwhile (one of the three above)."""
    return f"{error}; {meanwhile}"


def no_entered_roll(text: str) -> str:
    return (f"{text!r}: in this remote game every seat rolls fair dice together through the broker; nobody enters "
            "a roll")


def made_on_the_board(text: str) -> str:
    return f"{text!r} moves pieces: make it on the board"


def no_restart(game: str) -> str:
    return f"a remote game is not restarted: play the next one under another game id than {game}"


def no_flips(title: str) -> str:
    """A flip asked for in a game whose pieces never turn over (the simulator's right-click, its flip mode)."""
    return f"{title}'s pieces are never turned over: lift a piece to move it, take one from the box to add one"


def press_again(button: str) -> str:
    """A move button pressed while the sensors cannot see the board."""
    return f"{FAULT_HEADS['sensors']}: press {button} again once it can"


def refused(by: str, seq: int, move: str, reason: str) -> str:
    return f"refused {by}'s move {seq} ({move}): {reason}"


def not_holder(by: str, name: str) -> str:
    return f"{by} does not hold the seat to move ({name} does)"


GAME_OVER_REFUSAL = "the game is over"


def cannot_keep(error: Exception) -> str:
    """Why a remote move revealing values the journal cannot keep is refused."""
    return f"cannot keep what it reveals: {error}"


def computer_failed(error: str, retried: bool | None) -> str:
    """The computer's process failed: ``retried`` True when it is asked again, False when it gave up, None for a
    hint."""
    then = "" if retried is None else "; asking it again" if retried else "; press undo, or new game"
    return f"the computer failed ({error}){then}"


def turn_not_kept(error: Exception) -> str:
    return f"the computer's turn is not kept for a restart: {error}"


def hint_note(note: str) -> str:
    return f"hint: {note}"


def sensor_fault(problem: str, counts: str) -> str:
    """The sensors' fault: the problem, and the error counts when it began."""
    return problem + (f" (errors since the start: {counts})" if counts else "")


STALE_READINGS = "the sensors' readings are stale"


# -- the status line -------------------------------------------------------------------------

def status_text(board: BoardState) -> str:
    """One line for people: systemd's STATUS, the simulator's banner."""
    position, view = board.position, board.view
    if board.faults:
        return "; ".join(f"{FAULT_HEADS[kind]}: {problem}" for kind, problem in board.faults.items())
    outcome = position.outcome
    if view.status in (Status.RESTORING, Status.OUT_OF_SYNC):
        head = "restore the position" if view.status is Status.RESTORING else "out of sync"
        return f"{head}: " + "; ".join(str(fix) for fix in view.fixes[:4]) + (" ..." if len(view.fixes) > 4 else "")
    if view.status is Status.CONFIRM:
        chosen = view.candidates[view.selected]
        check = f"{describe(chosen.unsure)} (the sensors cannot tell these pieces apart), then " \
            if chosen.unsure else ""
        return f"{check}press confirm for {chosen.move}" + (f" (hint: {len(view.candidates)} choices)"
                                                            if len(view.candidates) > 1 else "")
    if view.dead_ends:
        return (f"no legal move takes the piece lifted from {' or '.join(sorted(view.dead_ends))}: "
                "put it back (pink)")
    if view.status is Status.UNMATCHED and view.fixes:
        return "no legal move ends like this: " + "; ".join(str(fix) for fix in view.fixes[:4])
    if view.todo:
        return describe(view.todo)
    remote, todo = board.remote, board.left_to_do
    sealing = remote.sealing if remote is not None else ""
    if outcome is not None:
        return (game_over(position) + (f"; {describe(todo)}" if todo else "")
                + (f"; {sealing}" if sealing else ""))
    first = f"{describe(todo)} (confirm when done); then " if todo else ""
    if position.chance and remote is not None and remote.fair_dice:
        waiting = remote.dice_waiting or f"{board.seats[position.mover].holder}'s roll"
        return f"{first}rolling the fair dice: waiting for {waiting}{_remote_words(board, None)}"
    if position.chance and position.remote_turn:
        holder = board.seats[position.mover].holder
        waiting = sealing or f"waiting for {holder}'s roll"
        return f"{first}{waiting}{_remote_words(board, holder)}"
    if position.chance:
        return f"{first}roll the dice and enter the roll"
    player = position.current_player
    seat = board.seats[player]
    text = f"{first}{position.player_name(player)}" + (f" ({seat.holder or seat.kind})" if seat.kind != "human"
                                                       else "")
    dice = f" ({board.dice})" if board.dice else ""
    decided = board.decided
    if seat.computer and decided is None:
        return f"{text}{dice} is thinking..." if board.thinking else f"{text}{dice} to move"
    if seat.remote and decided is None:
        waiting = sealing or f"waiting for {seat.holder}'s move"
        return f"{text}{dice} to move: {waiting}{_remote_words(board, seat.holder)}"
    if decided is not None:
        step = decided.step(position.history) or 0
        rest = "" if decided.complete else ", then thinking..."  # the plan grows as its steps are decided
        return f"{text}{dice}: {plan_text(decided, step)}{rest}: {guide_words(board.guide)}"
    text = f"{text} to move{dice}"
    if board.hint is not None:
        step = board.hint.step(position.history) or 0
        return f"{text}: hint: {plan_text(board.hint, step)}: {guide_words(board.guide)}"
    if board.thinking:
        text += " (the hint is thinking...)"
    return text + _choices_text(position, view)


def game_over(position: Position) -> str:
    """"game over: five in a row; won by White" (the status line's, and the voice's, words at the end)."""
    outcome = position.outcome
    assert outcome is not None
    who = ", ".join(position.player_name(p) for p in outcome.winners) or "nobody"
    return f"game over: {outcome.reason}; won by {who}"


def _remote_words(board: BoardState, holder: str | None) -> str:
    """Why a remote move may be slow to come: " (the broker cannot be reached ...)", " (bob is offline)"."""
    remote = board.remote
    if remote is None:
        return ""
    if not remote.connected:
        return f" ({remote.link_problem or 'connecting to the broker'})"
    return f" ({holder} is offline)" if remote.online.get(holder or "") is False else ""


def plan_text(decided: Decided, step: int, shown: int = 3) -> str:
    """The moves of a decided turn from ``step``: "O p12-p31, then T p9=p40, then end" (and how many more)."""
    moves = decided.moves[step:]
    more = len(moves) - shown
    return ", then ".join(moves[:shown]) + (f", and {more} more" if more > 0 else "")


def _choices_text(position: Position, view: TrackerView) -> str:
    """What the lights offer while the board waits or a piece is lifted, in words."""
    offers = []
    where = f"{'a' if len(view.destinations) > 1 else 'the'} green light"
    if view.destinations and view.lifted:
        offers.append(f"put the piece on {where}")
    elif view.destinations:
        offers.append(f"place a {' or '.join(sorted(position.from_box))} piece on {where}")
    if view.removals:
        offers.append(f"take off {'a' if len(view.removals) > 1 else 'the'} piece lit orange")
    if view.status is Status.READY:
        if position.carried - position.stacks:  # not the pieces a move only takes off (a capture)
            offers.append("move a glowing piece")
        if position.stacks:
            offers.append("lift a glowing stack whole to see where its pieces may go")
        for button, move in position.buttons:
            words = button.replace("_", " ")
            offers.append(f"press {words}" + ("" if move in (words, "end") else f" to {move}"))
        names = ", ".join(f'"{move}"' for move in position.unseen)
        if names:
            offers.append(f"make {names} by its name" if len(position.unseen) == 1
                          else f"make one by its name: {names}")
    return ": " + ", or ".join(offers) if offers else ""


def guide_words(guide: Guide | None) -> str:
    """The step to carry out (or the hint), in words: "move the red piece from p12 to p31 over p3 and p7"."""
    if guide is None:
        return ""
    changes = guide.changes
    rest = [Todo.of(change) for change in changes if change.location not in guide.lift | guide.put]
    words = []
    if guide.lift:
        piece = ", ".join(sorted({p for c in changes if c.location in guide.lift for p in stack_pieces(c.before)}))
        over = f" over {', '.join(guide.path)}" if guide.path else ""
        piece = "" if piece == "piece" else f"{piece} "  # a puzzle's pieces are all alike
        words.append(f"move the {piece}piece from {' and '.join(sorted(guide.lift))} to "
                     f"{' and '.join(sorted(guide.put))}{over}")
    else:
        rest = [Todo.of(change) for change in changes]
    if rest:
        words.append(describe(rest))
    if not changes:
        words.append(f"{guide.move}")
    return "; then ".join(words)
