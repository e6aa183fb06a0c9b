"""``gameboard wiring``: check a wiring file, or print a board's example."""

from __future__ import annotations

import argparse
from pathlib import Path

from firmware_host.commands.arguments import BOARD_HELP, board_name
from wiring.examples import example_text
from wiring.files import read_wiring


def register(subparsers: argparse._SubParsersAction) -> None:
    wiring = subparsers.add_parser("wiring", help="check wiring files, print example ones")
    sub = wiring.add_subparsers(dest="wiring_command", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="list every problem of a wiring file, each with its line",
                           description="Every location mapped exactly once, no channel or LED used twice, indices "
                                       "in range, analog thresholds ordered. Exits 1 when anything is wrong.")
    check.add_argument("file", type=Path)
    check.set_defaults(handler=check_file)
    example = sub.add_parser("example", help="print a board's example wiring file (docs/wiring.md explains it)")
    example.add_argument("board", type=board_name, help=BOARD_HELP)
    example.set_defaults(handler=print_example)


def check_file(args: argparse.Namespace) -> int:
    source = read_wiring(args.file)
    problems = source.all_problems()
    for problem in problems:
        print(problem.render(source.path))
    if problems:
        print(f"{source.path}: {len(problems)} problem(s)")
        return 1
    wiring = source.wiring
    leds = sum(len(leds) for leds in wiring.leds.values())
    print(f"{source.path}: ok: {wiring.board} board, {len(wiring.channels)} locations on {wiring.sensing} channels"
          f" (of {wiring.sensor_channels}), {leds} LEDs on {len(wiring.strip_lengths)} strip(s)")
    return 0


def print_example(args: argparse.Namespace) -> int:
    print(example_text(args.board), end="")
    return 0
