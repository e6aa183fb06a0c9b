"""One module per game."""
