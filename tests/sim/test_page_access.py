"""The page by keyboard and screen reader, in headless Chromium: an opening turn of Over-Pass played with Tab,
the arrows and Enter alone; every place named with its contents in Chromium's accessibility tree; the status
announced once per change, never on a blink; and axe-core finding nothing wrong."""

import json
import time
from pathlib import Path

import pytest

from tests.sim.browser import click, wait_for, wait_for_history

#: axe-core, installed by .ci/run (the npm package, in a folder git ignores).
AXE = Path(__file__).resolve().parents[2] / ".browser" / "node_modules" / "axe-core" / "axe.min.js"
ARROWS = ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight")


def focused(page) -> dict:
    """What has the keyboard's focus: its place on the board (``loc``), the box's piece or the button's name."""
    return page.evaluate("""() => {
        const el = document.activeElement;
        return {loc: el.closest('#board [data-loc]')?.dataset.loc ?? null, piece: el.dataset.piece ?? null,
                button: el.dataset.button ?? null, id: el.id};
    }""")


def tab_to(page, wanted, key="Tab", most=60) -> int:
    """Press Tab (or Shift+Tab) until ``wanted(focused(page))``; how many presses it took."""
    for presses in range(1, most + 1):
        page.keyboard.press(key)
        if wanted(focused(page)):
            return presses
    raise AssertionError(f"{most} presses of {key} never reached it: focus on {focused(page)}")


def arrow_to(page, target: str) -> int:
    """Walk the focus to ``target`` with the arrow keys, by the shortest way the page's arrows go; how many
    presses it took (each press checked to land where the page's neighbours say)."""
    start = focused(page)["loc"]
    way = page.evaluate("""([start, target]) => {
        const came = new Map([[start, null]]);
        for (const queue = [start]; queue.length;) {
            const at = queue.shift();
            if (at === target) break;
            for (const key of %s) {
                const next = BoardKeys.neighbour(at, key);
                if (next && !came.has(next)) { came.set(next, [at, key]); queue.push(next); }
            }
        }
        const keys = [];
        for (let at = target; came.get(at); at = came.get(at)[0]) keys.unshift([came.get(at)[1], at]);
        return came.has(target) ? keys : null;
    }""" % json.dumps(ARROWS), [start, target])
    assert way is not None, f"no way by the arrows from {start} to {target}"
    for key, reached in way:
        page.keyboard.press(key)
        assert focused(page)["loc"] == reached
    return len(way)


def test_an_opening_turn_of_overpass_by_keyboard_alone(served, page):
    sim = served("overpass", {"players": 2}, seed=7)
    page.goto(sim.url)
    page.wait_for_selector("#board svg")
    wait_for(sim, lambda s: s["status"] == "ready")
    state = sim.session.daemon.state
    mover = state.turn_piece()
    keys = {}

    # Take the turn's piece from the box, then into the board (one tab stop) and to the Center Square.
    keys["Tab to the box's piece"] = tab_to(page, lambda at: at["piece"] == mover)
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#hand [data-piece="{mover}"]')
    keys["Enter: in hand"] = 1
    keys["Shift+Tab to the board"] = tab_to(page, lambda at: at["loc"] is not None, key="Shift+Tab")
    keys["arrows to the Center Square"] = arrow_to(page, "center")
    page.keyboard.press("Enter")
    keys["Enter: put down"] = 1
    wait_for_history(sim, 2)  # the entry, then the daemon's roll
    assert str(state.history[0]) == "enter"

    # The focus stayed on the Center Square through the redraws: Enter lifts the piece, the arrows carry it.
    assert focused(page)["loc"] == "center"
    page.keyboard.press("Enter")
    keys["Enter: lifted"] = 1
    destinations = wait_for(sim, lambda s: "center" in s["lifted"])["destinations"]
    target = destinations[0]
    keys["arrows to a destination"] = arrow_to(page, target)
    page.keyboard.press("Enter")
    keys["Enter: put down"] += 1
    wait_for_history(sim, 3)
    assert str(state.history[2]).endswith(target)
    assert state.contents()[target] == mover

    keys["Shift+Tab to End turn"] = tab_to(page, lambda at: at["button"] == "end_turn", key="Shift+Tab")
    page.keyboard.press("Enter")
    keys["Enter: End turn"] = 1
    wait_for_history(sim, 4)
    assert str(state.history[3]) == "end"
    print(f"keystrokes for Over-Pass's opening turn: {sum(keys.values())}: {keys}")


def test_every_place_is_reachable_by_the_arrows_on_every_board(served, page):
    sim = served("overpass", {"players": 2})
    page.goto(sim.url)
    page.wait_for_selector("#board svg")
    for game in ("overpass", "squareoff", "hexover", "pawns-crossing"):
        if game != "overpass":
            page.evaluate(f"send({{type: 'new_game', game: '{game}', options: {{}}}})")
            page.wait_for_function(f"document.body.dataset.game === '{game}'")
        reached = page.evaluate("""(arrows) => {
            const places = [...document.querySelectorAll('#board g[data-loc]')].map((g) => g.dataset.loc);
            const seen = new Set([places[0]]);
            for (const queue = [places[0]]; queue.length;) {
                const at = queue.shift();
                for (const key of arrows) {
                    const next = BoardKeys.neighbour(at, key);
                    if (next && !seen.has(next)) { seen.add(next); queue.push(next); }
                }
            }
            return places.filter((loc) => !seen.has(loc));
        }""", list(ARROWS))
        assert reached == [], f"{game}: the arrows never reach {reached}"


def place_names(page) -> dict[str, str]:
    """The board's places as Chromium's accessibility tree names them: location -> name ("h4: black piece")."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    cdp.detach()
    names = [node.get("name", {}).get("value", "") for node in nodes
             if not node.get("ignored") and node.get("role", {}).get("value") == "button"]
    return {name.split(": ", 1)[0]: name for name in names if ": " in name}


def test_every_place_is_named_with_its_contents_in_the_accessibility_tree(served, page):
    sim = served("hexover")
    page.goto(sim.url)
    page.wait_for_selector("#board svg")
    wait_for(sim, lambda s: s["status"] == "ready")
    contents = sim.call(lambda: dict(sim.session.mock.contents))
    names = place_names(page)
    assert set(contents) <= set(names), f"unnamed places: {sorted(set(contents) - set(names))}"
    for location, piece in contents.items():
        assert names[location].startswith(f"{location}: {piece} piece" if piece else f"{location}: empty")

    # A lifted piece: its place says so, and where it may go says that too, by the light's meaning.
    click(page, "h4")
    snapshot = wait_for(sim, lambda s: "h4" in s["lifted"])
    page.wait_for_function("document.querySelector('#board g[data-loc=\"h4\"]').getAttribute('aria-label')"
                           ".includes('lit')")
    names = place_names(page)
    assert names["h4"].startswith("h4: empty, lit blue: the lifted piece came from here")
    for location in snapshot["destinations"]:
        assert ", lit green: a piece may go here" in names[location]

    # F turns the focused piece over, as a right-click does; its name follows.
    click(page, "h4")  # put back
    wait_for(sim, lambda s: not s["lifted"])
    page.locator('#board g[data-loc="h3"]').focus()
    arrow_to(page, "h1")
    page.keyboard.press("f")
    deadline = time.monotonic() + 5
    while sim.call(lambda: sim.session.mock.contents["h1"]) != "white":
        assert time.monotonic() < deadline, "F did not turn h1's piece over"
        time.sleep(0.02)
    page.wait_for_function("document.activeElement.getAttribute('aria-label').startsWith('h1: white piece')")


def test_the_status_is_announced_once_per_change_and_not_on_blinks(served, page):
    sim = served("squareoff", seats=["computer:easy", "human"])
    page.goto(sim.url)
    page.wait_for_selector("#board svg")
    carry = wait_for(sim, lambda s: s["carry"] is not None)["carry"]  # the computer's move blinks, to carry out
    page.evaluate("""() => {
        window.announced = [];
        const live = '[role=status], [role=alert], [role=log], [aria-live]:not([aria-live=off])';
        new MutationObserver((changes) => {
            for (const change of changes) {
                const region = (change.target.nodeType === 1 ? change.target : change.target.parentElement)
                    .closest(live);
                if (region && region.getAttribute('aria-live') !== 'off') window.announced.push(region.textContent);
            }
        }).observe(document.body, {childList: true, subtree: true, characterData: true});
    }""")
    status = sim.call(lambda: sim.session.daemon.snapshot()["status_text"])
    time.sleep(4 * 0.4)  # four blinks of the computer's move (blink_ms 400)
    assert sim.call(lambda: sim.session.daemon.snapshot()["status_text"]) == status
    assert page.evaluate("window.announced") == [], "a blink re-announced the status"

    sim.call(lambda: sim.session.mock.place(carry["put"][0], "black"))  # carried out: the status changes
    wait_for_history(sim, 1)
    wait_for(sim, lambda s: s["status"] == "ready")
    now = sim.call(lambda: sim.session.view()["status"])
    page.wait_for_function("(now) => window.announced.at(-1) === now", arg=now)
    announced = page.evaluate("window.announced")
    assert all(a != b for a, b in zip(announced, announced[1:])), f"said twice: {announced}"


@pytest.mark.parametrize("game, lift", [("squareoff", None), ("hexover", "h4")])
def test_axe_core_finds_no_violation(served, page, game, lift):
    """The page as a game starts, the legend open, and (Hexover) a piece in hand with its places lit."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed: npm install --prefix .browser --no-save axe-core@4.14.1 (.ci/run)")
    sim = served(game)
    page.goto(sim.url)
    page.wait_for_selector("#board svg")
    wait_for(sim, lambda s: s["status"] == "ready")
    page.click("#legend-panel summary")
    if lift:
        click(page, lift)
        wait_for(sim, lambda s: lift in s["lifted"])
        page.wait_for_selector("#board circle.led")
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate("""async () => (await axe.run(document)).violations.map((v) =>
        ({rule: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary)}))""")
    print(f"axe-core on {game}:", json.dumps({v["rule"]: len(v["nodes"]) for v in violations}))
    assert violations == [], json.dumps(violations, indent=1)[:4000]
