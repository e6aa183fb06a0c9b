"""A mock board soldered exactly as `board route` planned calibrates with no surprise: the walk,
starting from the generated file, lights each place it asks for, and finds what the plan says."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.boards import load_board
from firmware_host.calibration.start import start_wiring
from firmware_host.calibration.walk import Calibration, Settings
from hal.mock import MockBoard
from tests.calibration.person import ScriptedPerson
from wiring.files import load_wiring, save_wiring
from wiring.kit.data import board_kit, front_end
from wiring.kit.layout import Layout
from wiring.kit.plan import Plan


class FollowingTheLights(ScriptedPerson):
    """Puts the piece where the board lights, as a builder with the plan would, noting what was asked and lit."""

    def __init__(self, mock: MockBoard) -> None:
        super().__init__(mock)
        self.lit_when_asked: list[tuple[str, list[str]]] = []

    def _sensors(self, question):
        lit = self.lit()
        self.lit_when_asked.append((question.locations[0], lit))
        self.mock.set_contents({place: self.piece(question.piece_class) for place in lit})
        return ""


@pytest.mark.parametrize("board_name, size, chain", [("overpass", 980, ("hc165", "presence")),
                                                     ("hexover", 420, ("serial", "analog"))])
def test_a_board_built_to_the_plan_is_confirmed_by_calibrate(tmp_path: Path, board_name: str, size: float,
                                                             chain: tuple[str, str]) -> None:
    board = load_board(board_name)
    plan = Plan(Layout.of_size(board, board_kit(board_name), size), front_end(*chain))
    planned = plan.wiring()
    output = tmp_path / "wiring.toml"
    save_wiring(output, planned, "generated")
    mock = MockBoard(load_wiring(output))  # soldered exactly as the file says
    person = FollowingTheLights(mock)
    tool = Calibration(board, mock.sensors, mock.leds, person, output, start_wiring(board, output),
                       Settings(chase_pause=0), pause=lambda seconds: None)
    result = tool.run()

    assert [lit for _, lit in person.lit_when_asked] == [[place] for place, _ in person.lit_when_asked]
    assert len(person.lit_when_asked) == len(board.locations)
    assert result.wiring.channels == planned.channels
    assert result.wiring.leds == planned.leds
    assert result.wiring.strip_lengths == planned.strip_lengths
    assert result.problems == []
    spare = ", ".join(map(str, range(len(board.locations), plan.channels)))
    assert result.notes == [f"channels that never answered a location (dead sensors, or spare channels): {spare}"]
    if planned.sensing == "analog":
        assert set(result.wiring.calibration) == set(planned.channels)
