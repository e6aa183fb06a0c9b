"""The board's voice: what the status says at the moments that matter, spoken through espeak-ng.

``utterance`` picks, from one ``BoardState``, the moment it is in and the words for it: a fault, the
game's end, a mistake on the board, a step of the computer's (or a remote player's) turn to carry
out, a person's turn.  ``Voice`` says each moment once, when the board enters it: a blink, a redraw,
a lifted piece or the same moment published again says nothing.  ``Speaker`` speaks in a process of
its own, so the scan loop never waits; a new utterance stops a stale one still speaking.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from firmware_host.board_state import BoardState
from firmware_host.config.voice import ESPEAK, VoiceConfig
from firmware_host.tracker import Status
from firmware_host.words import FAULT_HEADS, game_over, guide_words, status_text

#: The tracker's states in which the board shows a mistake to put right.
MISTAKES = (Status.UNMATCHED, Status.OUT_OF_SYNC)


@dataclass(frozen=True)
class Utterance:
    """Words for a moment; ``moment`` names it, so the same moment published again is not said again."""

    moment: str
    text: str

    def json(self) -> dict[str, str]:
        return {"moment": self.moment, "text": self.text}


def utterance(board: BoardState) -> Utterance | None:
    """What to say of the moment the board is in, the status's own words; None when nothing matters to say."""
    position, view = board.position, board.view
    if board.faults:
        kinds = sorted(board.faults)
        return Utterance(f"fault {' '.join(kinds)}", "; ".join(FAULT_HEADS[kind] for kind in kinds))
    if position.outcome is not None:
        return Utterance(f"end {position.ply}", game_over(position))
    if view.dead_ends or (view.status in MISTAKES and view.fixes):
        head = status_text(board).split(": ")[0]  # "no legal move ends like this", "out of sync", ...
        return Utterance(f"mistake {position.ply} {head}", head)
    decided = board.decided
    if decided is not None and board.guide is not None:
        step = decided.step(position.history)
        if step is None:
            return None
        name = position.player_name(decided.player)
        words = guide_words(board.guide)
        return Utterance(f"decided {decided.ply} {step}", f"{name} ({decided.by}): {words}" if step == 0
                         else f"then {words}")
    if view.status is not Status.READY or position.chance or position.remote_turn:
        return None
    player = position.current_player
    seat = board.seats[player] if player < len(board.seats) else None
    if seat is None or seat.kind != "human":
        return None
    dice = f" ({board.dice})" if board.dice else ""  # said again once the turn's dice are rolled
    return Utterance(f"turn {player}{dice}", f"{position.player_name(player)} to move{dice}")


class Voice:
    """Says each moment once, as the board enters it (a ``Views`` watcher of each published ``BoardState``)."""

    def __init__(self, speaker: Speaker) -> None:
        self.speaker = speaker
        self.said = ""
        self._board: BoardState | None = None

    def hear(self, board: BoardState) -> None:
        if board is self._board:
            return
        self._board = board
        said = utterance(board)
        if said is not None and said.moment != self.said:
            self.said = said.moment
            self.speaker.say(said.text)

    def close(self) -> None:
        self.speaker.close()


class Speaker:
    """espeak-ng in a process of its own for each utterance: ``say`` starts it and returns at once."""

    def __init__(self, voice: VoiceConfig, program: str | None = None) -> None:
        self.voice = voice
        #: The espeak-ng found on PATH; None: the board stays silent (``config.voice_warnings`` said why).
        self.program = program or shutil.which(ESPEAK)
        self._speaking: subprocess.Popen[bytes] | None = None
        #: Stopped processes not yet reaped: collected at the next utterance, never waited for.
        self._stopped: list[subprocess.Popen[bytes]] = []

    def command(self, text: str, wav: Path | None = None) -> list[str]:
        """espeak-ng's command line for ``text``: spoken aloud, or written to ``wav``."""
        voice = self.voice
        out = ["-w", str(wav)] if wav is not None else []
        return [self.program or ESPEAK, "-v", voice.language, "-a", str(round(voice.volume)),
                "-s", str(round(voice.rate)), *out, "--", text]

    def say(self, text: str) -> None:
        """Speak ``text`` now, stopping whatever is still being said: it is stale."""
        if self.program is None:
            return
        self._stop()
        try:
            self._speaking = subprocess.Popen(self.command(text), stdin=subprocess.DEVNULL,
                                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except OSError:
            self._speaking = None  # espeak-ng went away: silence, not a stopped board

    def _stop(self) -> None:
        self._stopped = [process for process in self._stopped if process.poll() is None]
        if self._speaking is not None and self._speaking.poll() is None:
            self._speaking.terminate()
            self._stopped.append(self._speaking)
        self._speaking = None

    def close(self) -> None:
        """Stop speaking and reap every process (at the daemon's end, when waiting is fine)."""
        self._stop()
        for process in self._stopped:
            process.wait()
        self._stopped = []
