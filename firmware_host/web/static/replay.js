// The move list to step through, and the game's record (docs/records.md): a click on a move, or the buttons
// under the list, show the position after that move in place of the board (drawn by the server, the move's
// places lit) while the game under way waits untouched; Export downloads the record, Import plays on from one.
// It hooks in through the "view" event app.js dispatches after each render, and app.js's send().
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let view = null;
  let drawn = "";  // the replayed drawing shown, so that a view sent for a blink does not redraw it

  const make = (tag, properties = {}, ...children) => {
    const made = Object.assign(document.createElement(tag), properties);
    made.append(...children);
    return made;
  };
  const step = (label, title, ply) => {
    const button = make("button", { type: "button", textContent: label, title });
    button.setAttribute("aria-label", title);
    button.onclick = () => { if (view) send({ type: "replay", ply: ply() }); };
    return button;
  };

  const log = $("log");
  const shown = () => (view && view.replay ? view.replay.ply : null);
  const last = () => (view ? view.log.length : 0);
  const next = (ply) => (ply === null || ply + 1 >= last() ? null : ply + 1);  // past the end: the game itself
  const tools = make("div", { id: "replay-tools" },
    step("|◀", "the start", () => 0),
    step("◀", "the move before", () => Math.max((shown() ?? last()) - 1, 0)),
    step("▶", "the next move", () => next(shown())),
    step("▶|", "the game as it is now", () => null));
  const status = make("p", { id: "replay-status" });
  status.setAttribute("aria-live", "polite");
  const file = make("input", { type: "file", id: "replay-file", accept: ".txt,.pgn,text/plain", hidden: true });
  const exporter = make("button", { type: "button", id: "replay-export", textContent: "Export",
                                    title: "download the game's record (docs/records.md)" });
  const importer = make("button", { type: "button", id: "replay-import", textContent: "Import",
                                    title: "play on from a game's record: it replaces the game under way" });
  const files = make("div", { id: "replay-files" }, exporter, importer, file);
  log.before(tools);
  log.after(files);

  const board = make("div", { id: "replay-board", hidden: true });
  board.setAttribute("role", "img");
  $("board").after(status, board);  // the replay's words above its drawing, where the eye is
  document.head.append(make("style", { textContent:
    "#replay-board svg { width: 100%; height: auto; display: block; }" +
    "#log li { cursor: pointer; } #log li.replayed { background: rgba(216, 169, 59, 0.3); outline: 2px solid #d8a93b; }" +
    "#replay-tools button { min-width: 2.5em; }" +
    "#replay-status:not(:empty) { margin: 0.3em 0; padding: 0.3em 0.6em; background: rgba(216, 169, 59, 0.3); }" }));

  /** The record as `gameboard record export` writes it: the header, then the moves listed. */
  function record() {
    return view.record_header + view.log.map((move, index) => `${index + 1}. ${move}\n`).join("");
  }

  log.addEventListener("click", (event) => {
    const item = event.target.closest("li");
    if (!item || !view || view.read_only) return;
    send({ type: "replay", ply: [...log.children].indexOf(item) + 1 });
  });
  exporter.onclick = () => {
    const date = (view.record_header.match(/\[Date "(\d{4}-\d\d-\d\d)/) || [])[1];
    const link = make("a", { href: URL.createObjectURL(new Blob([record()], { type: "text/plain" })),
                             download: `${view.game}${date ? "-" + date : ""}.txt` });
    link.click();
    URL.revokeObjectURL(link.href);
  };
  importer.onclick = () => file.click();
  file.onchange = async () => {
    const chosen = file.files[0];
    file.value = "";
    if (chosen) send({ type: "import_record", text: await chosen.text() });
  };

  document.addEventListener("view", (event) => {
    view = event.detail;
    const replay = view.replay;
    tools.hidden = Boolean(view.read_only) || view.log.length === 0;
    importer.hidden = Boolean(view.read_only);
    exporter.hidden = !view.record_header;
    board.hidden = !replay;
    $("board").hidden = Boolean(replay);
    for (const [index, item] of [...log.children].entries()) {
      const here = replay && index + 1 === replay.ply;
      item.classList.toggle("replayed", Boolean(here));
      if (here) {
        item.setAttribute("aria-current", "step");
        log.scrollTop = item.offsetTop - log.offsetTop - (log.clientHeight - item.offsetHeight) / 2;  // in sight
      } else item.removeAttribute("aria-current");
    }
    if (!replay) {
      status.textContent = "";
      if (drawn) board.replaceChildren();
      drawn = "";
      return;
    }
    const after = replay.ply ? `after move ${replay.ply} of ${replay.plies} (${replay.move})` : "at the start";
    status.textContent = `Replay: the position ${after}; the game waits as it is (▶| returns to it).` +
      (replay.ply === replay.plies && replay.result !== "*" ? ` ${replay.result}.` : "");
    board.setAttribute("aria-label", `the board ${after}`);
    if (drawn !== replay.svg) {
      board.innerHTML = replay.svg;
      drawn = replay.svg;
    }
  });
})();
