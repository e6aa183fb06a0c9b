"""Take the README's pictures of the simulator: a desktop window (1280 px) and a phone (390 px).

Run from the repository's folder, with the test extras and Debian's Chromium installed:

    .venv/bin/python docs/screenshots.py

It starts ``gameboard sim`` on a free port with a fresh journal, plays the opening of a
two-player Over-Pass game in headless Chromium (the entering piece, the roll, the piece
lifted so its destinations light), and writes docs/simulator.png and
docs/simulator-phone.png (the same moment on a phone, the board zoomed in).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

DOCS = Path(__file__).parent
GAMEBOARD = Path(sys.executable).with_name("gameboard")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--headless=new"]


def start_simulator(journal: Path) -> tuple[subprocess.Popen, str]:
    """``gameboard sim`` on a port free a moment ago, and the address it prints."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([str(GAMEBOARD), "sim", "overpass", "--option", "players=2", "--seed", "7",
                                "--port", str(port), "--journal", str(journal)], stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if not line.startswith("gameboard: open "):
        process.kill()
        raise SystemExit(f"screenshots: gameboard sim did not start: {line.strip() or 'no output'}")
    return process, line.removeprefix("gameboard: open ").strip()


def click(page: Page, location: str) -> None:
    box = page.locator(f'#board [data-loc="{location}"]').first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def play_opening(page: Page) -> None:
    """Enter the first player's piece on the Center Square, let the daemon roll, and lift the piece."""
    page.wait_for_function("current && current.daemon && current.daemon.status === 'ready'")
    mover = page.evaluate("current.tray.find((code) => current.piece_colours[code] === current.turn_colour)")
    page.click(f'#tray button[data-piece="{mover}"]')
    page.wait_for_selector(f'#hand [data-piece="{mover}"]')
    click(page, "center")
    page.wait_for_function("document.querySelector('#dice').textContent.startsWith('roll')")
    click(page, "center")
    page.wait_for_function("current.daemon.destinations.length > 0")
    page.mouse.move(0, 0)  # no hover highlight in the picture


def main() -> int:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("screenshots: Chromium is needed (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as folder:
        process, address = start_simulator(Path(folder) / "journal.sqlite3")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                desktop = browser.new_page(viewport={"width": 1280, "height": 900})
                desktop.goto(address)
                play_opening(desktop)
                desktop.screenshot(path=DOCS / "simulator.png")
                phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                         is_mobile=True, has_touch=True)
                phone.goto(address)
                phone.wait_for_function("current && current.daemon.destinations.length > 0")
                for _ in range(2):
                    phone.locator("#zoom-in").tap()
                phone.touchscreen.tap(5, 5)  # on the header: no button left looking pressed
                phone.screenshot(path=DOCS / "simulator-phone.png")
                browser.close()
        finally:
            process.terminate()
            process.wait()
    print(f"screenshots: wrote {DOCS / 'simulator.png'} and {DOCS / 'simulator-phone.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
