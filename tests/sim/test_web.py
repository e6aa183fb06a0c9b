"""The web server's messages, its token and read-only mode, and the mirror of a running daemon."""

import asyncio
import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import websockets

from engine import new_game
from engine.errors import GameboardError
from firmware_host.cli import main
from firmware_host.config import Hal
from firmware_host.daemon import Daemon
from firmware_host.journal import Journal
from firmware_host.web.mirror import MirrorSession
from firmware_host.web.serve import access_token
from hal.clock import ManualClock
from hal.dice import RandomDice
from hal.mock import MockBoard
from tests.daemon.test_service import MOCK_CONFIG
from tests.sim.conftest import free_port
from wiring.model import straight_wiring


def exchange(url: str, messages: list[dict | str], replies: int = 0):
    """Open the page's websocket, read the first view, send the messages, read ``replies`` answers."""
    async def talk():
        page, _, query = url.partition("?")
        async with websockets.connect(page.replace("http://", "ws://") + "ws" + (f"?{query}" if query else "")) as ws:
            first = json.loads(await ws.recv())
            answers = []
            for message in messages:
                await ws.send(message if isinstance(message, str) else json.dumps(message))
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
    assert view["svg"].startswith("<svg") and 'data-loc="p1"' in view["svg"]
    assert view["tray"] == ["black", "white"]
    assert {b["name"] for b in view["buttons"]} >= {"end_turn", "confirm", "undo", "new_game", "hint"}


def test_bad_messages_get_an_error_and_change_nothing(served):
    sim = served("squareoff")
    _, answers = exchange(sim.url, ["not json", {"no": "type"}, {"type": "teleport"},
                                    {"type": "click", "loc": "p1"}, {"type": "click", "loc": "nowhere"}], replies=5)
    assert [a["message"] for a in answers] == [
        "not a JSON message",
        'a message needs a "type"',
        "unknown action 'teleport'; actions: click, flip, take, drop, button, dice, noise, new_game, play",
        "nothing in hand: click a piece to lift it, or take one from the box",
        "'nowhere' is not a location of this board",
    ]
    assert sim.call(lambda: dict(sim.session.mock.contents)) == {}


def test_a_click_places_the_piece_in_hand_and_the_view_follows(served):
    sim = served("squareoff")
    exchange(sim.url, [{"type": "take", "piece": "black"}, {"type": "click", "loc": "p5"}])
    assert sim.call(lambda: dict(sim.session.mock.contents)) == {"p5": "black"}


def test_a_page_on_the_network_needs_the_token(served):
    sim = served("squareoff", token="s3cret")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(sim.url)
    assert refused.value.code == 403
    assert urllib.request.urlopen(sim.url + "?token=s3cret").status == 200
    with pytest.raises(websockets.exceptions.InvalidStatus, match="403"):
        exchange(sim.url, [])
    first, _ = exchange(sim.url + "?token=s3cret", [])
    assert first["view"]["game"] == "squareoff"


def test_localhost_needs_no_token_and_the_network_gets_a_fresh_one():
    assert access_token("127.0.0.1", None) is None
    assert access_token("localhost", None) is None
    assert access_token("::1", None) is None
    fresh = access_token("0.0.0.0", None)
    assert fresh and fresh != access_token("0.0.0.0", None)
    assert access_token("0.0.0.0", "mine") == "mine"
    with pytest.raises(GameboardError, match="not an IP address"):
        access_token("board.local", None)


def test_a_read_only_page_refuses_every_action(served):
    sim = served("squareoff", read_only=True)
    first, answers = exchange(sim.url, [{"type": "take", "piece": "black"}], replies=1)
    assert first["view"]["read_only"] is True
    assert answers[0]["message"] == "this page mirrors a real board: play on the board"


def test_the_mirror_shows_what_the_daemon_shows_and_takes_no_action(tmp_path):
    clock = ManualClock()
    state = new_game("squareoff")
    wiring = straight_wiring(state.game.board)
    mock = MockBoard(wiring, clock=clock)
    daemon = Daemon(state.game, Hal(mock.sensors, mock.leds, mock.buttons, RandomDice(1)), wiring,
                    Journal(tmp_path / "journal.sqlite3"), clock)
    mirror = MirrorSession(daemon)
    with pytest.raises(GameboardError, match="mirrors a real board"):
        mirror.act({"type": "click", "loc": "p1"})
    assert mirror.view()["log"] == []

    mock.place("p1", "black")  # the first player places a piece on the real board
    for _ in range(10):
        clock.advance(0.1)
        daemon.step()
    view = mirror.view()
    assert view["log"] == ["p1"]
    assert 'data-piece="black"' in view["svg"]
    assert view["turn"] == state.game.player_name(1)
    daemon.close()


def test_gameboard_run_web_serves_the_mirror(tmp_path):
    config = tmp_path / "gameboard.toml"
    config.write_text(MOCK_CONFIG)
    port = free_port()
    command = [str(Path(sys.executable).with_name("gameboard")), "run", "--config", str(config),
               "--web", "--port", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == f"gameboard: open http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 20
        while True:
            try:
                first, answers = exchange(f"http://127.0.0.1:{port}/", [{"type": "take", "piece": "black"}], 1)
                break
            except OSError:
                assert time.monotonic() < deadline, "the mirror never answered"
                time.sleep(0.1)
        assert first["view"]["read_only"] is True and first["view"]["game"] == "squareoff"
        assert first["view"]["status"] == "black to move"
        assert answers[0]["message"] == "this page mirrors a real board: play on the board"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize("options, message", [
    ("{players: 2}", "--options is not JSON (Expecting property name enclosed in double quotes)"),
    ("[2]", "--options must be a JSON object"),
    ('{"players": 7}', "overpass: option players=7 is not one of 2, 3, 4"),
])
def test_sim_options_are_checked_before_anything_starts(tmp_path, capsys, options, message):
    assert main(["sim", "overpass", "--options", options, "--journal", str(tmp_path / "j.sqlite3")]) == 2
    assert message in capsys.readouterr().err
