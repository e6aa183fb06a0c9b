"""The one compiled module (Over-Pass's turn moves, ``engine/games/_overpass_fast.c``); everything
else is in pyproject.toml.  It is optional: without a C compiler and Python's headers the install
goes on and the engine uses its Python rules, which are the definition anyway."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("engine.games._overpass_fast", ["engine/games/_overpass_fast.c"], optional=True)])
