"""``gameboard board parts`` and ``gameboard board schematic``: what to buy and how to wire it, for a board and a game."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.boards import board_names, load_board
from engine.errors import GameboardError
from engine.registry import GAMES, game_class
from firmware_host.commands.arguments import add_option_argument, game_options
from firmware_host.commands.board_template import add_scale_arguments, add_sensor_arguments, scaled_layout
from firmware_host.kit.parts import Kit, bill_of_materials, csv_text, markdown

PLACE_HELP = "a board (`gameboard board list`) or a game (`gameboard games`): a game names its board"


def register(sub: argparse._SubParsersAction) -> None:
    parts = sub.add_parser("parts", help="the bill of materials of a board built for a game (Markdown or CSV)",
                           description="Counts every part from the board's places and the game's pieces: sensors, "
                                       "magnets, chips, LEDs, resistors, capacitors, supply, fuse, buttons, wire.")
    _kit_arguments(parts)
    parts.add_argument("--leds", type=leds_per_place, default=1, metavar="per-place|N",
                       help="LEDs at each place: per-place (one, the default) or a number")
    parts.add_argument("--density", type=_whole(1, 1000, "LEDs a metre", "60"), default=60,
                       help="LEDs a metre of the strip they are cut from (default 60)")
    parts.add_argument("--budget", type=_whole(100, 100_000, "milliamps", "3000"), default=None, metavar="MA",
                       help="[leds] current_budget_ma the supply is sized for (default: every LED at full white, "
                            "at most 3000)")
    parts.add_argument("--format", choices=("markdown", "csv"), default="markdown", help="default markdown")
    parts.add_argument("-o", "--output", type=Path, default=None, help="write to FILE instead of printing")
    parts.set_defaults(handler=show_parts)

    schematic = sub.add_parser("schematic", help="the wiring diagram of a front-end as SVG, with the default pins",
                               description="Draws how the sensor chips, the LED strips and the buttons connect "
                                           "to the Pi (or the Pico), with the pins the default configuration expects.")
    _kit_arguments(schematic)
    schematic.add_argument("-o", "--output", type=Path, required=True, help="FILE.svg")
    schematic.set_defaults(handler=draw_schematic)


def _kit_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("board", metavar="BOARD", type=board_or_game, help=PLACE_HELP)
    parser.add_argument("--game", choices=list(GAMES), metavar="GAME",
                        help="the game whose pieces to count (default: the game BOARD names, else the board's first)")
    add_option_argument(parser, "players=4")
    add_sensor_arguments(parser)
    add_scale_arguments(parser)


def board_or_game(text: str) -> tuple[str, str | None]:
    """BOARD: (board, game) for a game's name, (board, None) for a board's."""
    if text in board_names():
        return text, None
    if text in GAMES:
        return game_class(text).board_name, text
    raise argparse.ArgumentTypeError(f"{text!r} is neither a board ({', '.join(board_names())}) "
                                     "nor a game (`gameboard games` lists them)")


def leds_per_place(text: str) -> int:
    if text == "per-place":
        return 1
    return _whole(1, 16, "LEDs a place", "per-place")(text)


def _whole(low: int, high: int, what: str, example: str):
    def whole(text: str) -> int:
        if not text.isdigit() or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"{text!r}: give {what} as a whole number from {low} to {high}, "
                                             f"e.g. {example}")
        return int(text)
    return whole


def chosen_kit(args: argparse.Namespace, **extra) -> Kit:
    """The kit the options describe; a game on another board is refused with the command that fits."""
    board_name, named_game = args.board
    game_name = args.game or named_game or next(name for name in GAMES if game_class(name).board_name == board_name)
    game_type = game_class(game_name)
    if game_type.board_name != board_name:
        raise GameboardError(f"--game {game_name} is played on the {game_type.board_name} board, not {board_name}: "
                             f"give BOARD {game_type.board_name} (or the game's name)")
    return Kit(load_board(board_name), game_type(**game_options(args.option)), args.sensors, args.front_end,
               layout=scaled_layout(args, board_name), **extra)


def show_parts(args: argparse.Namespace) -> int:
    kit = chosen_kit(args, leds_per_place=args.leds, density=args.density, budget_ma=args.budget)
    bill = bill_of_materials(kit)
    text = csv_text(bill) if args.format == "csv" else markdown(bill)
    return _deliver(text, args.output)


def draw_schematic(args: argparse.Namespace) -> int:
    from firmware_host.kit.schematic import schematic_svg

    if args.output.suffix.lower() != ".svg" or args.output.is_dir():
        raise GameboardError(f"-o {args.output}: give a file to write ending in .svg")
    return _deliver(schematic_svg(bill_of_materials(chosen_kit(args))), args.output)


def _deliver(text: str, output: Path | None) -> int:
    if output is None:
        print(text, end="")
        return 0
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise GameboardError(f"{output}: cannot write it ({exc.strerror}); give -o a file in a folder you can "
                             "write") from None
    print(f"wrote {output}")
    return 0
