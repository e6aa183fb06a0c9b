"""Every feature under the shipped unit's own sandbox: real systemd runs systemd/gameboard.service and
its drop-ins as they are (tests/daemon/booted_unit.py), so a feature that needs a system call, an
address family or an address the unit withholds fails here, as it would on the Pi."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
import websockets

from engine.boards import load_board
from firmware_host.web.transport import apply
from tests.daemon.conftest import helper
from tests.hal.fake_coprocessor import FakeCoprocessor
from tests.remote.broker import Mosquitto, find_mosquitto, free_port
from wiring.model import straight_wiring

SYSTEMD = Path(__file__).parents[2] / "systemd"
UNIT = SYSTEMD / "gameboard.service"
WEB = SYSTEMD / "gameboard-web.conf"
REMOTE = SYSTEMD / "gameboard-remote.conf"
booted_unit = helper("booted_unit")


def mock_config(seats: list[str], extra: str = "") -> str:
    """Square Off on the mock board, with these seats: what `run --mock squareoff --seats ...` runs."""
    board = '\ndriver = "mock"\nboard = "squareoff"\n'
    return (f'[game]\nname = "squareoff"\nseats = {json.dumps(seats)}\n[sensors]{board}[leds]{board}'
            f'[buttons]{board}{extra}')


@pytest.fixture
def boot(tmp_path: Path) -> Iterator[Callable[..., object]]:
    """Boot the unit with drop-ins (see BootedUnit); skipped, saying why, where no container can boot."""
    reason = booted_unit.unavailable()
    if reason:
        pytest.skip(reason)
    running = []

    def start(*drop_ins: Path, **options: object) -> object:
        folder = tmp_path / f"boot{len(running)}"
        folder.mkdir()
        unit = booted_unit.BootedUnit(folder, UNIT, drop_ins, **options).__enter__()
        running.append(unit)
        if not unit.booted():
            pytest.skip("systemd-nspawn cannot boot a container here:\n" + "\n".join(unit.console[-20:]))
        return unit

    yield start
    for unit in running:
        unit.__exit__(None, None, None)


def test_the_computer_plays_under_the_unit_at_a_lower_priority(boot) -> None:
    board = boot(config=mock_config(["computer:easy", "human"]))
    board.wait_for(r"^black \(computer\): p\d+: ", unless="Traceback|failed")  # decided in the worker
    [worker] = [pid for pid, command in board.processes().items() if "multiprocessing.spawn" in command]
    daemon = int(Path(f"/proc/{worker}/stat").read_text().rpartition(")")[2].split()[1])
    assert os.getpriority(os.PRIO_PROCESS, worker) == os.getpriority(os.PRIO_PROCESS, daemon) + 10


def drop_in(folder: Path, name: str, *lines: str) -> Path:
    """A drop-in of the test's own, after the shipped ones: the command to run, or the one line a test varies."""
    path = folder / f"{name}.conf"
    path.write_text("[Service]\n" + "".join(f"{line}\n" for line in lines))
    return path


def command(*words: str) -> list[str]:
    """ExecStart= lines running the unit's own program with ``words``."""
    program = booted_unit.ServiceUnit.read(UNIT).last("ExecStart").split()[0]
    return ["ExecStart=", f"ExecStart={program} {' '.join(words)}"]


def test_a_sandbox_without_setpriority_still_plays_and_says_so_once(boot, tmp_path: Path) -> None:
    stricter = drop_in(tmp_path, "stricter", "SystemCallFilter=~setpriority")
    board = boot(stricter, config=mock_config(["computer:easy", "computer:easy"]))
    board.wait_for(r"^black \(computer\): p\d+: ", unless="Traceback|failed")
    said = [line for line in board.log() if "cannot lower its priority" in line]
    assert said == ["gameboard: the computer's process cannot lower its priority (Operation not permitted): it "
                    "thinks at the daemon's, which may slow the scan loop on a busy Pi; a systemd unit must allow "
                    "SystemCallFilter=setpriority (docs/daemon.md)"]


def test_the_web_drop_in_serves_the_page(boot, tmp_path: Path) -> None:
    shipped = booted_unit.ServiceUnit.read(UNIT, WEB).last("ExecStart")
    port = free_port()  # the shipped 8300 may be taken on a shared machine
    board = boot(WEB, drop_in(tmp_path, "port", "ExecStart=", f"ExecStart={shipped} --port {port}"),
                 config=mock_config(["human", "human"]))
    address = board.wait_for(r"^gameboard: open http://0\.0\.0\.0:(\d+)/(\?token=\S+)$",
                             unless=r"^gameboard: error|Traceback")
    with urllib.request.urlopen(f"http://127.0.0.1:{address[1]}/{address[2]}", timeout=30) as page:
        assert page.status == 200 and b"<html" in page.read()


def test_the_hint_press_under_the_web_drop_in(boot, tmp_path: Path) -> None:
    """The simulator's page presses the board's buttons: the hint, thought out in the worker."""
    port = free_port()
    sim = drop_in(tmp_path, "sim", *command("sim", "squareoff", "--seats", "human", "computer", "--listen",
                                            "127.0.0.1", "--port", str(port), "--journal",
                                            "/var/lib/gameboard/sim.sqlite3"),
                  "Type=exec", "WatchdogSec=0")  # the simulator tells systemd nothing: started once running
    board = boot(WEB, sim)
    board.wait_for(rf"^gameboard: open http://127\.0\.0\.1:{port}/$", unless=r"^gameboard: error|Traceback")

    async def press_hint() -> str:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as page:
            await page.send(json.dumps({"type": "button", "name": "hint"}))
            status, view = "", None
            while ": hint: " not in status:
                message = json.loads(await page.recv())
                view = apply(view, message) if message["type"] in ("view", "change") else view
                status = view["status"] if view else status
                assert "failed" not in status, status
            return status

    assert asyncio.run(asyncio.wait_for(press_hint(), 30)).startswith("black to move: hint: ")
    assert not [line for line in board.log() if "Traceback" in line], board.journal()


def test_the_serial_co_processor_under_the_unit(boot, tmp_path: Path) -> None:
    wiring = straight_wiring(load_board("squareoff"))
    mcu = FakeCoprocessor(tmp_path / "ttyBOARD", channels=len(wiring.channels), strips=wiring.strip_lengths,
                          heartbeat=0.5)
    try:
        os.chmod(mcu.port.resolve(), 0o666)  # as udev gives a ttyACM to dialout
        serial = '\ndriver = "serial"\nport = "/dev/ttyACM0"\n'
        # The fake co-processor is a pseudo-terminal (char-pts), where the board's is a ttyACM: for a systemd
        # that enforces DevicePolicy= (the container does not: no "devices" controller in it).
        board = boot(drop_in(tmp_path, "pty", "DeviceAllow=char-pts rw"),
                     config=f'[game]\nname = "squareoff"\n[sensors]{serial}[leds]{serial}',
                     devices={mcu.port.resolve(): "/dev/ttyACM0"})
        board.wait_for(r"^black to move: place a black piece on a green light$",
                       unless=r"^gameboard: error|Traceback|cannot")
        assert any(any(any(pixel) for pixel in strip) for frame in mcu.shown for strip in frame), "lit LEDs shown"
    finally:
        mcu.unplug()


def remote_config(host: str, port: int) -> str:
    """bob, elsewhere, moves first: the status says whether the broker is reached."""
    return mock_config(["remote:bob", "human"], f'[remote]\nbroker = "mqtt://{host}:{port}"\ngame = "sandbox"\n'
                                                'name = "alice"\n')


def checked_first(folder: Path) -> Path:
    """A drop-in running `run --check` before the daemon, under the same sandbox; its failure is logged only."""
    return drop_in(folder, "check", f"ExecStartPre=-{command('run', '--check')[1].removeprefix('ExecStart=')}")


def presence(port: int, name: str, timeout: float = 30.0) -> bool:
    """Whether ``name`` says it is online on the broker within ``timeout``."""
    online = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.on_connect = lambda *_: client.subscribe(f"gameboard/v3/sandbox/by/{name}/presence", qos=1)
    client.on_message = lambda _client, _data, message: message.payload == b"online" and online.set()
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        return online.wait(timeout)
    finally:
        client.loop_stop()
        client.disconnect()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    """Mosquitto on 127.0.0.1 and, on the same port, on 127.0.0.2: a broker the Pi's localhost covers but a
    narrower IPAddressAllow= does not."""
    if find_mosquitto() is None:
        pytest.skip("mosquitto is not installed: apt-get install mosquitto")
    (tmp_path / "broker").mkdir()
    running = Mosquitto(tmp_path / "broker")
    running.config.write_text(running.config.read_text() + f"listener {running.port} 127.0.0.2\n")
    yield running.start()
    running.kill()


def test_remote_play_with_its_drop_in(boot, broker: Mosquitto, tmp_path: Path) -> None:
    board = boot(REMOTE, checked_first(tmp_path), config=remote_config("127.0.0.1", broker.port))
    board.wait_for(r": ok: Square Off on squareoff, .* remote game sandbox on ", unless=r"^gameboard: error")
    assert presence(broker.port, "alice"), board.journal()
    assert not [line for line in board.log() if "Traceback" in line], board.journal()


def test_remote_play_without_its_drop_in_fails_and_the_check_says_so(boot, broker: Mosquitto, tmp_path: Path) -> None:
    board = boot(checked_first(tmp_path), config=remote_config("127.0.0.1", broker.port))
    board.wait_for(r"^gameboard: error: /etc/gameboard/gameboard\.toml: \[remote\] broker 127\.0\.0\.1: "
                   r"gameboard\.service gives the daemon no network \(PrivateNetwork=yes, "
                   r"RestrictAddressFamilies=AF_UNIX\); install the remote-play drop-in: ")
    # What the daemon meets, said in one line rather than a traceback: systemd gives up after a few restarts.
    board.wait_for(r"^gameboard: error: remote play cannot open a network socket here \(Address family not "
                   r"supported by protocol\); under gameboard.service install the remote-play drop-in: ")
    assert not [line for line in board.log() if "Traceback" in line], board.journal()


def test_a_broker_the_drop_in_does_not_list_is_shut_out_and_the_check_says_so(boot, broker: Mosquitto,
                                                                             tmp_path: Path) -> None:
    shipped = booted_unit.ServiceUnit.read(REMOTE).last("IPAddressAllow")
    narrower = drop_in(tmp_path, "narrower", "IPAddressAllow=",
                       f"IPAddressAllow={shipped.replace('localhost', '127.0.0.1')}")
    board = boot(REMOTE, narrower, checked_first(tmp_path), config=remote_config("127.0.0.2", broker.port))
    board.wait_for(r"^gameboard: error: .*: gameboard\.service keeps the daemon from reaching 127\.0\.0\.2 "
                   r"\(127\.0\.0\.2\); add it to IPAddressAllow= in ")
    board.wait_for(r"^black \(bob\) to move: waiting for bob's move \(connecting to the broker\)$")
    unsupported = [line for line in board.console if "does not support BPF/cgroup firewalling" in line]
    if unsupported:
        pytest.skip(f"systemd cannot enforce IPAddressDeny= in this container: {unsupported[0]}")
    # systemd drops its packets: the connection hangs (TCP retries its SYN for minutes), alice never arrives.
    assert not presence(broker.port, "alice", timeout=3.0), board.journal()
