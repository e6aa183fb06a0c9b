"""The mock HAL: a board in memory whose sensors, LEDs and buttons behave like real ones."""

from __future__ import annotations

import pytest

from engine.boards import load_board
from hal.base import ButtonEvent
from hal.clock import ManualClock
from hal.frames import FrameError
from hal.magnets import MagnetModel
from hal.mock import MockBoard, MockBoardError, Noise
from wiring.model import Wiring, straight_wiring

CLASSES = {"black": "north", "white": "south", "red": "north_weak", "blue": "south_weak"}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(100.0)


@pytest.fixture
def wiring() -> Wiring:
    return straight_wiring(load_board("overpass"))


def channel(wiring: Wiring, location: str) -> int:
    return wiring.channel_of[location]


def readings(board: MockBoard, location: str) -> int:
    return board.sensors.read().values[board.wiring.channel_of[location]]


def test_presence_sensors_follow_placed_lifted_and_moved_pieces(wiring, clock):
    board = MockBoard(wiring, clock=clock)
    assert board.sensors.kind == "presence"
    assert board.sensors.channels == len(load_board("overpass").locations)
    assert sum(board.sensors.read().values) == 0
    board.place("p1", "black")
    board.place("f3", "white")
    assert dict(board.contents) == {"p1": "black", "f3": "white"}
    assert readings(board, "p1") == 1 and readings(board, "f3") == 1
    board.move("p1", "p2")
    assert readings(board, "p1") == 0 and readings(board, "p2") == 1
    assert board.lift("f3") == "white"
    assert sum(board.sensors.read().values) == 1
    assert board.sensors.read().timestamp == 100.0


def test_contents_is_a_read_only_view(wiring):
    board = MockBoard(wiring)
    board.place("p1", "black")
    with pytest.raises(TypeError):
        board.contents["p2"] = "white"  # type: ignore[index]


@pytest.mark.parametrize(
    ("handle", "message"),
    [
        (lambda b: b.place("p1", "white"), "p1 already holds black: lift it first"),
        (lambda b: b.lift("p2"), "p2 is empty"),
        (lambda b: b.place("x9", "white"), "'x9' is not a location of board 'overpass'"),
        (lambda b: b.move("p1", "p2", via=["nowhere"]), "'nowhere' is not a location"),
        (lambda b: b.flip("p1", "black"), "p1 already shows black"),
        (lambda b: b.stick(500, 1), "channel 500 is outside 0..200"),
        (lambda b: b.stick(0, 2), "a presence reading is 0..1, not 2"),
        (lambda b: b.buttons.press("reset"), "no button 'reset'"),
        (lambda b: b.leds.location_colour("nowhere"), "no LED lights 'nowhere'"),
    ],
)
def test_impossible_handling_is_refused_with_the_reason(wiring, handle, message):
    board = MockBoard(wiring)
    board.place("p1", "black")
    with pytest.raises(MockBoardError, match=message.replace("(", r"\(").replace(".", r"\.")):
        handle(board)
    assert dict(board.contents) == {"p1": "black"}


def test_a_wiring_that_does_not_fit_the_board_is_refused():
    with pytest.raises(MockBoardError, match="lacks: q7"):
        MockBoard(Wiring(board="overpass", channels={0: "q7"}))
    with pytest.raises(MockBoardError, match=r"channels \[9\] outside 0\.\.3; raise channels="):
        MockBoard(Wiring(board="overpass", channels={9: "p1"}), channels=4)
    with pytest.raises(MockBoardError, match="sensing 'optical'"):
        MockBoard(Wiring(board="overpass", sensing="optical"))
    with pytest.raises(MockBoardError, match=r"piece classes \['purple'\]"):
        MockBoard(Wiring(board="overpass", sensing="analog", piece_classes={"black": "purple"}))


@pytest.mark.parametrize("bad", [{"bounce_time": -1.0}, {"bump_probability": 1.5}, {"slide_step": float("nan")}])
def test_noise_figures_are_checked(bad):
    with pytest.raises(MockBoardError, match=next(iter(bad))):
        Noise(**bad)


def test_scrambled_and_spare_channels_read_through_the_true_wiring(clock):
    wiring = Wiring(board="overpass", channels={7: "p1", 2: "p2"})
    board = MockBoard(wiring, clock=clock, channels=12)
    board.place("p1", "black")
    board.place("p3", "white")  # no sensor under p3 in this wiring
    assert board.sensors.read().values == (0,) * 7 + (1,) + (0,) * 4


def test_set_contents_replaces_the_whole_board_without_noise(wiring, clock):
    board = MockBoard(wiring, clock=clock, noise=Noise(bounce_time=1.0, bounce_probability=1.0))
    board.place("p5", "red")
    board.set_contents({"p1": "black", "p2": None, "f1": "white"})
    assert dict(board.contents) == {"p1": "black", "f1": "white"}
    for _ in range(20):
        values = board.sensors.read().values
        assert [values[channel(wiring, name)] for name in ("p1", "p2", "f1", "p5")] == [1, 0, 1, 0]
    with pytest.raises(MockBoardError, match="is not a piece code"):
        board.set_contents({"p1": 3})  # type: ignore[dict-item]


def test_contact_bounce_chatters_then_settles(wiring, clock):
    noise = Noise(bounce_time=0.005, bounce_probability=1.0)
    board = MockBoard(wiring, clock=clock, noise=noise, seed=3)
    board.place("p1", "black")
    during = set()
    for _ in range(40):
        during.add(readings(board, "p1"))
        clock.advance(0.0001)
    assert during == {0, 1}
    clock.advance(0.005)
    assert {readings(board, "p1") for _ in range(40)} == {1}
    assert dict(board.contents) == {"p1": "black"}


def test_a_slid_piece_passes_over_each_location_on_its_way(wiring, clock):
    board = MockBoard(wiring, clock=clock, noise=Noise(slide_step=0.25))  # exact in binary
    board.set_contents({"p1": "black", "p3": "white"})
    board.move("p1", "p4", via=["p2", "p3"])
    assert dict(board.contents) == {"p3": "white", "p4": "black"}
    seen = []
    for _ in range(4):
        values = board.sensors.read().values
        seen.append(tuple(values[channel(wiring, f"p{i}")] for i in range(1, 5)))
        clock.advance(0.25)
    assert seen == [(0, 1, 1, 0), (0, 0, 1, 0), (0, 0, 1, 1), (0, 0, 1, 1)]


def test_a_bumped_neighbour_lifts_and_drops_back(wiring, clock):
    board = MockBoard(wiring, clock=clock, noise=Noise(bump_probability=1.0, bump_time=0.2))
    board.set_contents({"p1": "white"})
    board.place("p2", "black")  # p1 is p2's only occupied neighbour
    assert readings(board, "p1") == 0
    clock.advance(0.2)
    assert readings(board, "p1") == 1
    assert dict(board.contents) == {"p1": "white", "p2": "black"}


def test_handling_a_location_cancels_its_pending_noise(wiring, clock):
    board = MockBoard(wiring, clock=clock, noise=Noise(bump_probability=1.0, bump_time=0.5))
    board.set_contents({"p1": "white"})
    board.place("p2", "black")
    assert readings(board, "p1") == 0
    board.lift("p1")  # the player picks up the bumped piece: it never drops back
    clock.advance(1.0)
    assert readings(board, "p1") == 0


def test_noise_is_reproducible_from_the_seed(wiring):
    def run(seed: int) -> list[tuple[int, ...]]:
        clock = ManualClock()
        board = MockBoard(wiring, clock=clock, noise=Noise.realistic(), seed=seed)
        scans = []
        for target in ("p1", "p2", "p3", "f1", "f2"):
            board.place(target, "black")
            for _ in range(10):
                scans.append(board.sensors.read().values)
                clock.advance(0.001)
        return scans

    assert run(1) == run(1)
    assert run(1) != run(2)


def test_analog_channels_read_each_magnet_class_around_their_own_baseline(wiring, clock):
    analog = Wiring(**{**vars(wiring), "sensing": "analog", "piece_classes": CLASSES})
    board = MockBoard(analog, clock=clock, seed=5)
    sensors = board.sensors
    assert sensors.kind == "analog"
    empty = sensors.read().values
    assert all(abs(value - round(base)) <= 0 for value, base in zip(empty, sensors.baselines))
    assert len({round(base) for base in sensors.baselines}) > 20  # every sensor differs
    board.set_contents({"p1": "black", "p2": "white", "p3": "red", "p4": "blue", "p5": "green"})
    values = sensors.read().values
    lift = [values[i] - empty[i] for i in range(5)]
    assert lift[0] > lift[2] > 0 > lift[3] > lift[1]
    assert lift[4] == pytest.approx(300 * sensors.gains[4], abs=1)  # a piece with no class reads north
    board.flip("p1", "white")
    assert readings(board, "p1") - empty[0] == pytest.approx(-lift[0], abs=1)


def test_analog_jitter_spreads_readings_and_stuck_or_dead_channels_do_not_move(wiring, clock):
    analog = Wiring(**{**vars(wiring), "sensing": "analog", "piece_classes": CLASSES})
    board = MockBoard(analog, clock=clock, noise=Noise(analog_jitter=4.0))
    assert len({readings(board, "p1") for _ in range(30)}) > 3
    board.stick(0, 1023)
    board.kill(1)
    frozen = board.sensors.read().values[1]
    board.set_contents({"p1": "white", "p2": "white"})
    values = board.sensors.read().values
    assert values[0] == 1023 and values[1] == frozen
    with pytest.raises(MockBoardError, match="0..1023, not 1024"):
        board.stick(2, 1024)


def test_leds_keep_the_last_frame_and_read_back_by_location(clock):
    wiring = Wiring(board="overpass", leds={"p1": ((1, 2), (1, 3)), "p2": ((0, 0),)}, strip_lengths=(2, 4))
    board = MockBoard(wiring, clock=clock)
    assert board.leds.strip_lengths == (2, 4)
    assert board.leds.location_colour("p1") == (0, 0, 0)
    frame = [[(9, 9, 9), (0, 0, 0)], [(0, 0, 0), (0, 0, 0), (255, 0, 10), (255, 0, 10)]]
    board.leds.show(frame)
    assert board.leds.location_colour("p1") == (255, 0, 10)
    assert board.leds.location_colour("p2") == (9, 9, 9)
    assert board.leds.frames_shown == 1
    with pytest.raises(FrameError, match="strip 1 has 4 LEDs, the frame gives 3"):
        board.leds.show([frame[0], frame[1][:3]])
    with pytest.raises(FrameError, match=r"strip 0 LED 1: \(0, 0, 256\)"):
        board.leds.show([[(0, 0, 0), (0, 0, 256)], frame[1]])
    assert board.leds.location_colour("p1") == (255, 0, 10)  # a refused frame changes nothing
    board.leds.close()
    assert board.leds.location_colour("p1") == (0, 0, 0)


def test_buttons_queue_presses_until_collected(wiring, clock):
    board = MockBoard(wiring, clock=clock)
    board.buttons.press("confirm")
    clock.advance(1.0)
    board.buttons.press("undo")
    assert board.buttons.events() == [ButtonEvent("confirm", 100.0), ButtonEvent("undo", 101.0)]
    assert board.buttons.events() == []


def test_the_channel_count_comes_from_the_wiring_when_it_records_one():
    wiring = Wiring(board="overpass", channels={0: "p1"}, sensor_channels=16)
    assert MockBoard(wiring).sensors.channels == 16
    assert MockBoard(wiring, channels=24).sensors.channels == 24


def test_the_magnet_model_reads_a_class_as_its_signed_field():
    model = MagnetModel()
    assert model.reading(500.0, 1.0, "north", 0.0) == 800
    assert model.reading(500.0, 1.0, "south_weak", 2.0) == 352
    assert model.reading(500.0, 1.0, None, 0.0) == 500
    assert model.reading(900.0, 1.2, "north", 0.0) == 1023  # clamped to the ADC's range
