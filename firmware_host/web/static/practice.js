// The calibration practice: draws the simulated board, sends the person's hands and keys.
"use strict";

let socket = null;

function send(action) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(action));
}

function render(view) {
  document.getElementById("title").textContent = view.board;
  const board = document.getElementById("board");
  board.innerHTML = view.svg;
  const question = view.question;
  for (const loc of question ? question.locations : []) {
    const place = board.querySelector(`[data-loc="${CSS.escape(loc)}"]`);
    if (place) place.classList.add("asked");
  }
  document.getElementById("progress").textContent =
    question ? (question.total ? `${question.phase}: ${question.done} of ${question.total} done` : question.phase) : "";
  document.getElementById("question").textContent = question ? question.text : (view.outcome ? "" : "working...");
  const keys = document.getElementById("keys");
  keys.replaceChildren(...(question ? question.choices : []).map((choice) => {
    const button = document.createElement("button");
    button.textContent = `${choice.label}: ${choice.meaning}`;
    button.dataset.key = choice.key;
    button.addEventListener("click", () => send({type: "key", key: choice.key}));
    return button;
  }));
  const hand = document.getElementById("hand");
  hand.hidden = view.pieces.length < 2;
  hand.replaceChildren("In hand: ", ...view.pieces.map((piece) => {
    const button = document.createElement("button");
    button.textContent = view.classes[piece] ? `${piece} (${view.classes[piece]})` : piece;
    button.dataset.piece = piece;
    button.setAttribute("aria-pressed", String(piece === view.hand));
    button.addEventListener("click", () => send({type: "piece", piece}));
    return button;
  }));
  document.getElementById("told").replaceChildren(...view.told.map((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    return item;
  }));
  const outcome = document.getElementById("outcome");
  outcome.hidden = !view.outcome;
  if (view.outcome) outcome.textContent = view.outcome.stopped ? view.outcome.stopped :
    `Wrote ${view.outcome.path}: the walk found ${view.outcome.channels_right} of ${view.outcome.places} ` +
    `channels and ${view.outcome.leds_right} of ${view.outcome.places} LEDs as the board was soldered. ` +
    (view.outcome.problems.length ? `Still to do: ${view.outcome.problems.join("; ")}` : "The file passes the check.");
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws${location.search}`);
  const badge = document.getElementById("connection");
  socket.onopen = () => { badge.textContent = ""; };
  socket.onclose = () => { badge.textContent = "disconnected: reload the page"; };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") {
      document.getElementById("error").textContent = "";
      render(message.view);
    } else if (message.type === "error") {
      document.getElementById("error").textContent = message.message;
    }
  };
}

document.getElementById("board").addEventListener("click", (event) => {
  const place = event.target.closest("[data-loc]");
  if (place) send({type: "hand", location: place.dataset.loc});
});
// The terminal's keys work here too: Enter, s, q, m, y, n, r, c, when the question offers them.
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLButtonElement || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key === "Enter" ? "" : event.key.toLowerCase();
  const button = [...document.querySelectorAll("#keys button")].find((b) => b.dataset.key === key);
  if (button) button.click();
});
connect();
