"""The test suite (a package, so tests/hal and tests/wiring never shadow the real hal and wiring)."""
