"""The compiled modules (Over-Pass's turn moves, the Spiral's moves: ``engine/games/_*_fast.c``; the
removal puzzles' search on the Spiral: ``engine/solvers/_removal_fast.c``); everything else is in
pyproject.toml.  They are optional: without a C compiler and Python's headers the install goes on and
the engine uses its Python rules and search, which are the definition anyway."""

from setuptools import Extension, setup

SPIRAL_STEPS = ["engine/games/spiral_steps.h"]  # the Spiral's moves, shared by its listing and the search

setup(ext_modules=[
    Extension("engine.games._overpass_fast", ["engine/games/_overpass_fast.c"], optional=True),
    Extension("engine.games._spiral_fast", ["engine/games/_spiral_fast.c"], depends=SPIRAL_STEPS,
              optional=True),
    Extension("engine.solvers._removal_fast", ["engine/solvers/_removal_fast.c"], include_dirs=["engine/games"],
              depends=SPIRAL_STEPS, optional=True),
])
