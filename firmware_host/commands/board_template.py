"""``gameboard board template`` and ``gameboard board route``: a board at true scale, and its wiring plan."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.boards import load_board
from engine.errors import GameboardError
from firmware_host.commands.arguments import BOARD_HELP, board_name
from wiring.files import WiringFileError, save_wiring
from wiring.kit.data import ROUTES, KitError, board_kit, front_ends
from wiring.kit.drawing import template_drawing
from wiring.kit.layout import Layout, parse_length
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
    template.add_argument("-o", "--output", type=Path, default=Path("."), metavar="DIR",
                          help="the folder to write BOARD-template.svg/.pdf/-a4.pdf/-letter.pdf in (default: here)")
    template.set_defaults(handler=write_template)

    route = sub.add_parser("route", help="the wiring plan: sensor chain and LED strips along a route, with lengths",
                           description="Which chip and input reads each place and which LED lights it, in route "
                                       "order, with the wire to cut per segment; -o writes the wiring file "
                                       "`gameboard calibrate` then confirms (docs/template.md).")
    _scale_arguments(route)
    route.add_argument("--front-end", required=True, metavar="FRONT_END",
                       help=f"the sensor chips: {_front_end_names()}")
    route.add_argument("-o", "--output", type=Path, metavar="FILE", help="write the wiring file (TOML) here")
    route.set_defaults(handler=print_route)


def _front_end_names() -> str:
    """The front-ends kit.json lists, for the help; a broken kit.json is reported when a command reads it."""
    try:
        return ", ".join(front_ends())
    except KitError:
        return "as wiring/kit/kit.json lists them"


def _scale_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("board", type=board_name, help=BOARD_HELP)
    scale = parser.add_mutually_exclusive_group(required=True)
    scale.add_argument("--size", metavar="LENGTH", help="the board's longer side, e.g. 420mm (mm, cm, m, in)")
    scale.add_argument("--spacing", metavar="LENGTH", help="the distance between the two closest places, e.g. 30mm")
    parser.add_argument("--clearance", metavar="LENGTH",
                        help="refuse a size where drill centres of two places sit closer (default from "
                             "wiring/kit/kit.json: 8mm)")
    parser.add_argument("--route", choices=ROUTES, help="the LED strips' path (default: the board's, in kit.json)")


def checked_layout(args: argparse.Namespace) -> Layout:
    """The layout the scale options ask for, refused when two places' holes come too close."""
    board = load_board(args.board)
    kit = board_kit(board.name)
    if args.size is not None:
        layout = Layout.of_size(board, kit, parse_length("--size", args.size))
        asked = f"--size {args.size}"
    else:
        layout = Layout.of_spacing(board, kit, parse_length("--spacing", args.spacing))
        asked = f"--spacing {args.spacing}"
    clearance = parse_length("--clearance", args.clearance) if args.clearance else kit.clearance_mm
    layout.check_clearance(clearance, asked)
    layout.check_areas()
    layout.check_inside()
    return layout


def write_template(args: argparse.Namespace) -> int:
    if not args.output.is_dir():
        raise GameboardError(f"-o {args.output}: give a folder that exists to write the template in")
    layout = checked_layout(args)
    plan = Plan(layout, front_ends()["hc165"], args.route)
    drawing = template_drawing(layout, plan.strips)
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
    known = front_ends()
    if args.front_end not in known:
        raise GameboardError(f"--front-end {args.front_end}: no such front-end; they are {', '.join(known)}")
    plan = Plan(checked_layout(args), known[args.front_end], args.route)
    wiring = plan.wiring()
    if args.output is not None:
        note = (f"Generated by `gameboard board route {args.board} --front-end {args.front_end}` ({plan.style} route):\n"
                f"build the board to this plan and `gameboard calibrate` confirms it.")
        try:
            save_wiring(args.output, wiring, note)
        except WiringFileError as exc:
            raise GameboardError(str(exc)) from None
    print(plan.report(), end="")
    if args.output is not None:
        print(f"wrote {args.output}")
    return 0
