"""How long working out a game's facts takes (``firmware_host/game_facts.py``: what its legend lists, whether the
simulator flips its pieces); prints figures, asserts nothing.  It runs once per game, options and sensing, when
the legend is first asked for (the page's first view); a Raspberry Pi 4 takes about 5 times this machine's CPU time.

    .venv/bin/python bench/game_facts.py
"""

from __future__ import annotations

import time

from engine.registry import available_games, game_class
from firmware_host.game_facts import game_facts, lights_that_occur
from wiring.model import straight_wiring


def main() -> None:
    print(f"{'game':18} {'CPU s':>6} {'lights':>6}")
    for name in available_games():
        game = game_class(name)()
        started = time.process_time()
        facts = game_facts(game, straight_wiring(game.board))
        spent = time.process_time() - started
        lights = lights_that_occur(facts, guided=False, hints=True, dice_leds=False, remote=False)
        print(f"{name:18} {spent:6.2f} {len(lights):6}")


if __name__ == "__main__":
    main()
