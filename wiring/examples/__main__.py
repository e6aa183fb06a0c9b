"""``python -m wiring.examples``: rewrite the example wiring files from layouts.toml."""

from wiring.examples import write_examples

for path in write_examples():
    print(f"wrote {path}")
