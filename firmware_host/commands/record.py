"""``gameboard record``: export a journal's game as a record, check a record, import one to play on, and replay
one on the LEDs of an idle board (docs/records.md)."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from engine.core import CHANCE, TERMINAL, State
from engine.draw import Overlay, svg
from engine.errors import GameboardError
from engine.record import Record, RecordError, Stepper, option_words, parse_record, replay, write_record
from firmware_host.commands.arguments import at_least
from firmware_host.commands.calibrate import opened_hal
from firmware_host.commands.run import default_config
from firmware_host.commands.sim import state_dir

#: The simulator's journal of games played alone (``gameboard sim``'s default).
SIM_JOURNAL = "sim-journal.sqlite3"


def register(subparsers: argparse._SubParsersAction) -> None:
    record = subparsers.add_parser(
        "record", help="game records: export, check, import and replay a game",
        description="A game as text: a header (game, options, seats, result, date) and its moves in the game's "
                    "notation (docs/records.md).")
    sub = record.add_subparsers(dest="record_command", metavar="ACTION", required=True)

    export = sub.add_parser("export", help="write a journal's game as a record",
                            description="The game under way in the journal, else its last; --game picks another "
                                        "(`gameboard journal check` lists them).")
    add_journal_arguments(export)
    export.add_argument("--game", type=int, metavar="N", help="the journal's game N")
    export.add_argument("-o", "--output", type=Path, metavar="FILE", help="the record's file (default: print it)")
    export.set_defaults(handler=export_record)

    check = sub.add_parser("check", help="read a record, replay it through the engine and print its last position")
    check.add_argument("file", type=Path, metavar="FILE", help="the record")
    check.add_argument("--ply", type=int, metavar="N", help="print the position after move N instead")
    check.add_argument("--svg", type=Path, metavar="OUT", help="also draw that position, the move's places lit")
    check.set_defaults(handler=check_record)

    into = sub.add_parser("import", help="check a record and write it into a journal, to play on from it",
                          description="The record becomes the journal's newest game: a game not over resumes "
                                      "there in `gameboard sim` (or on the board, in its journal). Stop a daemon "
                                      "using the journal first.")
    into.add_argument("file", type=Path, metavar="FILE", help="the record")
    add_journal_arguments(into)
    into.set_defaults(handler=import_record)

    leds = sub.add_parser("replay", help="step through a game on the LEDs of an idle board",
                          description="Lights the position after each move: every piece's place dim in its "
                                      "colour, the move's places in the last-move colour. The board's buttons "
                                      "step (end turn or confirm: next, undo: back, hint: the last move, new game: "
                                      "stop). No daemon may be using the board: on the Pi, stop the service first.")
    leds.add_argument("file", type=Path, nargs="?", metavar="FILE",
                      help="the record (default: the configured journal's game under way, else its last)")
    leds.add_argument("--config", type=Path, default=None, help=f"the board's configuration (default: "
                                                                 f"{default_config()})")
    leds.add_argument("--game", type=int, metavar="N", help="without FILE: the journal's game N")
    leds.add_argument("--ply", type=int, default=0, metavar="N", help="start after move N (default 0: the start)")
    leds.add_argument("--seconds", type=at_least(0), metavar="S",
                      help="step forward on its own, S seconds a move, to the end (no buttons)")
    leds.set_defaults(handler=replay_on_leds)


def add_journal_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--journal", type=Path, metavar="PATH",
                       help=f"the journal (default: the simulator's, {state_dir() / SIM_JOURNAL})")
    where.add_argument("--config", type=Path, metavar="FILE",
                       help="a board's configuration: its [journal] path, and its seats for its game")


def journal_and_seats(args: argparse.Namespace, game: str | None = None) -> tuple[Path, tuple[str, ...], str]:
    """The journal the arguments name, the seats known for ``game`` (a configuration's, for its own game) and
    the configuration's game."""
    if args.config is None:
        return args.journal or state_dir() / SIM_JOURNAL, (), ""
    from firmware_host.validation import checked_config

    config = checked_config(args.config, wiring=False, journal=False)
    seats = tuple(str(seat) for seat in config.seats) or ("human",) * config.game().num_players
    return config.journal_path, seats, config.game_name


def export_record(args: argparse.Namespace) -> int:
    from firmware_host.records import journal_record

    path, seats, configured = journal_and_seats(args)
    record = journal_record(path, args.game)
    if record.game == configured:
        record = journal_record(path, args.game, seats)
    text = write_record(record)
    if args.output is None:
        print(text, end="")
        return 0
    try:
        args.output.write_text(text)
    except OSError as exc:
        raise GameboardError(f"{args.output}: cannot write the record ({exc.strerror}); give -o a file in a folder "
                             "you can write") from None
    print(f"wrote {args.output}: {record.game}, {len(record.moves)} moves, {record.result}")
    return 0


def read_record(path: Path) -> Record:
    """The record in the file, its mistakes named by file and line."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise GameboardError(f"{path}: cannot read the record ({why})") from None
    try:
        return parse_record(text)
    except RecordError as exc:
        raise GameboardError(f"{path}: {exc}") from None


def replayed(path: Path, record: Record) -> State:
    try:
        return replay(record)
    except RecordError as exc:
        raise GameboardError(f"{path}: {exc}") from None


def check_record(args: argparse.Namespace) -> int:
    record = read_record(args.file)
    state = replayed(args.file, record)
    stepper = Stepper(state)
    if args.ply is not None and not 0 <= args.ply <= stepper.plies:
        raise GameboardError(f"--ply {args.ply}: the record has moves 1 to {stepper.plies}; give one of them "
                             "(0: the start)")
    shown = stepper.go(stepper.plies if args.ply is None else args.ply)
    game = state.game
    options = option_words(game.options)
    print(f"{args.file}: ok: {game.title} ({game.name}{', ' + options if options else ''}), "
          f"{stepper.plies} moves, {'the game goes on' if shown.result == '*' else shown.result}")
    after = f"after move {shown.ply} ({shown.move})" if shown.ply else "at the start"
    print(f"position {after}{turn_words(state)}:")
    for piece, places in pieces_by_code(shown.contents).items():
        print(f"  {piece}: {' '.join(places)}")
    if args.svg is not None:
        from firmware_host.presenter import PALETTE

        overlay = Overlay(pieces={loc: content for loc, content in shown.contents.items() if content},
                          leds=dict.fromkeys(shown.places, PALETTE["last_move"]), piece_colours=game.pieces)
        try:
            args.svg.write_text(svg(game.board, overlay))
        except OSError as exc:
            raise GameboardError(f"{args.svg}: cannot write the drawing ({exc.strerror})") from None
        print(f"drew {args.svg}")
    return 0


def turn_words(state: State) -> str:
    """", white to move", ", the dice to roll" or "" once the game is over."""
    player = state.current_player
    if player == TERMINAL:
        return ""
    if player == CHANCE:
        return ", the dice to roll"
    return f", {state.game.player_name(player)} to move"


def pieces_by_code(contents: dict[str, str | None]) -> dict[str, list[str]]:
    """Each content (a piece or a stack) -> the places holding it, in the board's order."""
    found: dict[str, list[str]] = {}
    for location, content in contents.items():
        if content:
            found.setdefault(content, []).append(location)
    return found


def import_record(args: argparse.Namespace) -> int:
    from firmware_host.records import into_journal

    record = read_record(args.file)
    replayed(args.file, record)
    path, _, configured = journal_and_seats(args)
    game_id, closed = into_journal(record, path)
    if closed is not None:
        print(f"{path}: its game {closed} under way is closed (as a new game closes it; "
              f"`gameboard record export --journal {path} --game {closed}` writes it out)")
    print(f"{path}: game {game_id}: {record.game}, {len(record.moves)} moves, {record.result}")
    if record.result != "*" and record.result != "?":
        return 0
    if args.config is not None:
        where = ("restart the daemon: it resumes it" if record.game == configured
                 else f"configure [game] name = \"{record.game}\" with its options, then restart the daemon")
    else:
        options = "".join(f" --option {pair}" for pair in option_words(record.options).split())
        where = f"gameboard sim {record.game}{options} --journal {path}"
    print(f"to play on: {where}")
    return 0


def replay_on_leds(args: argparse.Namespace) -> int:
    from firmware_host.led_replay import LedReplay
    from firmware_host.presenter import Presenter
    from firmware_host.records import journal_record
    from firmware_host.validation import check_opened_hal, checked_config

    config = checked_config(args.config or default_config(), journal=False)
    if args.file is not None:
        record = read_record(args.file)
    elif not config.journal_path.is_file():
        raise GameboardError(f"{config.journal_path} (the [journal] path of {config.path}) holds no game yet: give "
                             "a record FILE to replay")
    else:
        record = journal_record(config.journal_path, args.game)
    state = replayed(args.file or config.journal_path, record)
    if state.game.board_name != config.game().board_name:
        raise GameboardError(f"{record.game} is played on the {state.game.board_name} board, this board is "
                             f"{config.game().board_name} ({args.config or default_config()})")
    stepper = Stepper(state)
    if not 0 <= args.ply <= stepper.plies:
        raise GameboardError(f"--ply {args.ply}: the game has moves 1 to {stepper.plies}; give one (0: the start)")
    wiring = config.load_wiring()
    presenter = Presenter(wiring, config.brightness, config.current_budget_ma, config.ma_per_led)
    with opened_hal(config) as hal:
        check_opened_hal(config, wiring, hal)
        replay = LedReplay(stepper, hal.leds, presenter, state.game.pieces, lambda line: print(line, flush=True))
        if args.seconds is not None:
            replay.by_clock(time.sleep, args.ply, args.seconds)
        elif hal.buttons is None:
            raise GameboardError("this board has no buttons configured to step with: give --seconds S to step "
                                 "on its own")
        else:
            replay.by_buttons(hal.buttons, time.sleep, args.ply)
    return 0
