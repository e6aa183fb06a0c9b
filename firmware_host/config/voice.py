"""The ``[voice]`` section: whether the board speaks, in which espeak-ng voice, how loud and how fast.

Nothing is required where espeak-ng is not installed: the file is checked as written, and a voice that
cannot speak is one warning when the daemon starts (``model.voice_warnings``), never a refusal to run.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The program that speaks (Debian's package of the same name).
ESPEAK = "espeak-ng"


@dataclass(frozen=True)
class VoiceConfig:
    """Off unless the file asks: a board speaking in a quiet room is a choice."""

    on: bool = False
    #: An espeak-ng voice ("en", "de", "en-gb-x-rp").
    language: str = "en"
    #: Per cent of espeak-ng's normal loudness (its amplitude, 0-200).
    volume: float = 100
    #: Words a minute.
    rate: float = 160
