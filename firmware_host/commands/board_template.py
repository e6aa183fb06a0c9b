"""``gameboard board template`` and ``gameboard board route``: a board at true scale, and its wiring plan."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from engine.boards import load_board
from engine.errors import GameboardError
from firmware_host.commands.arguments import BOARD_HELP, board_name
from firmware_host.kit.data import sensing, sensor_choices
from firmware_host.kit.pico import pico_settings
from wiring.files import WiringFileError, save_wiring
from wiring.kit.data import ROUTES, KitError, board_kit, front_end, front_end_names
from wiring.kit.drawing import template_drawing
from wiring.kit.layout import Layout, checked_layout
from wiring.kit.pdf import full_size
from wiring.kit.plan import Plan
from wiring.kit.svg import svg_document
from wiring.kit.tiles import PAPERS, tiled


def register(sub: argparse._SubParsersAction) -> None:
    template = sub.add_parser("template", help="a drilling template at 1:1 (SVG, PDF, tiled on A4 and Letter)",
                              description="The board at true scale, no lens: lines to engrave, the outline to cut, a "
                                          "drill hole for each sensor and LED, labels, the LED strips' path "
                                          "(docs/template.md).")
    _scale_arguments(template)
    add_sensor_arguments(template)
    template.add_argument("-o", "--output", type=Path, default=Path("."), metavar="DIR",
                          help="the folder to write BOARD-template.svg/.pdf/-a4.pdf/-letter.pdf in (default: here)")
    template.set_defaults(handler=write_template)

    route = sub.add_parser("route", help="the wiring plan: sensor chain and LED strips along a route, with lengths",
                           description="Which chip and input reads each place and which LED lights it, in route "
                                       "order, with the wire to cut per segment; -o writes the wiring file "
                                       "`gameboard calibrate` then confirms (docs/template.md).")
    _scale_arguments(route)
    add_sensor_arguments(route)
    route.add_argument("-o", "--output", type=Path, metavar="FILE", help="write the wiring file (TOML) here")
    route.add_argument("--pico", type=Path, metavar="FILE",
                       help="with --front-end serial: write the Pico's settings (gameboard.json, docs/firmware.md) "
                            "for this plan here")
    route.set_defaults(handler=print_route)


def _front_end_names() -> str:
    """The front-ends kit.json lists, for the help; a broken kit.json is reported when a command reads it."""
    try:
        return ", ".join(front_end_names())
    except KitError:
        return "as wiring/kit/kit.json lists them"


def add_sensor_arguments(parser: argparse.ArgumentParser) -> None:
    """--sensors and --front-end, the same for the route, the parts list and the schematic."""
    parser.add_argument("--sensors", choices=sensor_choices(), default="reed",
                        help="reed switches, digital Hall switches, or linear Hall sensors read by an ADC "
                             "(default reed)")
    parser.add_argument("--front-end", default="hc165", metavar="FRONT_END",
                        help=f"what reads the sensors, as [sensors] driver names it: {_front_end_names()} "
                             "(serial: a Pico co-processor; default hc165); it sets how the LED route is cut "
                             "into strips (the Pi's at most 165 LEDs, the Pico's 1000)")


def add_scale_arguments(parser: argparse.ArgumentParser) -> None:
    """--size, --spacing and --clearance: how big the board is built, the same for every kit command."""
    scale = parser.add_mutually_exclusive_group()
    scale.add_argument("--size", metavar="LENGTH",
                       help="the outline's longer side, margins included, e.g. 610mm (mm, cm, m, in; default: the "
                            "board's size_mm in wiring/kit/kit.json)")
    scale.add_argument("--spacing", metavar="LENGTH", help="the distance between the two closest places, e.g. 30mm")
    parser.add_argument("--clearance", metavar="LENGTH",
                        help="refuse a size where drill centres of two places sit closer (default from "
                             "wiring/kit/kit.json: 8mm)")


def _scale_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("board", type=board_name, help=BOARD_HELP)
    add_scale_arguments(parser)
    parser.add_argument("--route", choices=ROUTES, help="the LED strips' path (default: the board's, in kit.json)")


def scaled_layout(args: argparse.Namespace, board_name: str) -> Layout:
    """The layout the scale options ask for, refused when two places' holes come too close."""
    board = load_board(board_name)
    return checked_layout(board, board_kit(board.name), args.size, args.spacing, args.clearance)


def write_template(args: argparse.Namespace) -> int:
    if not args.output.is_dir():
        raise GameboardError(f"-o {args.output}: give a folder that exists to write the template in")
    layout = scaled_layout(args, args.board)
    plan = Plan(layout, front_end(args.front_end, sensing(args.sensors)), args.route)
    drawing = template_drawing(layout, plan.strips, plan.chips_drawn())
    stem = args.output / f"{layout.board.name}-template"
    files = {stem.with_suffix(".svg"): svg_document(drawing).encode(), stem.with_suffix(".pdf"): full_size(drawing).render()}
    sheets = []
    for paper in PAPERS:
        grid, document = tiled(drawing, paper)
        files[stem.with_name(f"{stem.name}-{paper}.pdf")] = document.render()
        sheets.append(f"{paper}: {grid.columns} x {grid.rows} {grid.orientation} sheets ({grid.count})")
    for path, data in files.items():
        try:
            path.write_bytes(data)
        except OSError as exc:
            raise GameboardError(f"{path}: cannot write the template ({exc.strerror}); give -o a folder you can "
                                 "write") from None
    closest = layout.closest()
    strips = ", ".join(f"strip {n}: {len(strip)} LEDs, {plan.strip_length(n) / 1000:.2f} m"
                       for n, strip in enumerate(plan.strips))
    print(f"{layout.board.title}: {layout.width:.1f} x {layout.height:.1f} mm, {layout.mm_per_unit:.2f} mm a unit, "
          f"closest places {layout.spacing:.1f} mm apart; closest holes: {closest.describe()}")
    print(f"{plan.style} LED route: {strips}")
    print("tiled: " + "; ".join(sheets))
    for path in files:
        print(f"wrote {path}")
    return 0


def print_route(args: argparse.Namespace) -> int:
    chain = front_end(args.front_end, sensing(args.sensors))
    plan = Plan(scaled_layout(args, args.board), chain, args.route)
    wiring = plan.wiring()
    settings = pico_settings(plan) if args.pico is not None else None
    if args.output is not None:
        note = (f"Generated by `gameboard board route {args.board} --size {plan.layout.size:.0f}mm --sensors "
                f"{args.sensors} --front-end {args.front_end}` ({plan.style} route):\n"
                f"build the board to this plan and `gameboard calibrate` confirms it.")
        try:
            save_wiring(args.output, wiring, note)
        except WiringFileError as exc:
            raise GameboardError(str(exc)) from None
    if settings is not None:
        _write_text(args.pico, json.dumps(settings, indent=1) + "\n", "the Pico's settings")
    print(plan.report(), end="")
    if args.output is not None:
        print(f"wrote {args.output}")
    if args.pico is not None:
        print(f"wrote {args.pico}")
    return 0


def _write_text(path: Path, text: str, what: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise GameboardError(f"{path}: cannot write {what} ({exc.strerror}); give a file in a folder you can "
                             "write") from None
