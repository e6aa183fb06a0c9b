"""A friend without a board: the simulator joins a remote game as a seat, plays it by clicks against a
board through a real Mosquitto, and a spectator follows; the command line's remote options."""

from __future__ import annotations

import os
import random
import shutil
import time
from pathlib import Path

import pytest

from engine.registry import game_class
from firmware_host.cli import main
from firmware_host.remote.join import host, join
from firmware_host.remote.link import Broker
from firmware_host.remote.moves import Chain, published
from firmware_host.remote.spectator import Spectator
from firmware_host.seats import HUMAN, Seat
from firmware_host.sim import SimError, SimSession
from firmware_host.tracker import Status
from hal.clock import ManualClock
from tests.daemon.hands import pick
from tests.remote.pages import Command, Page, free_port, stop_all
from tests.sim import clicks

GAME_ID = "friday"


def hosted_board(tables, tmp_path, port: int, game):
    """Alice's board, hosting ``game`` with bob's seat remote; once the broker has its header."""
    clock, seats = ManualClock(), (HUMAN, Seat("remote", holder="bob"))
    remote = host(Broker("127.0.0.1", port), GAME_ID, "alice", game, seats, clock)
    daemon, mock, clock = tables.open_board(game, tmp_path / "alice.sqlite3", seats=seats, clock=clock,
                                            remote=remote)
    deadline = time.monotonic() + 10
    while remote.heard_header is None:  # its own header, heard back from the broker
        assert time.monotonic() < deadline, daemon.status_text()
        clock.advance(0.05)
        daemon.step()
        time.sleep(0.01)
    return daemon, mock, clock


@pytest.mark.parametrize("name", ["hexover", "squareoff"])
def test_a_browser_seat_plays_a_whole_game_with_a_board_and_a_spectator_follows(tables, hands, tmp_path, mosquitto,
                                                                                 name: str):
    game = game_class(name)()
    alice, alice_mock, alice_clock = hosted_board(tables, tmp_path, mosquitto.port, game)
    alice_hands = hands.Hands(alice, alice_mock, alice_clock)
    broker = Broker("127.0.0.1", mosquitto.port)
    participant, joined, seats = join(broker, GAME_ID, "bob", wait=10)
    assert (joined.name, seats) == (name, (Seat("remote", holder="alice"), HUMAN))
    clock = ManualClock()
    session = SimSession(joined.name, dict(joined.options), journal=tmp_path / "bob.sqlite3", clock=clock,
                         seats=[str(seat) for seat in seats], auto=True, remote=participant)
    bob, player = session.daemon, clicks.Player(session, clock)
    watcher, watched, _ = join(broker, GAME_ID, "carol", wait=10)
    spectator = Spectator(watcher, watched)
    rng = random.Random(4)
    try:
        view = session.view()
        assert view["seats"] == ["remote:alice", "human"]
        names = [game.player_name(player) for player in (0, 1)]
        assert view["remote"].startswith(f"remote game {GAME_ID} on mqtt://127.0.0.1:{mosquitto.port} as bob "
                                         f"({names[0]}: alice, {names[1]}: bob): connected")
        with pytest.raises(SimError, match="this page plays the remote game friday"):
            session.act({"type": "new_game", "game": "hexover", "options": None, "seats": None})
        deadline = time.monotonic() + 120
        while not (alice.state.is_terminal() and bob.state.is_terminal()):
            assert time.monotonic() < deadline, f"alice: {alice.status_text()}; bob: {bob.status_text()}"
            if not alice.state.is_terminal() and not alice.remote_turn:
                alice_hands.play(alice.state, pick(alice.state, rng))
            elif alice.carry is not None:
                alice_hands.play(alice.state, alice.carry.move)  # the browser's move, as alice's LEDs show it
            elif bob.left_to_do and not session.auto_busy:  # bob turned his move's pieces over: he says so
                player.act({"type": "button", "name": "confirm"})
            elif (not bob.state.is_terminal() and not bob.remote_turn and bob.tracker.view.status is Status.READY
                  and not session.auto_busy):
                clicks.Player(session, clock).make(pick(bob.state, rng))  # bob clicks his move
            else:
                alice_hands.run(0.02)
                player.wait(clicks.HAND_PAUSE)  # the auto hands carry out alice's move on bob's page
                time.sleep(0.002)
            spectator.follow()
        deadline = time.monotonic() + 10
        while len(spectator.state.history) < len(alice.state.history):
            assert time.monotonic() < deadline
            spectator.follow()
            time.sleep(0.01)
        moves = alice.journal.moves()
        assert moves == bob.journal.moves() == [str(move) for move in spectator.state.history]
        assert dict(session.mock.contents) == {loc: p for loc, p in bob.state.contents().items() if p}
        assert spectator.view()["status"].startswith("game over")
        with pytest.raises(Exception, match="takes no moves"):
            spectator.act({"type": "click", "loc": "a1"})
    finally:
        session.close()
        alice.close()
        watcher.close()


def person_moves(page: Page, state, colour: str) -> None:
    """A person's Hexover move on ``page``: a disk from the box on the first green light, then the flips the page
    asks for (the sensors cannot see them), made without pressing confirm."""
    cell = page.view["daemon"]["destinations"][0]
    page.act(type="take", piece=colour)
    page.act(type="click", loc=cell)
    move = state.parse_move(cell)
    for change in state.footprint(move).changes:
        if change.before is not None:
            page.act(type="flip", loc=change.location)
    state.push(move)
    page.wait_for(lambda view: view["log"][-1:] == [cell], f"{cell} accepted")


def test_the_docs_hexover_example_with_auto_plays_on_without_confirming_the_flips(mosquitto, tmp_path: Path):
    """docs/remote.md's two commands, as written (their journals by default), both pages on auto.  The joiner
    shared the host's journal: it resumed alice's game and could never write her move (UNIQUE constraint
    failed).  And a page whose person had made their flips without confirming them (Confirm was not offered)
    never carried out the opponent's move."""
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")}
    url = f"mqtt://127.0.0.1:{mosquitto.port}/{GAME_ID}"
    started = [Command(["sim", "hexover", "--seats", "human", "remote:bob", "--join", url, "--name", "alice",
                        "--port", str(free_port())], env)]
    try:
        started.append(Command(["sim", "--join", url, "--name", "bob", "--port", str(free_port())], env))
        with Page(started[0]) as alice, Page(started[1]) as bob:
            for page in (alice, bob):
                page.wait_for(lambda view: view["remote"].endswith("online"), "both online")
                page.act(type="auto", on=True)
            state = game_class("hexover")().new_initial_state()
            for mover, other, colour in [(alice, bob, "white"), (bob, alice, "black")]:
                person_moves(mover, state, colour)
                plies = len(state.history)
                other.wait_for(lambda view: len(view["log"]) == plies and view["daemon"]["status"] == "ready",
                               f"the auto hands carrying out move {plies} ({state.history[-1]})")
            assert alice.view["log"] == bob.view["log"] == [str(move) for move in state.history]
        assert sorted(path.name for path in (tmp_path / "state" / "gameboard").glob("*.sqlite3")) == [
            "sim-friday-alice.sqlite3", "sim-friday-bob.sqlite3"]
    finally:
        stop_all(started)


def finished_game_on_the_broker(port: int, name: str, seed: int) -> tuple[list[str], list]:
    """A whole game of ``name`` played at random by alice and bob, each publishing its moves as a board does; the
    moves, and the two participants (to close)."""
    game = game_class(name)()
    alice = host(Broker("127.0.0.1", port), GAME_ID, "alice", game, (HUMAN, Seat("remote", holder="bob")))
    deadline = time.monotonic() + 10
    while alice.heard_header is None:
        assert time.monotonic() < deadline, "the host's header never came back from the broker"
        alice.hear()
        time.sleep(0.02)
    bob, _, _ = join(Broker("127.0.0.1", port), GAME_ID, "bob", wait=10)
    state, rng = game.new_initial_state(), random.Random(seed)
    while not state.is_terminal():
        state.push(pick(state, rng))
    for message in published(state, Chain(state), alice.header.seats).values():
        (alice if message.by == "alice" else bob).publish(message)
    return [str(move) for move in state.history], [alice, bob]


def test_a_spectator_page_opened_on_a_finished_game_shows_every_move(mosquitto):
    """``gameboard watch`` of a finished game, in Chromium: the page's first view is its only one, and an error in
    renderSeats() (a read-only view has no games nor seats) stopped it before the move list and the rest."""
    playwright = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    moves, participants = finished_game_on_the_broker(mosquitto.port, "hexover", seed=3)
    watch = Command(["watch", f"mqtt://127.0.0.1:{mosquitto.port}/{GAME_ID}", "--port", str(free_port())],
                    dict(os.environ))
    try:
        with playwright.sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--headless=new"])
            page = browser.new_page()
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(watch.url)
            deadline = time.monotonic() + 15
            while page.locator("#log li").count() < len(moves) and not errors:
                assert time.monotonic() < deadline, f"the page shows {page.locator('#log li').count()} moves"
                page.wait_for_timeout(50)
            assert errors == []
            assert [item.split(".", 1)[1].strip() for item in page.locator("#log li").all_inner_texts()] == moves
            assert page.locator("#status").inner_text().startswith("game over")
            assert page.locator("#remote").inner_text().startswith(f"watching {GAME_ID}")
            browser.close()
    finally:
        watch.stop()
        for participant in participants:
            participant.close()


def test_joining_a_game_the_broker_does_not_have_says_so_after_the_wait(mosquitto, capsys):
    assert main(["sim", "--join", f"mqtt://127.0.0.1:{mosquitto.port}/nothing", "--name", "bob", "--wait", "0.5"]) == 2
    assert capsys.readouterr().err == (f"gameboard: error: no game nothing on mqtt://bob@127.0.0.1:{mosquitto.port} "
                                       "after 0.5 s: has its host started it?\n")


@pytest.mark.parametrize(("arguments", "expected"), [
    (["--join", "mqtt://127.0.0.1/friday"], "--join needs --name: this page's name in the game (e.g. --name bob)"),
    (["--join", "http://127.0.0.1/friday", "--name", "bob"], "broker 'http://127.0.0.1': write mqtt://HOST[:PORT]"),
    (["--join", "mqtt://127.0.0.1", "--name", "bob"], "'mqtt://127.0.0.1': end the address with the game id"),
    (["--join", "mqtt://127.0.0.1/friday", "--name", "bob smith"], "--name 'bob smith' must be 1-64 letters"),
    (["hexover", "--seats", "human", "computer", "--join", "mqtt://127.0.0.1/friday", "--name", "bob"],
     "to host a remote game, write the others' seats as remote:NAME in --seats; to join one, leave --seats out"),
    (["hexover", "--seats", "human", "remote:bob", "--join", "mqtt://127.0.0.1/friday", "--name", "bob"],
     "a seat is remote:bob, this participant's own name: write it human or computer"),
    (["--join", "mqtt://127.0.0.1/friday", "--name", "bob", "--option", "players=2"],
     "--option: a game joined has the options its host chose; leave --option out to join"),
    (["hexover", "--seats", "human", "remote:bob"], "a remote:NAME seat is played through a broker: give --join"),
    (["--join", "", "--name", "bob"], "'': end the address with the game id"),
    (["--join", "mqtt://[::1/friday", "--name", "bob"],
     "'mqtt://[::1/friday' is not an address (Invalid IPv6 URL); an IPv6 host goes in brackets"),
])
def test_bad_remote_options_are_refused_in_one_line(capsys, tmp_path, arguments, expected):
    assert main(["sim", "--journal", str(tmp_path / "j.sqlite3"), *arguments]) == 2
    assert capsys.readouterr().err.startswith(f"gameboard: error: {expected}")
