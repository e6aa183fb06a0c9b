"""The computer player: Monte Carlo tree search over the State API, per-game evaluations,
information-set sampling for hidden values, and named levels.  Pure: no I/O."""
