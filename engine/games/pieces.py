"""Piece codes shared by the games of the Over-Pass board, with their display colours."""

#: The four colours of ten pieces each, in seating order.
OVERPASS_COLOURS: tuple[str, ...] = ("black", "white", "red", "blue")

#: Piece code -> display colour (drawings, the simulator, the whose-turn LED).
DISPLAY: dict[str, str] = {
    "black": "#222222",
    "white": "#f4f1e8",
    "red": "#c62828",
    "blue": "#1e5bc6",
}


def seats(players: int) -> tuple[tuple[str, ...], ...]:
    """The colours each player commands: two each in a two-player game
    (black with red, white with blue), one each otherwise; three players omit blue."""
    if players == 2:
        return (("black", "red"), ("white", "blue"))
    return tuple((colour,) for colour in OVERPASS_COLOURS[:players])
