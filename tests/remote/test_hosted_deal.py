"""A hosted remote game with a random set-up is dealt afresh unless a seed is asked for: its header carries the
seed, so every participant deals the same layout, and a host restarted takes its game up again as dealt."""

from __future__ import annotations

from firmware_host.cli import build_parser
from firmware_host.commands.arguments import game_options
from firmware_host.commands.sim import remote_seat
from firmware_host.config import load_config
from firmware_host.daemon import Daemon
from firmware_host.sim import SimSession
from hal.clock import ManualClock


def host_page(port: int, journal, game_id: str = "g1", options: tuple[str, ...] = ()):
    """`gameboard sim pawns-crossing --seats human remote:bob --join ... --name alice`, as far as the page's game:
    the header's seed and the position the page starts at."""
    argv = ["sim", "pawns-crossing", "--seats", "human", "remote:bob", "--join", f"mqtt://127.0.0.1:{port}/{game_id}",
            "--name", "alice", "--journal", str(journal), *options]
    args = build_parser().parse_args(argv)
    remote, game, chosen, seats = remote_seat(args, game_options(args.option), journal)
    session = SimSession(game, chosen, journal=journal, seats=seats, clock=ManualClock(), remote=remote)
    try:
        state = session.daemon.state
        assert state.game.options == remote.header.options == chosen, "the page plays the header's deal"
        return remote.header.options["seed"], state.layout(), session.daemon.journal.game_id
    finally:
        session.close()
        remote.close()


def test_a_hosted_game_is_dealt_afresh_and_a_restarted_host_takes_it_up_again(mosquitto, tmp_path):
    journal = tmp_path / "alice.sqlite3"
    seed, layout, game_id = host_page(mosquitto.port, journal)
    assert host_page(mosquitto.port, journal) == (seed, layout, game_id), "restarted, the same game as dealt"
    other = host_page(mosquitto.port, tmp_path / "other.sqlite3", "g2")
    assert other[0] != seed and other[1] != layout
    assert host_page(mosquitto.port, tmp_path / "asked.sqlite3", "g3", ("--option", "seed=0"))[0] == 0


CONFIG = """\
[game]
name = "pawns-crossing"
seats = ["human", "remote:bob"]

[sensors]
driver = "mock"
board = "pawns"

[leds]
driver = "mock"
board = "pawns"

[journal]
path = "{journal}"

[remote]
broker = "mqtt://127.0.0.1:{port}"
game = "{game}"
name = "alice"
"""


def board_deal(tmp_path, port: int, game_id: str) -> tuple[int, int]:
    """`gameboard run` hosting ``game_id`` on a mock board (Daemon.from_config): its header's seed, its game's."""
    path = tmp_path / "gameboard.toml"
    path.write_text(CONFIG.format(journal=tmp_path / "journal.sqlite3", port=port, game=game_id), encoding="utf-8")
    daemon = Daemon.from_config(load_config(path), ManualClock())
    try:
        return daemon.remote.header.options["seed"], daemon.state.game.options["seed"]
    finally:
        daemon.close()


def test_a_board_hosting_a_game_deals_it_afresh_and_keeps_its_deal_over_a_restart(mosquitto, tmp_path):
    header_seed, seed = board_deal(tmp_path, mosquitto.port, "g1")
    assert header_seed == seed and board_deal(tmp_path, mosquitto.port, "g1") == (seed, seed)
    assert board_deal(tmp_path, mosquitto.port, "g2")[0] != seed, "the next game, under another id, dealt afresh"
