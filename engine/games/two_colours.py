"""What the games of two players, black and white, share (Square Off, Hexover)."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core import Game, PositionError
from engine.games.pieces import DISPLAY


class TwoColourGame(Game):
    """Two players, each one colour: player i plays ``colours[i]``."""

    colours: ClassVar[tuple[str, str]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.pieces = {colour: DISPLAY[colour] for colour in cls.colours}

    @property
    def num_players(self) -> int:
        return 2

    def player_name(self, player: int) -> str:
        return self.colours[player]

    @classmethod
    def player_of(cls, colour: object, where: str) -> int:
        """The player of a colour read from a JSON position; ``where`` names the entry for the error."""
        if colour not in cls.colours:
            raise PositionError(f"{where}: {colour!r} is not a colour; use "
                                f'"{cls.colours[0]}" or "{cls.colours[1]}"')
        return cls.colours.index(colour)
