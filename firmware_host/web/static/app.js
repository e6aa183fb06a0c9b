// The page is thin: the server draws the board (the same code as `gameboard board draw`)
// and keeps the person's hands; the page sends clicks and shows what comes back.
"use strict";

const $ = (id) => document.getElementById(id);
const REFUSED = 4403;  // the server's close code for a page it does not serve (firmware_host/web/guard.py)
let socket;
let current = null;

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
    if (message.type === "error") $("error").textContent = message.message;
  };
}

function send(action) {
  $("error").textContent = "";
  socket.send(JSON.stringify(action));
}

function chip(code, colours) {
  const span = document.createElement("span");
  span.className = "piece-chip";
  span.style.background = colours[code.split("+")[0]] || "#777";
  return span;
}

function render(view) {
  current = view;
  document.body.dataset.game = view.game;
  document.body.dataset.readOnly = view.read_only;
  $("title").textContent = view.title;
  $("mode").textContent = view.read_only ? "mirror of the board" : "simulator";
  $("board").innerHTML = view.svg;
  const turn = $("turn");
  turn.replaceChildren(view.turn || "");
  if (view.turn_colour) {
    const swatch = document.createElement("span");
    swatch.className = "piece-chip";
    swatch.style.background = view.turn_colour;
    turn.prepend(swatch);
  }
  $("dice").textContent = view.dice || "";
  $("status").textContent = view.status || "";
  $("controls").hidden = view.read_only;
  $("hands").hidden = view.read_only;
  $("setup").hidden = view.read_only;

  const buttons = $("buttons");
  buttons.replaceChildren(...view.buttons.map((b) => {
    const el = document.createElement("button");
    el.type = "button";
    el.textContent = b.label;
    el.dataset.button = b.name;
    el.disabled = !b.enabled;
    el.onclick = () => send(b.action);
    return el;
  }));
  $("dice-entry").hidden = !view.dice_entry;

  $("hand").replaceChildren(...view.hand.map((code) => {
    const item = document.createElement("span");
    item.dataset.piece = code;
    item.append(chip(code, view.piece_colours), code);
    return item;
  }));
  $("drop").disabled = view.hand.length === 0;
  $("tray").replaceChildren(...view.tray.map((code) => {
    const el = document.createElement("button");
    el.type = "button";
    el.dataset.piece = code;
    el.append(chip(code, view.piece_colours), code);
    el.onclick = () => send({ type: "take", piece: code });
    return el;
  }));

  const select = $("game-name");
  if (select.options.length !== view.games.length) {
    select.replaceChildren(...view.games.map((g) => new Option(g.title, g.name)));
  }
  if (document.activeElement !== select) select.value = view.game;
  $("noise").checked = view.noise;
  $("log").replaceChildren(...view.log.map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
  $("log").scrollTop = $("log").scrollHeight;
}

$("board").addEventListener("click", (event) => {
  const target = event.target.closest("[data-loc]");
  if (target && current && !current.read_only) send({ type: "click", loc: target.dataset.loc });
});
$("board").addEventListener("contextmenu", (event) => {
  const target = event.target.closest("[data-loc]");
  if (!target || !current || current.read_only) return;
  event.preventDefault();
  send({ type: "flip", loc: target.dataset.loc });
});
$("drop").onclick = () => send({ type: "drop" });
$("noise").onchange = (event) => send({ type: "noise", on: event.target.checked });
$("dice-entry").onsubmit = (event) => {
  event.preventDefault();
  send({ type: "dice", text: $("dice-text").value });
};
$("new-game").onsubmit = (event) => {
  event.preventDefault();
  let options = {};
  const text = $("game-options").value.trim();
  if (text) {
    try { options = JSON.parse(text); } catch { $("error").textContent = "options must be JSON, e.g. {\"players\": 2}"; return; }
  }
  send({ type: "new_game", game: $("game-name").value, options });
};

connect();
