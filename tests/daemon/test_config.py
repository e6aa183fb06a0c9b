"""The configuration file: good files load, each bad key or value names its line and the fix."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from firmware_host.config import ConfigError, key_lines, load_config
from tests.remote.broker import certificates

GOOD = """\
# the board in the living room
[game]
name = "toy"
options = { hand = 2 }

[board]
wiring = "wiring.toml"

[sensors]
driver = "hc165"
chips = 26

[leds]
driver = "neopixel"
brightness = 0.25
current_budget_ma = 1500
strips = [{ pin = "D18", length = 24 }]

[buttons]
driver = "gpio"
pins = { confirm = 6 }
[dice]
mode = "entered"

[loop]
scan_hz = 100
debounce_ms = 5

[journal]
path = "state/journal.sqlite3"
"""

SMALLEST = '[game]\nname = "toy"\n[sensors]\ndriver = "mock"\nboard = "squareoff"\n[leds]\ndriver = "mock"\nboard = "squareoff"\n'


def test_a_full_file_loads_with_paths_beside_it(write_config) -> None:
    path = write_config(GOOD)
    config = load_config(path)
    assert config.game_name == "toy" and config.game_options == {"hand": 2}
    assert config.wiring_path == path.parent / "wiring.toml"
    assert config.journal_path == path.parent / "state" / "journal.sqlite3"
    assert (config.sensors.driver, config.sensors.options) == ("hc165", {"chips": 26})
    assert config.leds.driver == "neopixel" and config.leds.options == {"strips": [{"pin": "D18", "length": 24}]}
    assert (config.brightness, config.current_budget_ma, config.ma_per_led) == (0.25, 1500, 60.0)
    assert config.buttons is not None and config.buttons.driver == "gpio"
    assert config.dice_mode == "entered"
    assert (config.loop.scan_hz, config.loop.debounce_ms, config.loop.settle_ms) == (100.0, 5.0, 400.0)
    assert config.new_game().game.options["hand"] == 2


def test_seats_and_hints_are_read_and_every_seat_is_human_by_default(write_config) -> None:
    from firmware_host.seats import HUMAN, Seat
    assert load_config(write_config(GOOD)).seats == (HUMAN, HUMAN)
    config = load_config(write_config(GOOD.replace("options = { hand = 2 }",
                                                   'options = { hand = 2 }\nseats = ["computer:hard", "human"]\n'
                                                   "hints = false")))
    assert config.seats == (Seat("computer", "hard"), HUMAN) and config.hints is False


def test_the_computers_speed_is_measured_unless_the_file_gives_it(write_config) -> None:
    from firmware_host.thinker import Thinking
    assert load_config(write_config(GOOD)).thinking == Thinking(None)
    config = load_config(write_config(GOOD.replace("[journal]", "[computer]\nspeed = 1\nhint_seconds = 0.5\n[journal]")))
    assert config.thinking == Thinking(1.0, hint_seconds=0.5)


def test_the_smallest_file_takes_defaults(write_config, monkeypatch) -> None:
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    path = write_config(SMALLEST)
    config = load_config(path)
    assert config.buttons is None and config.wiring_path is None and config.dice_mode == "daemon"
    assert config.journal_path == path.parent / "journal.sqlite3"
    assert config.loop.scan_hz == 200.0
    assert set(config.load_wiring().channels.values()) == set(config.new_game().game.locations)


def test_the_journal_defaults_to_systemds_state_directory(write_config, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    config = load_config(write_config(SMALLEST))
    assert config.journal_path == tmp_path / "state" / "journal.sqlite3"


@pytest.mark.parametrize(("old", "new", "expected"), [
    ("brightness = 0.25", "brightness = 1.5", r":15: leds\.brightness: 1\.5 is not accepted; use a fraction"),
    ("brightness = 0.25", "brightness = true", r":15: leds\.brightness: True is not accepted"),
    ("scan_hz = 100", "scan_hz = 0", r":26: loop\.scan_hz: 0 is not accepted; use a rate"),
    ("scan_hz = 100", "scan_hertz = 100", r":26: loop\.scan_hertz: unknown key; \[loop\] takes scan_hz, "),
    ('mode = "entered"', 'mode = "hand"', r':23: dice\.mode: .hand. is not accepted; use mode = "daemon"'),
    ('name = "toy"', 'name = "chess"', r":3: game\.name: unknown game 'chess'; use one of overpass"),
    ("options = { hand = 2 }", "options = { hand = 9 }", r":4: game\.options: toy: option hand=9 is not one of"),
    ("options = { hand = 2 }", "options = { speed = 9 }", r":4: game\.options: toy: unknown option\(s\) speed"),
    ('driver = "hc165"', 'driver = ""', r":10: sensors\.driver: driver is missing or not a name; e\.g\. driver"),
    ("[journal]", "[journals]", r":29: journals: unknown section \[journals\]; the sections are \[game\]"),
    ("scan_hz = 100", "scan_hz = ", r":26: not valid TOML: Invalid value; fix the syntax at column 11"),
    ('path = "state/journal.sqlite3"', "path = 3", r":30: journal\.path: 3 is not accepted; give a writable file"),
    ("options = { hand = 2 }", 'options = { hand = 2 }\nseats = ["human"]',
     r":5: game\.seats: 1 seat for a game of 2 players: give one per player"),
    ("options = { hand = 2 }", 'options = { hand = 2 }\nseats = ["human", "computer:expert"]',
     r":5: game\.seats: 'computer:expert': no computer level 'expert'; levels: easy, normal, hard"),
    ("options = { hand = 2 }", 'options = { hand = 2 }\nseats = "computer"',
     r":5: game\.seats: 'computer' is not accepted; list who plays each seat"),
    ("options = { hand = 2 }", 'options = { hand = 2 }\nhints = "yes"', r":5: game\.hints: 'yes' is not accepted"),
    ("[journal]", '[computer]\nspeed = "fast"\n[journal]',
     r""":30: computer\.speed: 'fast' is not accepted; use speed = "auto" \(measured when the computer first thinks\) """
     r"or this machine's speed as a multiple of a Raspberry Pi 4's"),
    ("[journal]", "[computer]\nspeed = 0\n[journal]", r":30: computer\.speed: 0 is not accepted; use speed = "),
    ("[journal]", "[computer]\nhint_seconds = 60\n[journal]", r":30: computer\.hint_seconds: 60 is not accepted; use "),
])
def test_each_bad_value_names_its_line_key_and_fix(write_config, old: str, new: str, expected: str) -> None:
    assert old in GOOD
    path = write_config(GOOD.replace(old, new, 1))
    with pytest.raises(ConfigError, match=expected) as caught:
        load_config(path)
    assert str(caught.value).startswith(str(path))


def test_a_missing_section_or_required_key_says_what_to_add(write_config) -> None:
    with pytest.raises(ConfigError, match=r"the \[leds\] section is missing; add it with driver = "):
        load_config(write_config('[game]\nname = "toy"\n[sensors]\ndriver = "mock"\n'))
    with pytest.raises(ConfigError, match=r":1: game: name is missing; name a game"):
        load_config(write_config('[game]\n[sensors]\ndriver = "mock"\n[leds]\ndriver = "mock"\n'))


def test_an_unreadable_file_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nowhere\.toml: cannot read the configuration file .*--config"):
        load_config(tmp_path / "nowhere.toml")


def test_key_lines_reads_headers_keys_inline_tables_and_skips_multiline_strings() -> None:
    text = ('[game]\nname = "x"\nnote = """\nfake = 1\n"""\noptions = { players = 2, "rule set" = "a" }\n'
            '[leds.extra]\nk=1\n')
    lines = key_lines(text)
    assert lines == {"game": 1, "game.name": 2, "game.note": 3, "game.options": 6,
                     "game.options.players": 6, "game.options.rule set": 6, "leds.extra": 7, "leds.extra.k": 8}


MOCK = """\
[game]
name = "toy"
[sensors]
driver = "mock"
board = "squareoff"
[leds]
driver = "mock"
board = "squareoff"
[buttons]
driver = "mock"
board = "squareoff"
[dice]
seed = 3
"""


def test_open_hal_builds_the_configured_drivers(write_config) -> None:
    from hal.dice import RandomDice
    hal = load_config(write_config(MOCK)).open_hal()
    assert hal.sensors.channels == 24 and hal.leds.strip_lengths == (24,)
    assert hal.buttons is not None and isinstance(hal.dice, RandomDice)


@pytest.mark.parametrize(("old", "new", "expected"), [
    ('driver = "mock"\nboard = "squareoff"\n[leds]', 'driver = "mock"\nboard = "chess"\n[leds]',
     r":5: sensors\.board: "),
    ('driver = "mock"\nboard = "squareoff"\n[leds]', 'driver = "mock"\nboard = "squareoff"\ncolour = 1\n[leds]',
     r":6: sensors\.colour: "),
    ('[leds]\ndriver = "mock"', '[leds]\ndriver = "laser"', r":7: leds\.driver: no LED driver 'laser'"),
])
def test_a_bad_driver_option_names_its_line(write_config, old: str, new: str, expected: str) -> None:
    assert old in MOCK
    with pytest.raises(ConfigError, match=expected):
        load_config(write_config(MOCK.replace(old, new, 1))).open_hal()


def test_every_problem_of_a_file_is_reported_at_once_in_file_order(write_config) -> None:
    text = (GOOD.replace('driver = "hc165"', 'driver = "hc595"').replace("brightness = 0.25", "brightness = 2")
            .replace("scan_hz = 100", "scan_hertz = 100").replace("[journal]", "[journals]"))
    path = write_config(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert [line.split(": ")[0:2] for line in str(caught.value).splitlines()] == [
        [f"{path}:10", "sensors.driver"], [f"{path}:15", "leds.brightness"], [f"{path}:26", "loop.scan_hertz"],
        [f"{path}:29", "journals"]]


@pytest.mark.parametrize(("old", "new", "expected"), [
    ('driver = "mock"\nboard = "squareoff"\n[leds]', 'driver = "hc595"\n[leds]',
     r":4: sensors\.driver: no sensors driver 'hc595'; the drivers are: gpio, hc165"),
    ('driver = "mock"\nboard = "squareoff"\n[leds]', 'driver = "hc165"\n[leds]',
     r":3: sensors\.chips: the hc165 driver needs this option, e.g. chips = 26"),
    ('[leds]\ndriver = "mock"\nboard = "squareoff"\n', '[leds]\ndriver = "mock"\n',
     r':6: leds\.board: the mock must be of the game\'s board: give board = "squareoff"'),
    ('[sensors]\ndriver = "mock"\nboard = "squareoff"', '[sensors]\ndriver = "mock"\nboard = "hexover"',
     r':5: sensors\.board: the mock must be of the game\'s board: give board = "squareoff"'),
])
def test_drivers_and_their_options_are_checked_as_the_file_is_read(write_config, old: str, new: str,
                                                                   expected: str) -> None:
    assert old in MOCK
    with pytest.raises(ConfigError, match=expected):
        load_config(write_config(MOCK.replace(old, new, 1)))


@pytest.fixture
def restored_pin_factory() -> Iterator[None]:
    """gpiozero's pin factory as it was before the test, whatever the test installs."""
    saved = Device.pin_factory
    try:
        yield
    finally:
        if Device.pin_factory is not saved and Device.pin_factory is not None:
            Device.pin_factory.close()
        Device.pin_factory = saved


GPIO = '[game]\nname = "toy"\n[sensors]\ndriver = "gpio"\npins = [17, 27]\n[leds]\ndriver = "mock"\nboard = "squareoff"\n'


def test_the_pin_library_is_gpiozeros_pin_factory_of_that_name(write_config, restored_pin_factory) -> None:
    before = Device.pin_factory
    hal = load_config(write_config(GPIO + '[gpio]\npin_factory = "mock"\n')).open_hal()
    assert isinstance(Device.pin_factory, MockFactory) and Device.pin_factory is not before
    assert hal.sensors.channels == 2
    hal.close()


@pytest.mark.parametrize(("name", "expected"), [
    ("pigpio", r":10: gpio\.pin_factory: the pigpio pin factory needs the pigpio library, which is not installed; "
               r"pip install pigpio"),
    ("wiringpi", r":10: gpio\.pin_factory: 'wiringpi' is not one of gpiozero's pin factories \(lgpio, mock, native, "
                 r"pigpio, rpigpio\); or leave pin_factory out"),
])
def test_a_pin_library_that_is_not_here_names_the_key_and_the_fix(write_config, name: str, expected: str) -> None:
    if find_spec(name) is not None:
        pytest.skip(f"{name} is installed here")
    with pytest.raises(ConfigError, match=expected) as caught:
        load_config(write_config(GPIO + f'[gpio]\npin_factory = "{name}"\n'))
    assert len(str(caught.value).splitlines()) == 1


def test_a_pin_library_that_cannot_start_off_a_pi_is_one_line(write_config, restored_pin_factory) -> None:
    if Path("/proc/device-tree/model").exists():
        pytest.skip("gpiozero's native pin factory starts on a Pi")
    config = load_config(write_config(GPIO + '[gpio]\npin_factory = "native"\n'))
    with pytest.raises(ConfigError, match=r":10: gpio\.pin_factory: gpiozero's native pin factory cannot start "
                                          r"here \(.*\); use the one this Pi supports"):
        config.open_hal()


REMOTE = GOOD.replace("options = { hand = 2 }", 'options = { hand = 2 }\nseats = ["human", "remote:bob"]') + """
[remote]
broker = "mqtts://broker.example"
game = "friday"
name = "alice"
password = "s3cret"
ca_file = "ca.crt"
"""


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A certificate authority, the broker's certificate and alice's, made by openssl (tests/remote/broker.py)."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (apt-get install openssl): no certificates to check")
    return certificates(tmp_path_factory.mktemp("tls"))


@pytest.fixture
def write_remote(write_config: Callable[[str], Path], tls: Any) -> Callable[..., Path]:
    """REMOTE with the authority beside the file as ca.crt, and its [remote] lines changed by ``changes``."""
    def write(*changes: tuple[str, str]) -> Path:
        text = REMOTE
        for old, new in changes:
            assert old in text
            text = text.replace(old, new, 1)
        path = write_config(text)
        shutil.copy(tls.ca, path.parent / "ca.crt")
        return path
    return write


def test_a_remote_game_reads_the_broker_the_game_and_this_boards_name(write_remote, write_config) -> None:
    from firmware_host.seats import HUMAN, Seat
    path = write_remote()
    config = load_config(path)
    assert config.seats == (HUMAN, Seat("remote", holder="bob"))
    remote = config.remote
    assert (remote.game, remote.name, remote.secrets) == ("friday", "alice", {"password": path})
    broker = remote.broker
    assert (broker.host, broker.port, broker.tls, broker.username, broker.password, broker.ca_file) == (
        "broker.example", 8883, True, "alice", "s3cret", path.parent / "ca.crt")
    assert load_config(write_config(GOOD)).remote is None


def test_the_password_may_be_in_a_file_of_its_own_beside_the_configuration(write_remote) -> None:
    path = write_remote(('password = "s3cret"', 'password_file = "broker.password"'))
    (path.parent / "broker.password").write_text("pa ss word\r\n\n", encoding="utf-8")
    remote = load_config(path).remote
    assert remote.broker.password == "pa ss word"  # its spaces, not the line end nor an empty line after
    assert remote.secrets == {"password_file": path.parent / "broker.password"}


def test_a_client_certificate_and_its_key_are_secrets_the_configuration_names(write_remote, tls) -> None:
    lines = f'cert_file = "{tls.client}"\nkey_file = "{tls.client_key}"\nca_file'
    remote = load_config(write_remote(("ca_file", lines))).remote
    assert (remote.broker.cert_file, remote.broker.key_file) == (tls.client, tls.client_key)
    assert remote.secrets == {"password": remote.secrets["password"], "key_file": tls.client_key}


@pytest.mark.parametrize(("old", "new", "expected"), [
    ('broker = "mqtts://broker.example"', 'broker = "http://broker.example"',
     r":\d+: remote\.broker: broker 'http://broker\.example': write mqtt://HOST\[:PORT\]"),
    ('broker = "mqtts://broker.example"', 'broker = "mqtt://broker.example:99999"',
     r"remote\.broker: .*the port must be a number from 1 to 65535"),
    ('broker = "mqtts://broker.example"', 'broker = "mqtt://broker.example"',
     r"remote\.broker: certificate files are for TLS: write the broker as mqtts://"),
    ('broker = "mqtts://broker.example"', 'broker = "mqtts://alice:s3cret@broker.example"',
     r":34: remote\.broker: broker 'mqtts://alice:\*\*\*@broker\.example': a password in the address is shown "
     r"wherever the address is \(`ps`, logs\); take it out and give it apart: \[remote\] password_file or password"),
    ('game = "friday"', 'game = "friday night"', r"remote\.game: 'friday night' is not accepted; use 1-64 letters"),
    ('name = "alice"\n', "", r":\d+: remote: name is missing; give this board's name"),
    ('password = "s3cret"', 'password = ""', r":37: remote\.password: '' is not accepted; give the broker's password"),
    ('password = "s3cret"', 'password = "s3cret"\npassword_file = "ca.crt"',
     r":38: remote\.password_file: give the password one way: password_file or password, not both"),
    ('password = "s3cret"', 'password_file = "nothing"',
     r":37: remote\.password_file: /\S+/nothing does not exist; give an existing file"),
    ('password = "s3cret"', 'password_file = "ca.crt"',
     r":37: remote\.password_file: /\S+/ca\.crt has \d+ lines; write the password alone on one line"),
    ('password = "s3cret"', 'password_file = "."', r":37: remote\.password_file: /\S+ is a folder; give a file"),
    ('seats = ["human", "remote:bob"]', 'seats = ["human", "computer"]',
     r"game\.seats: a remote game needs a seat held elsewhere: write it remote:NAME"),
    ('seats = ["human", "remote:bob"]', 'seats = ["human", "remote:alice"]',
     r"game\.seats: remote:alice is this board's own name \(\[remote\] name\): write its seat human or computer"),
    ("[remote]", "[remote_play]", r"remote_play: unknown section \[remote_play\]"),
])
def test_a_bad_remote_section_names_its_line_and_fix(write_remote, old: str, new: str, expected: str) -> None:
    with pytest.raises(ConfigError, match=expected):
        load_config(write_remote((old, new)))


def test_an_empty_password_file_names_its_line_and_fix(write_remote) -> None:
    path = write_remote(('password = "s3cret"', 'password_file = "broker.password"'))
    (path.parent / "broker.password").write_text("\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r":37: remote\.password_file: \S+/broker\.password is empty; write the "
                                          r"broker's password in it, alone on one line$"):
        load_config(path)


#: [remote]'s TLS lines, with the files of the ``tls`` fixture (CA, SERVER, ALICE with their KEYs), and the problem.
TLS_PROBLEMS = [
    ('ca_file = "nothing.crt"', r"remote\.ca_file: /\S+/nothing\.crt does not exist; give an existing file"),
    ('ca_file = "."', r"remote\.ca_file: /\S+ is a folder; give a file"),
    ('ca_file = "gameboard.toml"', r"remote\.ca_file: /\S+/gameboard\.toml holds no PEM certificate; give the "
                                   r"certificate of the authority that signed the broker's"),
    ('ca_file = "ALICE_KEY"', r"remote\.ca_file: /\S+/alice\.key holds no PEM certificate"),
    ('cert_file = "ALICE_KEY"\nkey_file = "ALICE_KEY"', r"remote\.cert_file: /\S+/alice\.key holds no PEM certificate; "
                                                      r"give this board's certificate"),
    ('cert_file = "ALICE"\nkey_file = "SERVER_KEY"', r"remote\.key_file: /\S+/server\.key is not the key of "
                                                   r"/\S+/alice\.crt; give the key made with that certificate"),
    ('cert_file = "ALICE"\nkey_file = "CA"', r"remote\.key_file: /\S+/ca\.crt holds no PEM private key; give the key "
                                           r"of /\S+/alice\.crt"),
    ('cert_file = "ALICE"', r"remote\.cert_file: /\S+/alice\.crt holds no private key; give the certificate's key as "
                            r"key_file"),
    ('key_file = "ALICE_KEY"', r"remote\.key_file: a key goes with its certificate: give cert_file too"),
    ('cert_file = "ALICE"\nkey_file = "LOCKED_KEY"', r"remote\.key_file: /\S+/locked\.key asks for a passphrase, which "
                                                   r"nobody types when the board starts; write the key without one: "
                                                   r"openssl pkey -in /\S+/locked\.key -out /\S+/locked\.key\.plain"),
]


def tls_lines(lines: str, tls: Any) -> str:
    """``lines`` with the ``tls`` fixture's files for their names (CA, ALICE_KEY, ...)."""
    files = {"CA": tls.ca, "SERVER_KEY": tls.server_key, "ALICE_KEY": tls.client_key, "ALICE": tls.client,
             "LOCKED_KEY": tls.client_key.with_name("locked.key")}
    for name, path in files.items():
        lines = lines.replace(f'"{name}"', f'"{path}"')
    return lines


@pytest.mark.parametrize(("lines", "expected"), TLS_PROBLEMS)
def test_each_tls_file_is_loaded_as_the_connection_will_and_a_bad_one_names_its_line(write_remote, tls, lines: str,
                                                                                    expected: str) -> None:
    locked = tls.client_key.with_name("locked.key")
    if not locked.exists():
        subprocess.run(["openssl", "pkey", "-in", tls.client_key, "-aes256", "-passout", "pass:secret", "-out", locked],
                       check=True, capture_output=True)
    path = write_remote(('ca_file = "ca.crt"', tls_lines(lines, tls)))
    with pytest.raises(ConfigError, match=rf"^{path}:\d+: {expected}") as refused:
        load_config(path)
    assert str(refused.value).count("\n") == 0, "one problem, one line"


def test_a_certificate_with_its_key_in_the_same_file_is_accepted(write_remote, tls, tmp_path) -> None:
    both = tmp_path / "alice.pem"
    both.write_bytes(tls.client.read_bytes() + tls.client_key.read_bytes())
    remote = load_config(write_remote(('ca_file = "ca.crt"', f'ca_file = "ca.crt"\ncert_file = "{both}"'))).remote
    assert remote.secrets["cert_file"] == both


def test_a_remote_seat_without_a_broker_says_to_add_the_section(write_config) -> None:
    text = GOOD.replace("options = { hand = 2 }", 'options = { hand = 2 }\nseats = ["human", "remote:bob"]')
    with pytest.raises(ConfigError, match=r":5: game\.seats: a remote:NAME seat is played through a broker: add a "
                                          r"\[remote\] section"):
        load_config(write_config(text))
