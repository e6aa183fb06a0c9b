"""One module per group of subcommands, each with ``register(subparsers)``."""
