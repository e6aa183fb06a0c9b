"""The board's voice: what it says over a whole game on the mock board (each moment once, never on a blink),
and espeak-ng's speech rendered to a WAV that is there and not silent."""

from __future__ import annotations

import array
import math
import random
import shutil
import subprocess
import wave
from pathlib import Path

import pytest

from engine.registry import game_class
from firmware_host.config import ConfigError, VoiceConfig, load_config, voice_warnings
from firmware_host.config.voice import ESPEAK
from firmware_host.seats import Seat
from firmware_host.voice import Speaker, Voice

HUMAN, COMPUTER = Seat(), Seat("computer", "easy")
#: Root mean square of 16-bit samples above which speech is heard: espeak-ng's normal voice is near 2000-4000.
AUDIBLE_RMS = 300


class Heard:
    """The audio boundary: what the voice would speak, in order (the real speaker is espeak-ng's process)."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def say(self, text: str) -> None:
        self.said.append(text)

    def close(self) -> None:
        pass


def voiced_table(tables, hands, tmp_path, seats):
    daemon, mock, clock = tables.open_board(game_class("squareoff")(), tmp_path / "j.sqlite3", seats=seats)
    heard = Heard()
    daemon.watch(Voice(heard).hear)
    return daemon, mock, hands.Hands(daemon, mock, clock), heard


def test_a_game_against_the_computer_is_spoken_at_the_moments_that_matter(tables, hands, tmp_path):
    daemon, mock, person, heard = voiced_table(tables, hands, tmp_path, (HUMAN, COMPUTER))
    rng, movers = random.Random(3), []
    try:
        person.run(0.5)  # blinks and redraws of the first position say nothing more
        assert heard.said == ["black to move"]
        while not daemon.state.is_terminal() and len(movers) < 400:
            state = daemon.state
            movers.append(daemon.seats[state.current_player].kind)
            if daemon.seats[state.current_player].computer:
                while daemon.carry is None and daemon.state is state and not state.is_terminal():
                    person.run(0.02)
                carry = daemon.snapshot()["carry"]
                said = len(heard.said)
                assert heard.said[-1].startswith(("white (computer): ", "then ")), heard.said[-1]  # step 1, 2, ...
                person.run(0.25)  # the LEDs blink the step to carry out: it is said once
                assert len(heard.said) == said
                person.play(daemon.state, daemon.state.parse_move(carry["move"]))
            else:
                person.play(state, hands.pick(state, rng))
        assert daemon.state.is_terminal()
    finally:
        daemon.close()
    assert heard.said[-1].startswith("game over: ") and heard.said[-1] == daemon.status_text().split("; then")[0]
    # Said: each step of the computer's, each turn of the person's (a placing and its capture are one turn), the end;
    # blinks, lifts, settling and redraws say nothing.
    turns = sum(1 for index, kind in enumerate(movers) if kind == "human" and movers[index - 1:index] != ["human"])
    assert len(heard.said) == movers.count("computer") + turns + 1, heard.said
    assert all(a != b for a, b in zip(heard.said, heard.said[1:])), "a moment is never said twice in a row"
    assert {text for text in heard.said if not text.startswith(("white (computer)", "then ", "game over"))} == {"black to move"}


def test_a_mistake_is_said_once_when_it_settles_and_the_next_turn_once_put_right(tables, hands, tmp_path):
    daemon, mock, person, heard = voiced_table(tables, hands, tmp_path, (HUMAN, HUMAN))
    try:
        person.run(0.2)
        mock.place("p1", "black")
        mock.place("p2", "black")  # two placed at once: no legal move ends like this
        person.run(0.2)
        assert heard.said == ["black to move"], "nothing before the board holds still"
        person.run(2.0)  # settled, then out of sync: the fixes blink
        assert heard.said[1:2] == ["no legal move ends like this"]
        assert heard.said[2:] in ([], ["out of sync"]), heard.said
        mistakes = len(heard.said)
        mock.lift("p2")  # put right: p1 alone is black's placing
        person.run(1.0)
        assert [str(move) for move in daemon.state.history] == ["p1"] and heard.said[mistakes:] == ["white to move"]
    finally:
        daemon.close()


def test_a_dice_game_says_the_turn_again_once_its_roll_is_known(tables, hands, tmp_path):
    daemon, mock, clock = tables.open_board(game_class("overpass")(players=2), tmp_path / "j.sqlite3",
                                            seats=(HUMAN, HUMAN))
    heard = Heard()
    daemon.watch(Voice(heard).hear)
    person = hands.Hands(daemon, mock, clock)
    try:
        for text in ("enter", "roll 1+3"):
            person.play(daemon.state, daemon.state.parse_move(text))
        person.run(0.5)
        assert heard.said == ["black and red to move", "black and red to move (roll 1+3)"]
    finally:
        daemon.close()


# -- the [voice] section ------------------------------------------------------------------------------

VOICED = """\
[game]
name = "squareoff"

[sensors]
driver = "mock"
board = "squareoff"

[leds]
driver = "mock"
board = "squareoff"

[voice]
on = true
language = "en"
volume = 100
"""


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("on = true", 'on = "yes"', r":13: voice\.on: 'yes' is not accepted; use on = true"),
    ("volume = 100", "volume = 300", r":15: voice\.volume: 300 is not accepted; use 0 to 200, per cent of"),
    ('language = "en"', 'language = "english please"', r":14: voice\.language: 'english please' is not accepted; "
                                                        r"name an espeak-ng voice"),
    ("volume = 100", "loudness = 100", r":15: voice\.loudness: unknown key; \[voice\] takes on, language, volume, "
                                       r"rate"),
])
def test_a_bad_voice_setting_names_its_line_and_fix(tmp_path, old, new, expected):
    path = tmp_path / "gameboard.toml"
    path.write_text(VOICED.replace(old, new), encoding="utf-8")
    with pytest.raises(ConfigError, match=expected):
        load_config(path)


def test_the_voice_is_off_unless_asked_and_read_when_given(tmp_path):
    path = tmp_path / "gameboard.toml"
    path.write_text(VOICED.replace("volume = 100", "volume = 80\nrate = 200"), encoding="utf-8")
    assert load_config(path).voice == VoiceConfig(on=True, language="en", volume=80, rate=200)
    path.write_text(VOICED.split("[voice]")[0], encoding="utf-8")
    assert load_config(path).voice == VoiceConfig() and not VoiceConfig().on


def test_a_voice_that_cannot_speak_is_one_warning_and_stays_silent(tmp_path, monkeypatch):
    path = tmp_path / "gameboard.toml"
    path.write_text(VOICED, encoding="utf-8")
    config = load_config(path)
    monkeypatch.setenv("PATH", str(tmp_path))  # a Pi without espeak-ng
    assert voice_warnings(config) == [f"{path}:13: voice.on: espeak-ng is not installed, so the board stays silent; "
                                      "install it (sudo apt install espeak-ng) or write on = false"]
    speaker = Speaker(config.voice)
    speaker.say("black to move")  # nothing to start, nothing raised: the daemon runs on
    assert speaker.program is None and speaker._speaking is None


def test_an_unknown_espeak_voice_is_a_warning_naming_its_line(espeak, tmp_path):
    path = tmp_path / "gameboard.toml"
    path.write_text(VOICED.replace('language = "en"', 'language = "xx-nowhere"'), encoding="utf-8")
    assert voice_warnings(load_config(path)) == [
        f"{path}:14: voice.language: espeak-ng has no voice 'xx-nowhere', so the board stays silent; name one that "
        '`espeak-ng --voices` lists, e.g. language = "en"']
    path.write_text(VOICED, encoding="utf-8")
    assert voice_warnings(load_config(path)) == []


# -- espeak-ng --------------------------------------------------------------------------------------

def rms(path: Path) -> tuple[float, float]:
    """The seconds of a 16-bit mono WAV and the root mean square of its samples."""
    with wave.open(str(path)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2), "espeak-ng writes 16-bit mono"
        samples = array.array("h", wav.readframes(wav.getnframes()))
        seconds = wav.getnframes() / wav.getframerate()
    return seconds, math.sqrt(sum(s * s for s in samples) / len(samples)) if samples else 0.0


@pytest.fixture
def espeak() -> str:
    found = shutil.which(ESPEAK)
    if found is None:
        pytest.skip(f"{ESPEAK} is not installed (Debian package {ESPEAK}): the voice's speech cannot be rendered")
    return found


def render(tmp_path: Path, voice: VoiceConfig, text: str) -> tuple[float, float]:
    path = tmp_path / f"{voice.language}-{voice.volume}.wav"
    subprocess.run(Speaker(voice).command(text, wav=path), check=True, capture_output=True, timeout=30)
    return rms(path)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_voice_renders_to_a_wav_that_is_not_silent(espeak, tmp_path, language):
    seconds, loudness = render(tmp_path, VoiceConfig(on=True, language=language), "white (computer): put a white on p7")
    assert seconds > 0.5 and loudness > AUDIBLE_RMS, (seconds, loudness)


def test_the_volume_setting_reaches_espeak(espeak, tmp_path):
    text = "game over: three in a row; won by black"
    quiet = render(tmp_path, VoiceConfig(on=True, volume=0), text)[1]
    normal = render(tmp_path, VoiceConfig(on=True, volume=100), text)[1]
    loud = render(tmp_path, VoiceConfig(on=True, volume=200), text)[1]
    assert quiet < AUDIBLE_RMS < normal < loud, (quiet, normal, loud)
