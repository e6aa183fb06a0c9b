// "How to play": a link beside the new-game menu to the chosen game's page for players (docs/play/GAME.md,
// served at /static/play/GAME by firmware_host/web/play_docs.py), opened beside the board.
"use strict";

(() => {
  const menu = document.getElementById("game-name");
  const link = Object.assign(document.createElement("a"), { id: "how-to-play", target: "_blank", rel: "noopener" });
  link.style.cssText = "display: block; margin: 0.3rem 0; color: inherit";  // its own line, in the panel's colour
  menu.after(link);

  function follow() {
    const chosen = menu.selectedOptions[0];
    link.hidden = !chosen;
    if (!chosen) return;
    link.href = `/static/play/${chosen.value}`;
    link.textContent = `How to play ${chosen.text}`;
  }

  menu.addEventListener("change", follow);
  document.addEventListener("view", follow);  // the menu is filled, or set to the game started, by each view
})();
