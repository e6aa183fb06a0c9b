"""The guided calibration: from a soldered board to a wiring file, one piece at a time.

The tool knows the board's locations but not how the builder soldered it.  Steps:

1. empty board: each channel's reading with no piece; stuck channels are reported;
2. sensors: for each location the terminal names it (the LEDs light it where their
   order is already known) and the person puts a piece there: the one channel that
   changed is that location's;
3. LEDs: each LED in turn lights alone and the person puts the piece under it: the
   channel that answers says which location that LED lights;
4. chase: a light runs along each strip so the person can see its order;
5. classes (analog Hall sensors): the other piece classes are put on the lit
   locations a handful at a time, and each channel gets bands with margins.

The person's side (what to do next, which key they pressed) is the ``Person``
interface (``questions.py``): the command gives a terminal, tests give a scripted person acting on the
mock board.  Every finding is saved before the next question (``progress.py``):
Ctrl-C or ``q`` stops, and rerunning continues.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from engine.board import Board
from firmware_host.calibration.analog import class_step, measured_calibration
from firmware_host.calibration.bringup import chase, show_leds
from firmware_host.calibration.progress import Progress, kept_note, load_progress, progress_path, save_progress
from firmware_host.calibration.questions import (AGAIN, CARRY_ON, MOVE, NO, QUIT, READ, SKIP, YES, Ask,
                                                 CalibrationPaused, Person, listed, where)
from firmware_host.calibration.readings import EmptyBoard, Reading, read_steady
from firmware_host.calibration.start import CalibrationSetupError
from hal.base import LedSink, SensorArray
from wiring.check import Problem, check_wiring
from wiring.files import save_wiring
from wiring.model import Wiring


@dataclass(frozen=True)
class Settings:
    """How the calibration reads and groups its work."""

    samples: int = 5  # scans per reading; the median is kept
    min_change: float = 10.0  # analog counts a piece must move a channel, at the least
    pieces: int = 8  # pieces of one class at hand, lit and placed at once in the class step
    keep_leds: bool = False  # trust the starting wiring's LEDs: no LED step
    chase_pause: float = 0.05  # seconds each LED of a chase stays lit


@dataclass
class Result:
    """The wiring written, where, what needs attention, and what ``wiring check`` says of it."""

    wiring: Wiring
    path: Path
    backup: Path | None
    notes: list[str]
    problems: list[Problem] = field(default_factory=list)


class Calibration:
    """One calibration run of ``board`` on the given hardware, writing ``output``.

    ``start`` is the wiring to begin from (an earlier file, or the board's example):
    its LED order lights locations before the LED step and its piece classes name
    the classes to measure.
    """

    def __init__(self, board: Board, sensors: SensorArray, leds: LedSink, person: Person, output: Path,
                 start: Wiring, settings: Settings = Settings(), pause: Callable[[float], None] = time.sleep,
                 redo: Sequence[str] = ()) -> None:
        self.board = board
        self.sensors = sensors
        self.leds = leds
        self.person = person
        self.output = Path(output)
        self.start = start
        self.settings = settings
        self.pause = pause
        self.strips = list(leds.strip_lengths)
        self.progress_file = progress_path(self.output)
        fresh = Progress(board=board.name, sensing=sensors.kind, channels=sensors.channels, strips=self.strips,
                         classes=list(start.classes) if sensors.kind == "analog" else [],
                         redo=self._checked_redo(redo))
        if fresh.redo and not self.progress_file.exists():
            fresh = self._redo_only(fresh, fresh.redo)
        self.progress = load_progress(self.progress_file, fresh)
        self.empty: EmptyBoard | None = None

    def _checked_redo(self, redo: Sequence[str]) -> list[str]:
        """The ``--redo`` locations in the board's order, each once; any not on the board is refused, always."""
        unknown = [location for location in redo if location not in self.board.locations]
        if unknown:
            name = self.board.name
            raise CalibrationSetupError(f"--redo: {listed(unknown)} not on the {name} board; give location ids"
                                        f" as `gameboard board draw {name} -o board.svg --ids` shows them")
        return [location for location in self.board.locations if location in redo]

    def _redo_only(self, fresh: Progress, redo: Sequence[str]) -> Progress:
        """Progress that keeps the starting file but for ``redo``: only those locations (and their LEDs) are asked."""
        fresh.mapped = {loc: channel for loc, channel in self.start.channel_of.items()
                        if loc in self.board.locations and loc not in redo}
        fresh.leds = {loc: [list(led) for led in leds] for loc, leds in self._start_leds().items()
                      if loc in fresh.mapped}
        fresh.strips_checked = list(range(len(self.strips)))
        fresh.kept = sorted(channel for channel in fresh.mapped.values() if channel in self.start.calibration)
        return fresh

    # -- the run -------------------------------------------------------------------

    def run(self) -> Result:
        """Walk every step not yet done, then write the wiring file (and drop the progress)."""
        if self.progress.sensing == "analog" and not self.progress.classes:
            raise CalibrationSetupError("analog sensors need the piece classes to measure: give them as"
                                        " --classes black=north,white=south (piece code = class)")
        try:
            self._empty_step()
            self._sensor_step()
            self._led_step()
            self._chase_step()
            for piece_class in self.progress.classes[1:]:
                class_step(self, piece_class, self.settings.pieces)
        finally:
            show_leds(self.leds, [])
        return self._finish()

    def save(self) -> None:
        """Keep what is found so far (before the next question)."""
        save_progress(self.progress_file, self.progress)

    def ask(self, question: Ask) -> str:
        """The person's answer to ``question``; ``q`` pauses the calibration."""
        key = self.person.ask(question)
        if key == QUIT:
            raise CalibrationPaused(f"stopped; {kept_note(self.progress_file)}")
        return key

    # -- 1. the empty board ----------------------------------------------------------

    def _empty_step(self) -> None:
        progress = self.progress
        if not progress.empty:
            self.ask(Ask("empty", "Take every piece off the board; press Enter when it is empty.",
                          {READ: "read the empty board", QUIT: "stop"}))
            while True:
                empty = EmptyBoard(progress.sensing, tuple(read_steady(self.sensors, self.settings.samples)),
                                   self.settings.min_change)
                stuck = empty.stuck()
                if not stuck:
                    break
                self.person.tell(f"Channels {listed(stuck)} read a piece with the board empty: stuck sensors"
                                 " (always on), or a piece still on the board.")
                key = self.ask(Ask("empty", "Press Enter to read again, or c to carry on without these channels.",
                                    {READ: "read again", CARRY_ON: "leave these channels out", QUIT: "stop"}))
                if key == CARRY_ON:
                    progress.excluded = stuck
                    progress.note(f"stuck channels (on with the board empty), left out: {listed(stuck)}")
                    break
            progress.empty = {str(channel): reading.as_sample() for channel, reading in enumerate(empty.readings)}
            self.save()
        readings = tuple(Reading(*progress.empty[str(channel)]) for channel in range(progress.channels))
        self.empty = EmptyBoard(progress.sensing, readings, self.settings.min_change)

    def pieces_on(self) -> dict[int, Reading]:
        """The channels that see a piece now (stuck ones left out)."""
        assert self.empty is not None
        return self.empty.changed(read_steady(self.sensors, self.settings.samples), frozenset(self.progress.excluded))

    # -- 2. one location at a time ---------------------------------------------------------

    def _sensor_step(self) -> None:
        progress = self.progress
        total = len(self.board.locations)
        while pending := [loc for loc in self.board.locations
                          if loc not in progress.mapped and loc not in progress.skipped]:
            self._map_location(pending[0], total - len(pending), total)
        dead = [channel for channel in range(progress.channels)
                if channel not in progress.used_channels and channel not in progress.excluded]
        if dead:
            progress.note(f"channels that never answered a location (dead sensors, or spare channels): {listed(dead)}")

    def _map_location(self, location: str, done: int, total: int) -> None:
        progress = self.progress
        piece = f"a {progress.classes[0]} piece" if progress.classes else "a piece"
        self.light([location])
        text = (f"Put {piece} on {where(self.board, location)}, lit on the board if its LEDs are known;"
                " no other piece on the board. Enter when it is down.")
        choices = {READ: "read the sensors", SKIP: f"skip {location} (no sensor answers it)", QUIT: "stop"}
        offer: tuple[int, str, Reading] | None = None
        while True:
            ask = Ask("sensors", text, dict(choices, **({MOVE: f"give the channel to {location}"} if offer else {})),
                      done, total, (location,), progress.classes[0] if progress.classes else None)
            key = self.ask(ask)
            if key == SKIP:
                progress.skipped.append(location)
                progress.note(f"{location} skipped: no channel answered it; its sensor may be dead")
                self.save()
                return
            if key == MOVE and offer:
                channel, other, reading = offer
                del progress.mapped[other]
                progress.note(f"channel {channel} was recorded for {other}, then given to {location}:"
                              f" {other} was asked again")
                return self._record(location, channel, reading)
            on = self.pieces_on()
            used = progress.used_channels
            new = [channel for channel in on if channel not in used]
            known = {channel: used[channel] for channel in on if channel in used}
            if len(new) == 1 and not known:
                return self._record(location, new[0], on[new[0]])
            offer = None
            if not on:
                self.person.tell(f"No channel sees a piece. Check that the piece is on {location}; if it is,"
                                 " its sensor is dead or unplugged: press s to skip it.")
            elif len(new) > 1:
                self.person.tell(f"Channels {listed(new)} all changed: two channels answer {location}"
                                 " (a wiring fault), or more than one piece is on the board. Leave one piece, on "
                                 f"{location}.")
            elif new:
                self.person.tell(f"Channel {new[0]} changed, but a piece is also on {listed(known.values())}:"
                                 " take it off.")
            else:
                channel, other = next(iter(known.items()))
                self.person.tell(f"Channel {channel} answered, but it already belongs to {other}: is the piece on "
                                 f"{other} instead of {location}? Move it to {location}. If {other} was recorded"
                                 f" wrongly before, press m to give channel {channel} to {location} and redo {other}.")
                if len(known) == 1:
                    offer = (channel, other, on[channel])

    def _record(self, location: str, channel: int, reading: Reading) -> None:
        progress = self.progress
        progress.mapped[location] = channel
        if progress.classes:
            progress.readings.setdefault(progress.classes[0], {})[str(channel)] = reading.as_sample()
        self.save()
        self.person.tell(f"{location} = channel {channel}")

    # -- 3. which LEDs light which location ---------------------------------------------

    def _led_step(self) -> None:
        progress = self.progress
        every = [(strip, index) for strip, length in enumerate(self.strips) for index in range(length)]
        if self.settings.keep_leds and progress.leds_done < len(every):
            progress.leds = {loc: [list(led) for led in leds] for loc, leds in self._start_leds().items()}
            progress.leds_done = len(every)
            self.save()
        assigned = {tuple(led) for leds in progress.leds.values() for led in leds}
        for number in range(progress.leds_done, len(every)):
            if every[number] in assigned:  # kept from the file being replaced (a redo)
                continue
            self._map_led(every[number], number, len(every))
            progress.leds_done = number + 1
            self.save()
        progress.leds_done = len(every)
        unlit = [loc for loc in progress.mapped if not progress.leds.get(loc)]
        if unlit:
            progress.note(f"locations no LED lights: {listed(unlit)}")
        if progress.spare_leds:
            spare = listed(f"{strip}:{index}" for strip, index in progress.spare_leds)
            progress.note(f"LEDs skipped (over no location, or over a sensor left out): {spare}")

    def _map_led(self, led: tuple[int, int], done: int, total: int) -> None:
        progress = self.progress
        show_leds(self.leds, [led])
        text = (f"Put the piece where the light is (strip {led[0]}, LED {led[1]}); no other piece on the board."
                " Enter when it is down.")
        ask = Ask("leds", text, {READ: "read the sensors", SKIP: "skip this LED", QUIT: "stop"},
                  done, total, led=led)
        while True:
            if self.ask(ask) == SKIP:
                progress.spare_leds.append(list(led))
                return
            on = self.pieces_on()
            if len(on) == 1:
                channel = next(iter(on))
                location = progress.used_channels.get(channel)
                if location is None:
                    progress.note(f"LED {led[0]}:{led[1]} is over channel {channel}, which reads no location: left out")
                    return
                progress.leds.setdefault(location, []).append(list(led))
                self.person.tell(f"LED {led[0]}:{led[1]} lights {location}")
                return
            if on:
                where = [progress.used_channels.get(c, f"channel {c}") for c in on]
                self.person.tell(f"Pieces stand on {listed(where)}: leave one, under the light.")
            else:
                self.person.tell("No channel sees a piece: put it where the light is. If it is there, the"
                                 " location's sensor was left out (stuck or skipped), or the LED lights no"
                                 " location: press s.")

    # -- 4. a light along each strip ---------------------------------------------------

    def _chase_step(self) -> None:
        progress = self.progress
        lit_by = {tuple(led): loc for loc, leds in progress.leds.items() for led in leds}
        for strip, length in enumerate(self.strips):
            if strip in progress.strips_checked:
                continue
            order = [lit_by[strip, index] for index in range(length) if (strip, index) in lit_by]
            path = f"from {order[0]} to {order[-1]}" if order else "over no location"
            while True:
                chase(self.leds, strip, self.pause, self.settings.chase_pause)
                key = self.ask(Ask("chase", f"A light ran along strip {strip} ({length} LEDs), {path}."
                                    " Did it run along the strip in order, one location at a time?",
                                    {YES: "yes", NO: "no, something is off", AGAIN: "show it again", QUIT: "stop"},
                                    len(progress.strips_checked), len(self.strips)))
                if key != AGAIN:
                    break
            if key == NO:
                progress.note(f"strip {strip}: the chase looked wrong; check its data line, power and solder joints")
            progress.strips_checked.append(strip)
            self.save()

    # -- the file ------------------------------------------------------------------

    def _finish(self) -> Result:
        progress = self.progress
        wiring = Wiring(
            board=self.board.name, sensing=progress.sensing,
            channels={channel: loc for loc, channel in progress.mapped.items()},
            leds={loc: tuple(tuple(led) for led in progress.leds[loc]) for loc in self.board.locations
                  if progress.leds.get(loc)},
            strip_lengths=tuple(self.strips), calibration=measured_calibration(progress, self.start, self.empty),
            piece_classes=dict(self.start.piece_classes) if progress.sensing == "analog" else {},
            sensor_channels=progress.channels)
        skipped = [loc for loc in self.board.locations if loc in progress.skipped]
        if skipped:
            progress.note(f"locations without a channel: {listed(skipped)}; after fixing their sensors run"
                          f" `gameboard calibrate --redo {','.join(skipped)}` (the file fails `gameboard wiring check`"
                          " until then)")
        note = "\n".join([f"Written by `gameboard calibrate` on {date.today().isoformat()}."]
                         + [f"Note: {text}" for text in progress.notes])
        backup = save_wiring(self.output, wiring, note)
        self.progress_file.unlink(missing_ok=True)
        problems = check_wiring(wiring, self.board, lambda *path: 0)
        for text in progress.notes:
            self.person.tell(f"Note: {text}")
        self.person.tell(f"Wrote {self.output}" + (f" (the previous file is {backup})" if backup else ""))
        return Result(wiring, self.output, backup, list(progress.notes), problems)

    # -- LEDs and words ------------------------------------------------------------

    def _start_leds(self) -> dict[str, tuple[tuple[int, int], ...]]:
        """The starting wiring's LEDs, where they fit these strips."""
        return {loc: leds for loc, leds in self.start.leds.items()
                if all(0 <= s < len(self.strips) and 0 <= i < self.strips[s] for s, i in leds)}

    def light(self, locations: Iterable[str]) -> None:
        """Light ``locations`` alone (as far as their LEDs are known)."""
        show_leds(self.leds, self._leds_of(locations))

    def _leds_of(self, locations: Iterable[str]) -> list[tuple[int, int]]:
        """The LEDs over ``locations``: found by the LED step once done, else the starting wiring's."""
        every = sum(self.strips)
        if self.progress.leds_done >= every:
            return [tuple(led) for loc in locations for led in self.progress.leds.get(loc, [])]
        start = self._start_leds()
        return [led for loc in locations for led in start.get(loc, ())]
