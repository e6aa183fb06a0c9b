// The board by keyboard and screen reader.  The board is one tab stop (a roving tabindex): the arrow keys
// move between neighbouring places (the nearest one drawn in that direction), Enter or Space does what a
// click does (lift, put down), F turns the piece over as a right-click does.  Each place is a button named
// with its contents and its light ("h4: black piece, lit green: a piece may go here"), described by what
// Enter would do there; the status is said (a polite live region) when its words change, never on a redraw.
// It hooks in through app.js's `view` event and BoardView's `tap` and `setPreview`; app.js and board.js
// know nothing of it.
"use strict";

const BoardKeys = (() => {
  const container = document.getElementById("board");
  const announcer = document.getElementById("announce");
  /** The arrow keys' directions on the screen (y grows downward). */
  const DIRECTIONS = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
  /** A place off the arrow's line counts this many times its distance along it (straight on beats aslant). */
  const ASLANT = 2;
  /** Colour names by hue (degrees): the first whose bound is above the hue. */
  const HUES = [[15, "red"], [40, "orange"], [65, "yellow"], [100, "lime"], [155, "green"], [172, "aqua"],
                [195, "cyan"], [255, "blue"], [290, "purple"], [335, "pink"], [361, "red"]];

  let view = null;
  let active = null;  // the place holding the board's tab stop
  let focusInside = false;  // the focus was on a place (kept there when the drawing is replaced)
  let centres = null;  // place -> [x, y] in the drawing's units, for the arrows (a board's never move)
  let said = null;  // the status last announced

  const places = () => [...container.querySelectorAll("svg g[data-loc]")];
  const place = (loc) => container.querySelector(`svg g[data-loc="${CSS.escape(loc)}"]`);
  const area = (loc) => container.querySelector(`svg polygon[data-loc="${CSS.escape(loc)}"]`);

  /** "black piece", "stack of 3: black, red, red; red on top" ("piece" is a game's only kind). */
  function contentWords(content) {
    if (!content) return "empty";
    const pieces = content.split("+");
    const piece = (code) => (code === "piece" ? "a piece" : `${code} piece`);
    if (pieces.length === 1) return piece(pieces[0]);
    return `stack of ${pieces.length}: ${pieces.join(", ")}; ${pieces.at(-1)} on top`;
  }

  function hex(text) {
    return [1, 3, 5].map((at) => parseInt(text.slice(at, at + 2), 16));
  }

  function colourName(colour) {
    const [r, g, b] = colour.map((c) => c / 255);
    const top = Math.max(r, g, b), bottom = Math.min(r, g, b), lightness = (top + bottom) / 2;
    if (top - bottom < 0.15) return lightness > 0.8 ? "white" : "grey";
    let hue = top === r ? ((g - b) / (top - bottom)) % 6 : top === g ? (b - r) / (top - bottom) + 2
      : (r - g) / (top - bottom) + 4;
    hue = (hue * 60 + 360) % 360;
    const pale = lightness > 0.75 ? "pale " : "";
    return pale + HUES.find(([bound]) => hue < bound)[1];
  }

  /** A light's meaning in a few words: its first clause, asides and alternatives left out (and the second
      clause too where the first is one word or shared by another light, as the computer's move's are). */
  function shortMeaning(meaning, meanings) {
    const plain = (text) => text.replace(/\s*\([^)]*\)/g, "");
    const clauses = plain(meaning).split(/: |; /).map((clause) => clause.split(/, (?:or|with) /)[0]);
    const shared = meanings.filter((other) => plain(other).startsWith(`${clauses[0]}:`));
    return clauses.length > 1 && (shared.length > 1 || !clauses[0].includes(" "))
      ? `${clauses[0]}: ${clauses[1]}` : clauses[0];
  }

  /** "lit green: a piece may go here", or "" for a dark place: the light the view names there (a blinking one
      through its dark half too), in the legend's words. */
  function lightWords(loc) {
    const name = (view.lights || {})[loc];
    const light = name && view.legend.find((entry) => entry.name === name);
    if (!light) return "";
    const meanings = view.legend.map((entry) => entry.meaning);
    return `lit ${colourName(hex(light.colour))}: ${shortMeaning(light.meaning, meanings)}`;
  }

  /** Where a place is drawn: an area's centroid (a box's middle can fall outside an L), else the middle of
      its own circles (a stack's count badge aside). */
  function centreOf(loc) {
    const cell = area(loc);
    if (cell) {
      const corners = cell.getAttribute("points").trim().split(/\s+/).map((xy) => xy.split(",").map(Number));
      let twice = 0, x = 0, y = 0;
      corners.forEach(([x0, y0], i) => {
        const [x1, y1] = corners[(i + 1) % corners.length], cross = x0 * y1 - x1 * y0;
        twice += cross;
        x += (x0 + x1) * cross;
        y += (y0 + y1) * cross;
      });
      return [x / (3 * twice), y / (3 * twice)];
    }
    const boxes = [...place(loc).querySelectorAll(":scope > circle")].map((circle) => circle.getBBox());
    const left = Math.min(...boxes.map((b) => b.x)), right = Math.max(...boxes.map((b) => b.x + b.width));
    const top = Math.min(...boxes.map((b) => b.y)), bottom = Math.max(...boxes.map((b) => b.y + b.height));
    return [(left + right) / 2, (top + bottom) / 2];
  }

  /** The place the arrow `key` leads to from `loc`: the nearest drawn in that direction, a place off the
      line counting ASLANT times its distance; null at the board's edge. */
  function neighbour(loc, key) {
    if (!centres) centres = new Map(places().map((g) => [g.dataset.loc, centreOf(g.dataset.loc)]));
    const [dx, dy] = DIRECTIONS[key];
    const [x0, y0] = centres.get(loc);
    let best = null, lowest = Infinity;
    for (const [other, [x, y]] of centres) {
      const along = (x - x0) * dx + (y - y0) * dy;
      const across = Math.abs((x - x0) * dy - (y - y0) * dx);
      if (along <= 0.5) continue;
      const score = along + ASLANT * across;
      if (score < lowest) { best = other; lowest = score; }
    }
    return best;
  }

  /** Every place a button with its name, the tab stop on the active one; the focus back where it was if the
      drawing was replaced under it. */
  function decorate() {
    const svg = container.querySelector("svg");
    if (!svg || !view) return;
    set(svg, "role", "application");
    set(svg, "aria-label", `${view.title} board`);
    set(svg, "aria-describedby", "keys-help");
    const all = places();
    if (!all.some((g) => g.dataset.loc === active)) active = all.length ? all[0].dataset.loc : null;
    for (const g of all) {
      const loc = g.dataset.loc;
      const light = lightWords(loc);
      const click = view.clicks[loc];
      set(g, "role", "button");
      set(g, "tabindex", loc === active ? "0" : "-1");
      set(g, "aria-label", `${loc}: ${contentWords(g.dataset.stack)}${light ? `, ${light}` : ""}`);
      set(g, "aria-description", click ? `Enter ${click}` : null);
    }
    if (focusInside && active && !container.contains(document.activeElement)) {
      place(active).focus({ preventScroll: true });
    }
    ringArea();
  }

  /** An attribute changed only when its value does (each change is news to the accessibility tree). */
  function set(element, name, value) {
    if (value === null) element.removeAttribute(name);
    else if (element.getAttribute(name) !== value) element.setAttribute(name, value);
  }

  /** An area's place (a cell, a face) may hold nothing to ring: its outline is drawn dashed instead. */
  function ringArea() {
    for (const ringed of container.querySelectorAll(".keyed")) ringed.classList.remove("keyed");
    const g = active && place(active), cell = active && area(active);
    if (cell && g.matches(":focus-visible")) cell.classList.add("keyed");
  }

  function moveTo(loc) {
    active = loc;
    for (const g of places()) g.setAttribute("tabindex", g.dataset.loc === loc ? "0" : "-1");
    place(loc).focus();
  }

  function announce() {
    if (view.status === said) return;
    said = view.status;
    announcer.textContent = view.status;
  }

  document.addEventListener("view", (event) => {
    if (view && view.game !== event.detail.game) centres = null;
    view = event.detail;
    decorate();
    announce();
  });
  // The drawing replaced without a view (a redraw of the page's own): its places named again.
  new MutationObserver(decorate).observe(container, { childList: true });

  container.addEventListener("focusin", (event) => {
    const g = event.target.closest("g[data-loc]");
    if (!g) return;
    focusInside = true;
    if (active !== g.dataset.loc) moveTo(g.dataset.loc);
    if (g.matches(":focus-visible")) board.setPreview(active);  // not for a click or a tap: they say it themselves
    ringArea();
  });
  container.addEventListener("focusout", (event) => {
    const left = event.target;
    // A place taken out by a redraw keeps the focus on the board; a person tabbing away takes it with them.
    setTimeout(() => {
      if (left.isConnected && !container.contains(document.activeElement)) {
        focusInside = false;
        if (board.previewed === active) board.setPreview(null);
        ringArea();
      }
    });
  });
  container.addEventListener("keydown", (event) => {
    const g = event.target.closest && event.target.closest("g[data-loc]");
    if (!g || event.altKey || event.ctrlKey || event.metaKey) return;
    const loc = g.dataset.loc;
    if (event.key in DIRECTIONS) {
      const next = neighbour(loc, event.key);
      if (next) moveTo(next);
    } else if (event.key === "Enter" || event.key === " ") {
      board.tap(loc, false);
    } else if (event.key === "f" || event.key === "F") {
      board.tap(loc, true);
    } else {
      return;
    }
    event.preventDefault();
  });

  return { neighbour };
})();
