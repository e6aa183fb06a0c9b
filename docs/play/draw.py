"""Draw the players' pages' pictures (docs/play/pictures.toml) with `gameboard board draw`, as a person would.

    .venv/bin/python docs/play/draw.py          # every picture
    .venv/bin/python docs/play/draw.py NAME...  # these ones
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Pixels across: the pages show them at most this wide.
WIDTH = 480


def pictures() -> dict[str, dict]:
    return tomllib.loads((HERE / "pictures.toml").read_text(encoding="utf-8"))


def command(name: str, picture: dict, output: Path) -> list[str]:
    """The `gameboard board draw` command line of one picture."""
    from engine.registry import game_class

    game = picture["game"]
    options = picture.get("options", {})
    board = game_class(game)(**options).board_name
    line = [sys.executable, "-m", "firmware_host.cli", "board", "draw", board, "--game", game,
            "--width", str(WIDTH), "-o", str(output)]
    for key, value in options.items():
        line += ["--option", f"{key}={str(value).lower() if isinstance(value, bool) else value}"]
    if picture.get("moves"):
        line += ["--moves", picture["moves"]]
    if picture.get("ids"):
        line.append("--ids")
    return line


def main(names: list[str]) -> int:
    every = pictures()
    for name in names or every:
        if name not in every:
            print(f"draw.py: no picture {name!r} in {HERE / 'pictures.toml'}", file=sys.stderr)
            return 2
        subprocess.run(command(name, every[name], HERE / f"{name}.svg"), check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
