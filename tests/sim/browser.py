"""The simulator page in headless Chromium, as the browser tests drive it: the browser, pages at a
desktop's and a phone's width, and what a person does and sees there."""

import shutil
import time

import pytest

try:
    from playwright import sync_api as playwright
except ImportError:  # the test extra is not installed: the browser tests skip
    playwright = None

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--headless=new"]


#: Viewports by width: a desktop's, and a phone's (390 px, as an iPhone 12-15's).
VIEWPORTS = {1280: {"width": 1280, "height": 900}, 390: {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, for one module's tests (Playwright's own loop must not outlive them);
    the test skips without it or without Playwright."""
    if playwright is None:
        pytest.skip("Playwright is not installed (pip install -e '.[test]')")
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser):
    """``open_page(url, width=1280)`` -> the page loaded in a window that width; touch is on, and a phone
    (390) is a mobile browser."""
    contexts = []

    def load(url, width=1280):
        context = browser.new_context(viewport=VIEWPORTS[width], has_touch=True, is_mobile=width < 800)
        contexts.append(context)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#board svg")
        return page

    yield load
    for context in contexts:
        context.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=VIEWPORTS[1280])
    yield context.new_page()
    context.close()


def drawn_box(page, location):
    """Where a location is drawn on the screen, scrolled into view (measured at once: a change redraws the place)."""
    return page.evaluate("""(location) => {
        const place = document.querySelector(`#board [data-loc="${location}"]`);
        place.scrollIntoView({block: "nearest"});
        const box = place.getBoundingClientRect();
        return {x: box.x, y: box.y, width: box.width, height: box.height};
    }""", location)


def centre(page, location):
    """The middle of a location on the screen (whatever is drawn on top there)."""
    box = drawn_box(page, location)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def click(page, location):
    """Click where a location is on the board, as a person does."""
    page.mouse.click(*centre(page, location))


def tap(page, location):
    """Tap a location with a finger (touch events, not mouse clicks)."""
    page.touchscreen.tap(*centre(page, location))


def touch_screen(page):
    """``touch(kind, *points)``: one touch event (touchStart, touchMove, touchEnd) with these fingers, as a
    touch screen sends it; a gesture's events go through one screen."""
    cdp = page.context.new_cdp_session(page)

    def touch(kind, *points):
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y, "id": finger}
                                                                              for finger, (x, y) in enumerate(points)]})
    return touch


def pinch(page, spread_from, spread_to):
    """Two fingers on the board's middle, moved apart from ``spread_from`` to ``spread_to`` pixels."""
    touch = touch_screen(page)
    box = page.locator("#board svg").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for step in range(6):
        half = (spread_from + (spread_to - spread_from) * step / 5) / 2
        touch("touchStart" if step == 0 else "touchMove", (x - half, y), (x + half, y))
    touch("touchEnd")


def drawn_size(page, location):
    return drawn_box(page, location)["width"]


def text(page, selector):
    return page.locator(selector).inner_text()


def led(page, location):
    """The LED colour the page shows at a location, or None."""
    ring = page.locator(f'#board g[data-loc="{location}"] circle.led')
    return ring.get_attribute("stroke") if ring.count() else None


def wait_for_history(served, length, timeout=10.0):
    """Wait (in real time: the daemon needs its settle time) for the game to reach ``length`` moves."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if served.call(lambda: len(served.session.daemon.state.history)) >= length:
            return
        time.sleep(0.02)
    raise AssertionError(f"history stayed at {served.session.daemon.state.history}")


def wait_for(served, condition, timeout=10.0):
    """The daemon's snapshot once ``condition(snapshot)`` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snapshot = served.call(served.session.daemon.snapshot)
        if condition(snapshot):
            return snapshot
        time.sleep(0.02)
    raise AssertionError(f"the daemon never got there: {snapshot['status_text']}")
