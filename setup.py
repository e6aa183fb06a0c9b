"""The compiled modules (Over-Pass's turn moves, the Spiral's moves: ``engine/games/_*_fast.c``);
everything else is in pyproject.toml.  They are optional: without a C compiler and Python's headers
the install goes on and the engine uses its Python rules, which are the definition anyway."""

from setuptools import Extension, setup

setup(ext_modules=[Extension(f"engine.games._{name}_fast", [f"engine/games/_{name}_fast.c"], optional=True)
                   for name in ("overpass", "spiral")])
