"""The ``[voice]`` section: whether the board speaks, in which espeak-ng voice, how loud and how fast.

Nothing is required where espeak-ng is not installed: the file is checked as written, and a voice that
cannot speak is one warning when the daemon starts (``voice_warnings``), never a refusal to run.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from typing import TYPE_CHECKING

from firmware_host.config.problems import located

if TYPE_CHECKING:
    from firmware_host.config.model import Config

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


def voice_warnings(config: Config) -> list[str]:
    """``FILE:LINE: key: warning`` when the voice is on but cannot speak: espeak-ng missing, or its voice unknown."""
    voice = config.voice
    if not voice.on:
        return []
    if shutil.which(ESPEAK) is None:
        return [located(config.path, config.lines, "voice.on",
                        f"{ESPEAK} is not installed, so the board stays silent; install it (sudo apt install "
                        f"{ESPEAK}) or write on = false")]
    try:  # speaks nothing: espeak-ng only loads the voice, and fails if there is none of that name
        known = subprocess.run([ESPEAK, "-q", "-v", voice.language, ""], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        known = True  # it cannot be asked now; the voice's own process will say why
    if not known:
        return [located(config.path, config.lines, "voice.language",
                        f"{ESPEAK} has no voice {voice.language!r}, so the board stays silent; name one that "
                        f"`{ESPEAK} --voices` lists, e.g. language = \"en\"")]
    return []
