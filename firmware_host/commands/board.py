"""``gameboard board``: list the boards, print their derived facts, draw them; their parts and schematics."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from engine.boards import board_names, load_board
from engine.core import IllegalMoveError, State
from engine.draw import WIDTHS, Overlay, svg
from engine.errors import GameboardError
from engine.registry import GAMES
from firmware_host.commands import board_parts, board_template
from firmware_host.commands.arguments import BOARD_HELP, add_option_argument, board_name, game_options


def register(subparsers: argparse._SubParsersAction) -> None:
    board = subparsers.add_parser("board", help="list, describe and draw the boards")
    sub = board.add_subparsers(dest="board_command", metavar="ACTION", required=True)

    listing = sub.add_parser("list", help="the boards and their titles")
    listing.set_defaults(handler=list_boards)

    info = sub.add_parser("info", help="the facts derived from a board's geometry")
    info.add_argument("board", type=board_name, help=BOARD_HELP)
    info.add_argument("--json", action="store_true", help="print JSON")
    info.set_defaults(handler=show_info)

    board_template.register(sub)  # template, route

    draw = sub.add_parser("draw", help="draw a board as SVG (or PNG with cairosvg installed)")
    draw.add_argument("board", type=board_name, help=BOARD_HELP)
    draw.add_argument("-o", "--output", required=True, type=Path, help="FILE.svg or FILE.png")
    draw.add_argument("--ids", action="store_true", help="label every location with its id")
    draw.add_argument("--game", choices=list(GAMES), metavar="GAME",
                      help="draw this game's starting position over the board (`gameboard games` lists them)")
    draw.add_argument("--moves", default="", metavar='"M1; M2; ..."',
                      help="with --game: draw the position after these moves, in the journal's notation, separated "
                           "by ';' (`gameboard games` shows each game's), the last one's places lit")
    add_option_argument(draw, "players=2")
    draw.add_argument("--width", type=pixel_width, default=900,
                      help=f"width in pixels, {WIDTHS.start} to {WIDTHS.stop - 1} (default 900)")
    draw.set_defaults(handler=draw_board)

    board_parts.register(sub)  # parts, schematic


def pixel_width(text: str) -> int:
    try:
        width = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of pixels") from None
    if width not in WIDTHS:
        raise argparse.ArgumentTypeError(f"{width} pixels: give a width from {WIDTHS.start} to {WIDTHS.stop - 1} "
                                         "(an SVG scales to any size)")
    return width


def list_boards(args: argparse.Namespace) -> int:
    for name in board_names():
        board = load_board(name)
        print(f"{name:12} {board.title} ({len(board.locations)} locations)")
    return 0


def show_info(args: argparse.Namespace) -> int:
    facts = load_board(args.board).facts()
    if args.json:
        print(json.dumps(facts, indent=2))
    else:
        for key, value in facts.items():
            print(f"{key:28} {value}")
    return 0


def draw_board(args: argparse.Namespace) -> int:
    suffix = args.output.suffix.lower()
    if args.output.is_dir() or suffix not in (".svg", ".png"):
        found = "a folder" if args.output.is_dir() else f"a {suffix} file" if suffix else "a name with no suffix"
        raise GameboardError(f"-o {args.output}: give a file to write ending in .svg or .png, not {found}")
    board = load_board(args.board)
    overlay = Overlay(show_ids=args.ids)
    if (args.moves or args.option) and not args.game:
        raise GameboardError("--moves and --option draw a game's position: name the game with --game GAME")
    if args.game:
        from engine import game_class

        game = game_class(args.game)(**game_options(args.option))
        if game.board_name != board.name:
            raise GameboardError(f"--game {args.game} is played on the {game.board_name} board, not {board.name}: "
                                 f"draw it with `gameboard board draw {game.board_name} --game {args.game} -o FILE`")
        state = game.new_initial_state()
        overlay.leds = played(state, args.moves)
        overlay.pieces = {k: v for k, v in state.contents().items() if v}
        overlay.piece_colours = game.pieces
    document = svg(board, overlay, width=args.width)
    if suffix == ".png":
        try:
            import cairosvg
        except ImportError:
            raise GameboardError("PNG output needs cairosvg: pip install cairosvg (or write FILE.svg)") from None
    try:
        if suffix == ".svg":
            args.output.write_text(document, encoding="utf-8")
        else:
            cairosvg.svg2png(bytestring=document.encode(), write_to=str(args.output))
    except OSError as exc:
        raise GameboardError(f"{args.output}: cannot write the drawing ({exc.strerror}); "
                             "give -o a file in an existing folder you can write") from None
    print(f"wrote {args.output}")
    return 0


def played(state: State, moves: str) -> dict[str, tuple[int, int, int]]:
    """Play ``moves`` ("M1; M2; ...") on ``state``; the last one's places, lit as the board lights the last move.
    A move the position does not allow is refused with its number and the legal ones."""
    from firmware_host.presenter import PALETTE

    lit: frozenset[str] = frozenset()
    for number, text in enumerate(filter(None, (part.strip() for part in moves.split(";"))), 1):
        try:
            move = state.parse_move(text)
        except IllegalMoveError as exc:
            raise GameboardError(f"--moves: move {number}: {exc}") from None
        lit = frozenset(change.location for change in state.footprint(move).changes)
        state.push(move)
    return dict.fromkeys(lit, PALETTE["last_move"])
