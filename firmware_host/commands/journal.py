"""``gameboard journal``: check a game journal, and salvage the games of a damaged one."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from pathlib import Path

from engine.errors import GameboardError
from engine.registry import game_class
from firmware_host.journal import JournalError
from firmware_host.salvage import GameReading, JournalReading, crash_log, read_journal, write_salvage


def register(subparsers: argparse._SubParsersAction) -> None:
    journal = subparsers.add_parser(
        "journal", help="check a game journal, or salvage a damaged one",
        description="Read a journal as far as SQLite can and replay every game through the engine.")
    sub = journal.add_subparsers(dest="journal_command", metavar="ACTION", required=True)

    check = sub.add_parser("check", help="report each game and its first problem; exit 1 on damage")
    check.add_argument("path", type=Path, metavar="PATH", help="the journal file")
    check.set_defaults(handler=check_journal)

    salvage = sub.add_parser("salvage", help="copy each game, up to its first lost or refused move, to a new journal")
    salvage.add_argument("path", type=Path, metavar="PATH", help="the journal file (only read)")
    salvage.add_argument("-o", "--output", type=Path, help="the new journal (default: PATH.salvaged); never overwritten")
    salvage.set_defaults(handler=salvage_journal)


def check_journal(args: argparse.Namespace) -> int:
    """Exit 0 for a sound journal, 1 for any damage, and for a file that cannot be read as a journal at all."""
    try:
        reading = read_journal(args.path)
    except JournalError as exc:
        print(exc)
        return 1
    for game in reading.games:
        status = "unfinished" if game.record.finished is None else f"finished ({game.record.result})"
        line = f"game {game.record.id}: {game.name or '?'}{deal_of(game)}, {game.total} moves, {status}"
        print(f"{line}; {game.problem}" if game.problem else line)
    print_losses(reading)
    if reading.finding:
        print(f"SQLite's quick_check: {reading.finding}")
    if reading.damaged:
        print(f"{args.path}: damaged; salvage its games with `gameboard journal salvage {args.path}`")
        return 1
    print(f"{args.path}: ok: {len(reading.games)} games, {moves_in(reading.games)} moves")
    return 0


def salvage_journal(args: argparse.Namespace) -> int:
    source: Path = args.path
    output: Path = args.output or source.with_name(f"{source.name}.salvaged")
    if output.exists():
        raise GameboardError(f"{output} exists: the salvage writes a new file only; give -o another name")
    reading = read_journal(source)
    write_salvage(reading, output)
    for game in reading.games:
        if game.name is None:
            print(f"game {game.record.id}: dropped: {game.problem}")
        elif game.problem:
            count = len(game.record.moves)
            print(f"game {game.record.id}: kept {count}{f' of {game.total}' if game.total > count else ''} moves; "
                  f"{game.problem}")
        else:
            print(f"game {game.record.id}: kept all {game.total} moves")
    print_losses(reading)
    kept = [game for game in reading.games if game.name is not None]
    # A write-ahead log left by a crash belongs to the old file: a new file beside it would take it up.
    log = crash_log(source)
    with_log = f" && mv {log} {source}.bad-wal" if log else ""
    print(f"wrote {output}: {len(kept)} games, {moves_in(kept)} moves; to play on from it, stop the daemon and "
          f"put it in place: mv {source} {source}.bad{with_log} && mv {output} {source}")
    return 0


def deal_of(game: GameReading) -> str:
    """" (seed N)" for a game whose set-up was dealt from a seed (``Game.deal_option``): ``--option seed=N``
    deals it again; "" for any other."""
    if game.name is None:
        return ""
    option = game_class(game.name).deal_option
    options = json.loads(game.record.setup).get("options", {})
    return f" ({option} {options[option]})" if option is not None and option in options else ""


def print_losses(reading: JournalReading) -> None:
    """What is lost beyond the games listed: games known only by their moves, tables with unreadable rows."""
    for game_id in reading.lost_games:
        print(f"game {game_id}: its own row is unreadable")
    for table in reading.damaged_tables:
        print(f"{table}: some rows are unreadable")


def moves_in(games: Iterable[GameReading]) -> int:
    return sum(len(game.record.moves) for game in games)
