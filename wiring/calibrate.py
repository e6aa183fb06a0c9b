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
interface: the command gives a terminal, tests give a scripted person acting on the
mock board.  Every finding is saved before the next question (``wiring.progress``):
Ctrl-C or ``q`` stops, and rerunning continues.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Protocol

from engine.board import Board
from engine.errors import GameboardError
from hal.base import LedSink, SensorArray
from wiring.bringup import chase, show_leds
from wiring.check import Problem, check_wiring
from wiring.examples import example_path
from wiring.files import read_wiring, save_wiring
from wiring.model import ChannelCalibration, Wiring, straight_wiring
from wiring.progress import Progress, kept_note, load_progress, progress_path, save_progress
from wiring.readings import EmptyBoard, Reading, read_steady
from wiring.thresholds import Span, calibrate_channel

READ = ""  # the Enter key: "done, read the sensors"
SKIP = "s"
QUIT = "q"
MOVE = "m"
AGAIN = "r"
YES = "y"
NO = "n"
CARRY_ON = "c"

KIND_NAMES = {"point": "intersection", "face": "compartment", "center": "Center Square"}


@dataclass(frozen=True)
class Ask:
    """One question to the person: what to do, where, and the keys that answer it."""

    phase: str
    text: str
    choices: Mapping[str, str]
    done: int = 0
    total: int = 0
    locations: tuple[str, ...] = ()
    piece_class: str | None = None
    led: tuple[int, int] | None = None


class Person(Protocol):
    """The one calibrating: told what happens, asked to act and answer with a key."""

    def tell(self, text: str) -> None:
        """Show a finding or a problem."""

    def ask(self, question: Ask) -> str:
        """Wait until the person has acted; return one of ``question.choices``."""


class CalibrationSetupError(GameboardError, ValueError):
    """A calibration that cannot start as asked; the message gives the option to fix."""


class CalibrationPaused(Exception):
    """The person pressed ``q``: everything found so far is saved for the next run."""


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
            raise CalibrationSetupError(f"--redo: {_listed(unknown)} not on the {name} board; give location ids"
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
                self._class_step(piece_class)
        finally:
            show_leds(self.leds, [])
        return self._finish()

    def _save(self) -> None:
        save_progress(self.progress_file, self.progress)

    def _ask(self, question: Ask) -> str:
        key = self.person.ask(question)
        if key == QUIT:
            raise CalibrationPaused(f"stopped; {kept_note(self.progress_file)}")
        return key

    # -- 1. the empty board ----------------------------------------------------------

    def _empty_step(self) -> None:
        progress = self.progress
        if not progress.empty:
            self._ask(Ask("empty", "Take every piece off the board; press Enter when it is empty.",
                          {READ: "read the empty board", QUIT: "stop"}))
            while True:
                empty = EmptyBoard(progress.sensing, tuple(read_steady(self.sensors, self.settings.samples)),
                                   self.settings.min_change)
                stuck = empty.stuck()
                if not stuck:
                    break
                self.person.tell(f"Channels {_listed(stuck)} read a piece with the board empty: stuck sensors"
                                 " (always on), or a piece still on the board.")
                key = self._ask(Ask("empty", "Press Enter to read again, or c to carry on without these channels.",
                                    {READ: "read again", CARRY_ON: "leave these channels out", QUIT: "stop"}))
                if key == CARRY_ON:
                    progress.excluded = stuck
                    progress.note(f"stuck channels (on with the board empty), left out: {_listed(stuck)}")
                    break
            progress.empty = {str(channel): _sample(reading) for channel, reading in enumerate(empty.readings)}
            self._save()
        readings = tuple(Reading(*progress.empty[str(channel)]) for channel in range(progress.channels))
        self.empty = EmptyBoard(progress.sensing, readings, self.settings.min_change)

    def _pieces_on(self) -> dict[int, Reading]:
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
            progress.note(f"channels that never answered a location (dead sensors, or spare channels): {_listed(dead)}")

    def _map_location(self, location: str, done: int, total: int) -> None:
        progress = self.progress
        piece = f"a {progress.classes[0]} piece" if progress.classes else "a piece"
        show_leds(self.leds, self._leds_of([location]))
        text = (f"Put {piece} on {self._describe(location)}, lit on the board if its LEDs are known;"
                " no other piece on the board. Enter when it is down.")
        choices = {READ: "read the sensors", SKIP: f"skip {location} (no sensor answers it)", QUIT: "stop"}
        offer: tuple[int, str, Reading] | None = None
        while True:
            ask = Ask("sensors", text, dict(choices, **({MOVE: f"give the channel to {location}"} if offer else {})),
                      done, total, (location,), progress.classes[0] if progress.classes else None)
            key = self._ask(ask)
            if key == SKIP:
                progress.skipped.append(location)
                progress.note(f"{location} skipped: no channel answered it; its sensor may be dead")
                self._save()
                return
            if key == MOVE and offer:
                channel, other, reading = offer
                del progress.mapped[other]
                progress.note(f"channel {channel} was recorded for {other}, then given to {location}:"
                              f" {other} was asked again")
                return self._record(location, channel, reading)
            on = self._pieces_on()
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
                self.person.tell(f"Channels {_listed(new)} all changed: two channels answer {location}"
                                 " (a wiring fault), or more than one piece is on the board. Leave one piece, on "
                                 f"{location}.")
            elif new:
                self.person.tell(f"Channel {new[0]} changed, but a piece is also on {_listed(known.values())}:"
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
            progress.readings.setdefault(progress.classes[0], {})[str(channel)] = _sample(reading)
        self._save()
        self.person.tell(f"{location} = channel {channel}")

    # -- 3. which LEDs light which location ---------------------------------------------

    def _led_step(self) -> None:
        progress = self.progress
        every = [(strip, index) for strip, length in enumerate(self.strips) for index in range(length)]
        if self.settings.keep_leds and progress.leds_done < len(every):
            progress.leds = {loc: [list(led) for led in leds] for loc, leds in self._start_leds().items()}
            progress.leds_done = len(every)
            self._save()
        assigned = {tuple(led) for leds in progress.leds.values() for led in leds}
        for number in range(progress.leds_done, len(every)):
            if every[number] in assigned:  # kept from the file being replaced (a redo)
                continue
            self._map_led(every[number], number, len(every))
            progress.leds_done = number + 1
            self._save()
        progress.leds_done = len(every)
        unlit = [loc for loc in progress.mapped if not progress.leds.get(loc)]
        if unlit:
            progress.note(f"locations no LED lights: {_listed(unlit)}")
        if progress.spare_leds:
            spare = _listed(f"{strip}:{index}" for strip, index in progress.spare_leds)
            progress.note(f"LEDs skipped (over no location, or over a sensor left out): {spare}")

    def _map_led(self, led: tuple[int, int], done: int, total: int) -> None:
        progress = self.progress
        show_leds(self.leds, [led])
        text = (f"Put the piece where the light is (strip {led[0]}, LED {led[1]}); no other piece on the board."
                " Enter when it is down.")
        ask = Ask("leds", text, {READ: "read the sensors", SKIP: "skip this LED", QUIT: "stop"},
                  done, total, led=led)
        while True:
            if self._ask(ask) == SKIP:
                progress.spare_leds.append(list(led))
                return
            on = self._pieces_on()
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
                self.person.tell(f"Pieces stand on {_listed(where)}: leave one, under the light.")
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
                key = self._ask(Ask("chase", f"A light ran along strip {strip} ({length} LEDs), {path}."
                                    " Did it run along the strip in order, one location at a time?",
                                    {YES: "yes", NO: "no, something is off", AGAIN: "show it again", QUIT: "stop"},
                                    len(progress.strips_checked), len(self.strips)))
                if key != AGAIN:
                    break
            if key == NO:
                progress.note(f"strip {strip}: the chase looked wrong; check its data line, power and solder joints")
            progress.strips_checked.append(strip)
            self._save()

    # -- 5. the other classes of an analog board ---------------------------------------

    def _class_step(self, piece_class: str) -> None:
        progress = self.progress
        measured = progress.readings.setdefault(piece_class, {})
        skipped = progress.class_skipped.setdefault(piece_class, [])
        locations = [loc for loc, channel in progress.mapped.items() if channel not in progress.kept]
        while todo := [loc for loc in locations if str(progress.mapped[loc]) not in measured and loc not in skipped]:
            batch = todo[:self.settings.pieces]
            self._measure_batch(piece_class, batch, len(locations) - len(todo), len(locations))
        if skipped:
            progress.note(f"{piece_class} not measured on {_listed(skipped)}: no piece was seen there")

    def _measure_batch(self, piece_class: str, batch: list[str], done: int, total: int) -> None:
        progress = self.progress
        show_leds(self.leds, self._leds_of(batch))
        text = (f"Put a {piece_class} piece on each lit location ({len(batch)}: {_listed(batch)}) and take every"
                " other piece off. Enter when they are down.")
        ask = Ask("classes", text, {READ: "read the sensors", SKIP: "skip the lit locations that have no piece",
                                    QUIT: "stop"}, done, total, tuple(batch), piece_class)
        wanted = {progress.mapped[loc]: loc for loc in batch}
        while True:
            key = self._ask(ask)
            on = self._pieces_on()
            extra = [progress.used_channels.get(c, f"channel {c}") for c in on if c not in wanted]
            missing = [loc for channel, loc in wanted.items() if channel not in on]
            if extra:
                self.person.tell(f"Pieces stand on {_listed(extra)}, which are not lit: take them off.")
            elif missing and key != SKIP:
                self.person.tell(f"No piece seen on {_listed(missing)}: put a {piece_class} piece there,"
                                 " or press s to skip them.")
            else:
                break
        for channel in wanted:
            if channel in on:
                progress.readings[piece_class][str(channel)] = _sample(on[channel])
        progress.class_skipped[piece_class] += missing
        self._save()

    # -- the file ------------------------------------------------------------------

    def _finish(self) -> Result:
        progress = self.progress
        wiring = Wiring(
            board=self.board.name, sensing=progress.sensing,
            channels={channel: loc for loc, channel in progress.mapped.items()},
            leds={loc: tuple(tuple(led) for led in progress.leds[loc]) for loc in self.board.locations
                  if progress.leds.get(loc)},
            strip_lengths=tuple(self.strips), calibration=self._calibration(),
            piece_classes=dict(self.start.piece_classes) if progress.sensing == "analog" else {},
            sensor_channels=progress.channels)
        skipped = [loc for loc in self.board.locations if loc in progress.skipped]
        if skipped:
            progress.note(f"locations without a channel: {_listed(skipped)}; after fixing their sensors run"
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

    def _calibration(self) -> dict[int, ChannelCalibration]:
        progress = self.progress
        found = {}
        for location, channel in progress.mapped.items():
            if channel in progress.kept:
                found[channel] = self.start.calibration[channel]
                continue
            low_high = progress.empty[str(channel)][1:]
            spans = [Span(cls, *progress.readings[cls][str(channel)][1:]) for cls in progress.classes
                     if str(channel) in progress.readings.get(cls, {})]
            if not spans:
                continue
            assert self.empty is not None
            found[channel], warnings = calibrate_channel(Span("empty", *low_high), spans, self.empty.threshold(channel))
            for warning in warnings:
                progress.note(f"channel {channel} ({location}): {warning}")
        return dict(sorted(found.items()))

    # -- LEDs and words ------------------------------------------------------------

    def _start_leds(self) -> dict[str, tuple[tuple[int, int], ...]]:
        """The starting wiring's LEDs, where they fit these strips."""
        return {loc: leds for loc, leds in self.start.leds.items()
                if all(0 <= s < len(self.strips) and 0 <= i < self.strips[s] for s, i in leds)}

    def _leds_of(self, locations: Iterable[str]) -> list[tuple[int, int]]:
        """The LEDs over ``locations``: found by the LED step once done, else the starting wiring's."""
        every = sum(self.strips)
        if self.progress.leds_done >= every:
            return [tuple(led) for loc in locations for led in self.progress.leds.get(loc, [])]
        start = self._start_leds()
        return [led for loc in locations for led in start.get(loc, ())]

    def _describe(self, location: str) -> str:
        place = self.board.locations[location]
        x, y = place.xy
        return f"{location} ({KIND_NAMES.get(place.kind, place.kind)} at {x:.1f}, {y:.1f} on the board drawing)"


def start_wiring(board: Board, output: Path, piece_classes: Mapping[str, str] | None = None) -> Wiring:
    """What a calibration of ``board`` starts from: the file it will replace, else the board's example.

    ``piece_classes`` (piece code -> class) replaces the classes found there.
    """
    if output.exists():
        start = read_wiring(output).wiring
    elif example_path(board.name).exists():
        start = read_wiring(example_path(board.name)).wiring
    else:
        start = straight_wiring(board)
    if start.board != board.name:
        wired = f"the {start.board} board" if start.board else "no board"
        raise CalibrationSetupError(f"{output} wires {wired}, not {board.name};"
                                    " give another --output or move the file away")
    if piece_classes is not None:
        start.piece_classes = dict(piece_classes)
    return start


def parse_classes(text: str) -> dict[str, str]:
    """``"white=north,black=south"`` as {piece code: class}, for the command line."""
    found = {}
    for pair in filter(None, (item.strip() for item in text.split(","))):
        piece, equals, name = (part.strip() for part in pair.partition("="))
        if not (piece and equals and name) or name == "baseline":
            raise CalibrationSetupError(f"--classes {text!r}: write piece=class pairs separated by commas,"
                                        " e.g. white=north,black=south")
        found[piece] = name
    if not found:
        raise CalibrationSetupError(f"--classes {text!r} names no class: write piece=class pairs separated by commas,"
                                    " e.g. white=north,black=south")
    return found


def _sample(reading: Reading) -> list[float]:
    return [reading.value, reading.low, reading.high]


def _listed(items: Iterable[object]) -> str:
    return ", ".join(str(item) for item in items)
