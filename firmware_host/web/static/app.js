// The page is thin: the server draws the board (the same code as `gameboard board draw`),
// keeps the person's hands and says what a tap on each place would do; the page sends taps
// and shows what comes back.  The board's gestures and zoom are in board.js.
"use strict";

const $ = (id) => document.getElementById(id);
const REFUSED = 4403;  // the server's close code for a page it does not serve (firmware_host/web/guard.py)
let socket;
let current = null;
let flipMode = false;
const shown = {};  // the data last drawn into parts rebuilt only when it changes (a blink restarts, a field resets)

const board = new BoardView($("board"), {
  tap: (loc, secondary) => {
    if (current && !current.read_only) send({ type: flipMode || secondary ? "flip" : "click", loc });
  },
  preview: () => showNext(),
});

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws${location.search}`);
  socket.onopen = () => { $("connection").textContent = "live"; $("connection").classList.add("on"); };
  socket.onclose = (event) => {
    $("connection").classList.remove("on");
    if (event.code === REFUSED) {  // trying again would be refused again: say why
      $("connection").textContent = "refused";
      $("error").textContent = event.reason;
      return;
    }
    $("connection").textContent = "reconnecting";
    setTimeout(connect, 1000);
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") render(message.view);
    if (message.type === "change") render(applyChange(current, message));
    if (message.type === "error") $("error").textContent = message.message;
  };
}

/** The view once a change arrived: the keys it carries, and the entries of the keys kept entry by entry (the
    places, ...) that it changes or drops (firmware_host/web/transport.py).  A page connecting gets the whole
    view first. */
function applyChange(view, message) {
  const updated = { ...view, ...message.view };
  for (const key of new Set([...Object.keys(message.merge), ...Object.keys(message.drop)])) {
    updated[key] = { ...view[key], ...message.merge[key] };
    for (const entry of message.drop[key] || []) delete updated[key][entry];
  }
  return updated;
}

function send(action) {
  $("error").textContent = "";
  socket.send(JSON.stringify(action));
}

function element(tag, properties = {}, ...children) {
  const made = Object.assign(document.createElement(tag), properties);
  made.append(...children);
  return made;
}

function chip(colour) {
  const span = element("span", { className: "piece-chip" });
  span.style.background = colour || "#777";
  return span;
}

/** Whether `value` differs from what `part` last showed (and remember it). */
function changed(part, value) {
  const text = JSON.stringify(value);
  if (shown[part] === text) return false;
  shown[part] = text;
  return true;
}

function render(view) {
  current = view;
  document.body.dataset.game = view.game;
  document.body.dataset.readOnly = view.read_only;
  $("title").textContent = view.title;
  $("mode").textContent = view.read_only ? "mirror of the board" : "simulator";
  board.draw(view);
  const turn = $("turn");
  turn.replaceChildren(view.turn || "");
  if (view.turn_colour) turn.prepend(chip(view.turn_colour));
  $("dice").textContent = view.dice || "";
  $("status").textContent = view.status || "";
  for (const part of ["controls", "hands", "setup"]) $(part).hidden = view.read_only;
  // Pieces are turned over only in a game where they flip (Hexover's); elsewhere a right-click is refused, saying why.
  document.body.classList.toggle("flips", Boolean(view.flips));
  $("flip-mode").hidden = view.read_only || !view.flips;
  if (flipMode && !view.flips) setFlipMode(false);
  $("board-help").classList.toggle("read-only", view.read_only);

  $("buttons").replaceChildren(...view.buttons.map((b) => {
    const button = element("button", { type: "button", textContent: b.label, disabled: !b.enabled });
    button.dataset.button = b.name;
    button.onclick = b.name === "new_game" ? () => askFirst(() => send(b.action)) : () => send(b.action);
    return button;
  }));
  $("dice-entry").hidden = !view.dice_entry;

  $("hand").replaceChildren(...view.hand.map((code) => {
    const item = element("span", {}, chip(view.piece_colours[code]), code);
    item.dataset.piece = code;
    return item;
  }));
  $("drop").disabled = view.hand.length === 0;
  $("lift-rest").hidden = !view.rest_of_stack;
  if (view.rest_of_stack) $("lift-rest").textContent = `Lift the rest of ${view.rest_of_stack}`;
  showNext();
  $("tray").replaceChildren(...view.tray.map((code) => {
    const button = element("button", { type: "button" }, chip(view.piece_colours[code]), code);
    button.dataset.piece = code;
    button.onclick = () => send({ type: "take", piece: code });
    return button;
  }));

  if (changed("legend", view.legend)) renderLegend(view.legend);
  if (changed("faults", view.faults)) renderFaults(view.faults);
  if (changed("games", view.games)) {
    $("game-name").replaceChildren(...view.games.map((g) => new Option(g.title, g.name)));
  }
  // A game started: the form shows its options.  A read-only page (a mirror, a spectator's) has no form, nor
  // the games and seats to fill it: it would stop this render before the moves.
  if (!view.read_only && changed("game", [view.game, view.options, view.seats])) {
    $("game-name").value = view.game;
    renderFields(view.game, view.options);
    renderSeats(view.game, view.seats);
  }
  $("remote").hidden = !view.remote;
  $("remote").textContent = view.remote || "";
  $("sensor-errors").hidden = !view.sensor_errors;
  $("sensor-errors").textContent = view.sensor_errors || "";
  $("new-game").querySelector("button").disabled = Boolean(view.remote);  // a remote game is not restarted
  showToggle("noise", view.noise);
  showToggle("auto", view.auto);
  $("log").replaceChildren(...view.log.map((text, index) => element("li", {},
    element("span", { className: "ply", textContent: `${index + 1}.` }), text)));
  $("log").scrollTop = $("log").scrollHeight;
  document.dispatchEvent(new CustomEvent("view", { detail: view }));  // the page's other scripts hook in here
}

/** What a tap on the place under the pointer would do, or what the next tap does in general. */
function showNext() {
  if (!current || current.read_only) return;
  const loc = board.previewed;
  if (flipMode) {
    $("next").textContent = loc ? `${loc}: turns the piece here over` : "flip mode: a tap turns a piece over";
  } else {
    $("next").textContent = loc && current.clicks[loc] ? `${loc}: ${current.clicks[loc]}` : current.hand_hint;
  }
}

function renderLegend(legend) {
  $("legend").replaceChildren(...legend.map((light) => {
    const swatch = element("span", { className: light.blinks ? "swatch blinks" : "swatch" });
    swatch.style.background = light.colour;
    const meaning = element("span", {}, light.meaning, light.blinks ? element("em", { textContent: " (blinks)" }) : "");
    const item = element("li", {}, swatch, meaning);
    item.dataset.light = light.name;
    return item;
  }));
}

function renderFaults(faults) {
  $("faults").hidden = faults.length === 0;
  $("faults").replaceChildren(...faults.map((fault) => {
    const line = element("p", {}, element("strong", { textContent: fault.head }), `: ${fault.problem}`);
    line.dataset.fault = fault.kind;
    return line;
  }));
}

/** The chosen game's options as fields: a checkbox for a yes/no, a list for choices, else a number or text.
 * The seed of a random set-up (the game's deal option) starts empty: a new game is dealt afresh unless one is
 * typed; the game being played shows its own seed as the placeholder, to deal it again. */
function renderFields(name, values) {
  const game = current.games.find((g) => g.name === name);
  $("game-fields").replaceChildren(...Object.entries(game ? game.options : {}).map(([key, option]) => {
    const value = key in values ? values[key] : option.default;
    let input;
    if (key === game.deal) {
      const dealt = key in values ? ` (this game: ${values[key]})` : "";
      input = element("input", { type: "number", value: "", placeholder: `a fresh deal${dealt}` });
    } else if (typeof option.default === "boolean") {
      input = element("input", { type: "checkbox", checked: value });
    } else if (option.choices.length) {
      input = element("select", {}, ...option.choices.map((choice, index) => new Option(String(choice), index)));
      input.value = Math.max(option.choices.indexOf(value), 0);
    } else {
      input = element("input", { type: typeof option.default === "number" ? "number" : "text", value });
    }
    input.name = key;
    return element("label", { className: "option", title: option.help },
      element("span", { className: "option-name", textContent: key.replaceAll("_", " ") }), input,
      element("small", { textContent: option.help }));
  }));
}

/** One list per seat, human or the computer at a level; as many as the game (or its players option) has. */
function renderSeats(name, chosen) {
  const game = current.games.find((g) => g.name === name);
  const players = $("game-fields").querySelector('[name="players"]');
  const count = players ? Number(fieldValues(name).players) : game.players;
  $("seat-fields").replaceChildren(...Array.from({ length: count }, (_, index) => {
    const input = element("select", {}, ...current.seat_choices.map((choice) => new Option(choice, choice)));
    input.name = `seat-${index}`;
    input.value = chosen[index] || "human";
    return element("label", { className: "option" },
      element("span", { className: "option-name", textContent: `seat ${index + 1}` }), input);
  }));
}

function seatValues() {
  return [...$("seat-fields").querySelectorAll("select")].map((input) => input.value);
}

/** The fields' values as the game takes them (the server checks each one). */
function fieldValues(name) {
  const game = current.games.find((g) => g.name === name);
  const values = {};
  for (const [key, option] of Object.entries(game.options)) {
    const input = $("game-fields").querySelector(`[name="${key}"]`);
    if (typeof option.default === "boolean") values[key] = input.checked;
    else if (option.choices.length) values[key] = option.choices[Number(input.value)];
    else if (typeof option.default === "number") {
      if (input.value !== "") values[key] = Number(input.value);  // left empty: the default (a fresh deal)
    } else values[key] = input.value;
  }
  return values;
}

$("zoom-in").onclick = () => board.zoomBy(1.5);
$("zoom-out").onclick = () => board.zoomBy(1 / 1.5);
$("zoom-fit").onclick = () => board.reset();
$("names").onclick = () => {
  const on = $("names").getAttribute("aria-pressed") !== "true";
  $("names").setAttribute("aria-pressed", String(on));
  board.showNames(on);
};
function setFlipMode(on) {
  flipMode = on;
  $("flip-mode").setAttribute("aria-pressed", String(flipMode));
  document.body.classList.toggle("flip-mode", flipMode);
  showNext();
}
$("flip-mode").onclick = () => setFlipMode(!flipMode);

/** Run `then` (a new game) at once if no game is under way, else once the person says to throw this one away:
 * undo cannot bring it back. */
function askFirst(then) {
  const moves = current.log.length;
  if (moves === 0 || (current.daemon && current.daemon.outcome)) return then();
  const ask = $("ask");
  $("ask-question").textContent = `Throw away the game under way (${moves} move${moves === 1 ? "" : "s"})? ` +
    "Undo cannot bring it back.";
  ask.returnValue = "";
  ask.onclose = () => { if (ask.returnValue === "yes") then(); };
  ask.showModal();
}
$("drop").onclick = () => send({ type: "drop" });
$("lift-rest").onclick = () => send({ type: "lift_rest" });
// A box the person just ticked keeps its tick until a view shows it taken (or for TOGGLE_MS): a view sent
// before the simulator heard the click would otherwise untick it under the person's finger.
const TOGGLE_MS = 3000;
const toggled = {};
function showToggle(id, value) {
  const asked = toggled[id];
  if (asked && asked.on !== value && performance.now() - asked.at < TOGGLE_MS) return;
  delete toggled[id];
  $(id).checked = value;
}
for (const id of ["noise", "auto"]) {
  $(id).onchange = (event) => {
    toggled[id] = { on: event.target.checked, at: performance.now() };
    send({ type: id, on: event.target.checked });
  };
}
$("game-fields").onchange = () => renderSeats($("game-name").value, seatValues());
$("dice-entry").onsubmit = (event) => {
  event.preventDefault();
  send({ type: "dice", text: $("dice-text").value });
};
$("game-name").onchange = () => {
  const name = $("game-name").value;
  renderFields(name, name === current.game ? current.options : {});
  renderSeats(name, seatValues());
};
$("new-game").onsubmit = (event) => {
  event.preventDefault();
  const name = $("game-name").value;
  const action = { type: "new_game", game: name, options: fieldValues(name), seats: seatValues() };
  askFirst(() => send(action));
};

// Connect once every script of the page has run: a view arriving while a later script still loads would reach
// no listener of that script (its first view missed until something changed).
document.addEventListener("DOMContentLoaded", connect);
