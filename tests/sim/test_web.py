"""The web server's messages, its tokens, read-only mode and port, and the mirror of a running daemon."""

import asyncio
import json
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import websockets

from engine import new_game
from engine.errors import GameboardError
from engine.registry import GAMES
from firmware_host.cli import main
from firmware_host.config import Hal
from firmware_host.daemon import Daemon
from firmware_host.journal import Journal
from firmware_host.presenter import PALETTE
from firmware_host.web.mirror import MirrorSession
from firmware_host.web.guard import Guard
from firmware_host.web.serve import Listener
from firmware_host.web.transport import apply
from hal.clock import ManualClock
from hal.dice import RandomDice
from hal.mock import MockBoard
from tests.daemon.test_service import MOCK_CONFIG
from tests.sim.conftest import free_port
from wiring.model import straight_wiring


COMMAND = str(Path(sys.executable).with_name("gameboard"))


def socket_url(url: str) -> str:
    """The page's websocket address for the page's address ``url``."""
    page, _, query = url.partition("?")
    return page.replace("http://", "ws://") + "ws" + (f"?{query}" if query else "")


def exchange(url: str, messages: list[dict | str | bytes], replies: int = 0):
    """Open the page's websocket, read the first view, send the messages, read ``replies`` answers."""
    async def talk():
        async with websockets.connect(socket_url(url)) as ws:
            first = json.loads(await ws.recv())
            answers = []
            for message in messages:
                await ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))
            while len(answers) < replies:
                answer = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if answer["type"] == "error":
                    answers.append(answer)
            return first, answers
    return asyncio.run(talk())


def test_the_first_message_is_the_whole_view(served):
    sim = served("squareoff")
    first, _ = exchange(sim.url, [])
    view = first["view"]
    assert first["type"] == "view"
    assert view["game"] == "squareoff" and view["read_only"] is False
    assert view["drawing"]["svg"].startswith("<svg") and 'data-spot="p1"' in view["drawing"]["svg"]
    assert 'data-loc="p1"' in view["places"]["p1"][0]
    assert view["tray"] == ["black", "white"]
    assert {b["name"] for b in view["buttons"]} >= {"end_turn", "confirm", "undo", "new_game", "hint"}


def test_after_the_whole_view_each_change_sends_what_changed_and_the_page_holds_the_view(served):
    sim = served("squareoff")

    async def talk():
        async with websockets.connect(socket_url(sim.url)) as ws:
            first = json.loads(await ws.recv())
            view, changes = apply(None, first), []
            for action in ({"type": "take", "piece": "black"}, {"type": "click", "loc": "p5"}):
                await ws.send(json.dumps(action))
            while True:  # until the move is played and the board has settled
                try:
                    changes.append(json.loads(await asyncio.wait_for(ws.recv(), 1.0 if view["log"] else 10)))
                except TimeoutError:
                    return first, view, changes
                view = apply(view, changes[-1])

    first, view, changes = asyncio.run(talk())
    assert view["log"] == ["p5"] and 'data-piece="black"' in view["places"]["p5"][0]
    assert view == dict(sim.call(sim.session.view), read_only=False), "the changes add up to the view"
    assert {change["type"] for change in changes} == {"change"}
    assert not any("drawing" in change["view"] for change in changes), "the board is drawn once"
    assert sum(len(json.dumps(change)) for change in changes) < len(json.dumps(first))


def test_bad_messages_get_an_error_and_change_nothing(served):
    sim = served("squareoff")
    _, answers = exchange(sim.url, ["not json", {"no": "type"}, {"type": "teleport"},
                                    {"type": "click", "loc": "p1"}, {"type": "click", "loc": "nowhere"}], replies=5)
    assert [a["message"] for a in answers] == [
        "not a JSON message",
        'a message needs a "type"',
        "unknown action 'teleport'; actions: click, flip, take, drop, lift_rest, button, dice, noise, new_game, play, auto, "
        "replay, import_record",
        "nothing in hand: click a piece to lift it, or take one from the box",
        "'nowhere' is not a location of this board",
    ]
    assert sim.call(lambda: dict(sim.session.mock.contents)) == {}


def test_malformed_fields_get_an_error_and_the_connection_stays(served):
    """The audit's messages once raised TypeError and dropped the connection."""
    sim = served("squareoff")
    _, answers = exchange(sim.url, [{"type": "click", "loc": [1]}, {"type": "click", "loc": {"a": 1}},
                                    {"type": "take", "piece": [1]}, b"\xff", "[" * 100_000, "1" * 5000,
                                    {"type": "take", "piece": "black"}, {"type": "drop", "piece": "black"}],
                          replies=7)
    assert [a["message"] for a in answers] == [
        'a click action needs "loc" as a string',
        'a click action needs "loc" as a string',
        'a take action needs "piece" as a string',
        "not a JSON message",  # a binary frame, not UTF-8
        "not a JSON message",  # nested too deep for the parser
        "not a JSON message",  # a number too long to convert
        'a drop action has no "piece"; its fields: none',
    ]
    assert sim.call(lambda: [held.piece for held in sim.session.hand]) == ["black"]


def test_a_new_game_that_cannot_start_gets_an_error_and_the_game_goes_on(served):
    sim = served("squareoff")
    _, answers = exchange(sim.url, [
        {"type": "new_game", "game": "chess"},
        {"type": "new_game", "game": "overpass", "options": [2]},
        {"type": "new_game", "game": "overpass", "options": {"players": 7}},
        {"type": "new_game", "game": "overpass", "options": {"colours": 2}},
        {"type": "new_game", "game": "pawns-crossing", "options": {"players": 2.0}},
        {"type": "new_game", "game": "crooked-jumps", "options": {"layout": ["ring"]}},
    ], replies=6)
    assert [a["message"] for a in answers] == [
        "unknown game 'chess'; games: " + ", ".join(GAMES),
        'a new_game action needs "options" as an object',
        "overpass: option players=7 is not one of 2, 3, 4",
        "overpass: unknown option(s) colours; options: players, goal",
        "pawns-crossing: option players=2.0 is of the wrong kind: its default is 2",
        "crooked-jumps: option layout=['ring'] is of the wrong kind: its default is 'standard'",
    ]
    assert sim.call(lambda: sim.session.daemon.state.game.name) == "squareoff"


def test_a_click_places_the_piece_in_hand_and_the_view_follows(served):
    sim = served("squareoff")
    exchange(sim.url, [{"type": "take", "piece": "black"}, {"type": "click", "loc": "p5"}])
    assert sim.call(lambda: dict(sim.session.mock.contents)) == {"p5": "black"}


def test_localhost_needs_no_token_and_the_network_gets_a_fresh_one():
    def token(listen, given):
        return Guard.for_listener(listen, 8300, given).token

    assert token("127.0.0.1", None) is None
    assert token("localhost", None) is None
    assert token("::1", None) is None
    fresh = token("0.0.0.0", None)
    assert fresh and fresh != token("0.0.0.0", None)
    assert token("0.0.0.0", "mine") == "mine"
    with pytest.raises(GameboardError, match="not an IP address"):
        token("board.local", None)


def test_a_read_only_page_refuses_every_action(served):
    sim = served("squareoff", read_only=True)
    first, answers = exchange(sim.url, [{"type": "take", "piece": "black"}], replies=1)
    assert first["view"]["read_only"] is True
    assert answers[0]["message"] == "this page mirrors a real board: play on the board"


def mirrored_squareoff(tmp_path):
    """A daemon playing Square Off on a mock board, its mock board and clock, and the page's mirror of it."""
    clock = ManualClock()
    game = new_game("squareoff").game
    wiring = straight_wiring(game.board)
    mock = MockBoard(wiring, clock=clock)
    daemon = Daemon(game, Hal(mock.sensors, mock.leds, mock.buttons, RandomDice(1)), wiring,
                    Journal(tmp_path / "journal.sqlite3"), clock)
    return daemon, mock, clock, MirrorSession(daemon)


def test_the_mirror_shows_what_the_daemon_shows_and_takes_no_action(tmp_path):
    daemon, mock, clock, mirror = mirrored_squareoff(tmp_path)
    with pytest.raises(GameboardError, match="mirrors a real board"):
        mirror.act({"type": "click", "loc": "p1"})
    assert mirror.view()["log"] == []

    mock.place("p1", "black")  # the first player places a piece on the real board
    for _ in range(10):
        clock.advance(0.1)
        daemon.step()
    view = mirror.view()
    assert view["log"] == ["p1"]
    assert 'data-piece="black"' in view["places"]["p1"][0]
    assert view["turn"] == daemon.state.game.player_name(1)
    daemon.close()


def test_the_page_says_when_the_board_cannot_see_and_shows_the_board_flashing(tmp_path):
    daemon, mock, clock, mirror = mirrored_squareoff(tmp_path)
    mock.unplug_sensors()
    for _ in range(10):
        clock.advance(0.1)
        daemon.step()
    assert mirror.view()["status"] == "the board cannot see: the mock board's sensor cable is unplugged"
    flashing = f'stroke="rgb{PALETTE["fault_sensors"]}" class="led flash phase1"'
    assert all(flashing in spot for spot, *_ in mirror.view()["places"].values()), "the page flashes every LED"
    mock.repair_sensors()
    clock.advance(0.1)
    daemon.step()
    assert mirror.view()["status"] == "black to move: place a black piece on a green light"
    daemon.close()


def test_gameboard_run_web_serves_the_mirror(tmp_path):
    config = tmp_path / "gameboard.toml"
    config.write_text(MOCK_CONFIG)
    port = free_port()
    process = subprocess.Popen([COMMAND, "run", "--config", str(config), "--web", "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while (line := process.stdout.readline()) != f"gameboard: open http://127.0.0.1:{port}/\n":
            assert line, process.stderr.read()  # another line may come first; the end of output may not
        first, answers = exchange(f"http://127.0.0.1:{port}/", [{"type": "take", "piece": "black"}], 1)
        assert first["view"]["read_only"] is True and first["view"]["game"] == "squareoff"
        assert first["view"]["status"] == "black to move: place a black piece on a green light"
        assert answers[0]["message"] == "this page mirrors a real board: play on the board"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        process.kill()
        process.wait()


@pytest.fixture
def taken_port():
    """A port another program listens on."""
    with socket.create_server(("127.0.0.1", 0)) as other:
        yield other.getsockname()[1]


def test_sim_on_a_port_in_use_says_so_in_one_line_and_prints_no_address(tmp_path, capsys, taken_port):
    assert main(["sim", "squareoff", "--port", str(taken_port), "--journal", str(tmp_path / "j.sqlite3")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"gameboard: error: port {taken_port} is in use by another program: choose another with --port\n"


def test_run_web_on_a_port_in_use_stops_before_the_daemon_runs(tmp_path, taken_port):
    """The page's server runs in a thread: its port is bound before the daemon starts, not left to fail there."""
    config = tmp_path / "gameboard.toml"
    config.write_text(MOCK_CONFIG)
    finished = subprocess.run([COMMAND, "run", "--config", str(config), "--web", "--port", str(taken_port)],
                              capture_output=True, text=True, timeout=60)
    assert finished.returncode == 2
    assert "gameboard: open" not in finished.stdout
    assert "Traceback" not in finished.stderr
    assert finished.stderr.splitlines()[-1] == (f"gameboard: error: port {taken_port} is in use by another program: "
                                                f"choose another with --port")


def test_an_address_that_is_not_this_machines_is_one_line():
    with pytest.raises(GameboardError) as refusal:
        Listener("192.0.2.1", 8300)
    assert str(refusal.value) == ("cannot listen on 192.0.2.1 port 8300 (Cannot assign requested address): "
                                  "choose another --listen or --port")


@pytest.mark.parametrize("options, message", [
    (["players:2"], "--option 'players:2': write KEY=VALUE, e.g. --option players=2"),
    (["players=2", "players=3"], "--option players is given twice"),
    (["players=7"], "overpass: option players=7 is not one of 2, 3, 4"),
    (["players=two"], "overpass: option players='two' is of the wrong kind"),
])
def test_sim_options_are_checked_before_anything_starts(tmp_path, capsys, options, message):
    given = [word for option in options for word in ("--option", option)]
    assert main(["sim", "overpass", *given, "--journal", str(tmp_path / "j.sqlite3")]) == 2
    assert message in capsys.readouterr().err
