// The page's voice: the moments the board's voice speaks of (the view's `speech`, made by
// firmware_host/voice.py), spoken by the browser when the "speak" box is ticked, or a chime where
// the browser cannot speak.  Each moment is said once, as the board enters it; the moment shown when
// the page opens is not said (nobody asked yet), the current one is when the box is ticked.
"use strict";

(() => {
  const STORED = "gameboard-speak";
  let heard = null;  // the moment last seen: {moment, text} or null
  let said = null;  // its `moment`, once said or passed over
  let audio = null;

  const box = Object.assign(document.createElement("input"), { type: "checkbox", id: "speak" });
  const label = document.createElement("label");
  label.className = "badge";
  label.title = "say aloud the computer's moves, whose turn it is, a mistake and the game's end";
  label.append(box, " speak");
  document.querySelector("header").append(label);
  try { box.checked = localStorage.getItem(STORED) === "on"; } catch { /* storage off: unticked */ }

  /** Speak `text` with the browser's voice, stopping a stale utterance; a chime where there is none. */
  function speak(text) {
    const synth = window.speechSynthesis;
    if (synth && window.SpeechSynthesisUtterance) {
      synth.cancel();
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.lang = document.documentElement.lang || "en";
      synth.speak(utterance);
    } else {
      chime();
    }
  }

  /** Two short notes, falling for a mistake or the end and rising otherwise. */
  function chime() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    const falling = /^(no legal|out of sync|game over|the \w+ cannot)/.test(heard ? heard.text : "");
    const notes = falling ? [660, 440] : [440, 660];
    notes.forEach((frequency, index) => {
      const start = audio.currentTime + index * 0.18;
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.2, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + 0.16);
      tone.connect(gain).connect(audio.destination);
      tone.start(start);
      tone.stop(start + 0.17);
    });
  }

  function hear(speech) {
    if (!speech) return;  // nothing to say now: the last moment stays said
    heard = speech;
    if (speech.moment === said) return;
    if (said !== null && box.checked) speak(speech.text);
    said = speech.moment;
  }

  box.onchange = () => {
    try { localStorage.setItem(STORED, box.checked ? "on" : "off"); } catch { /* kept for this page only */ }
    if (box.checked && heard) speak(heard.text);  // says where the game is: and the ticking unlocks audio
    if (!box.checked && window.speechSynthesis) window.speechSynthesis.cancel();
  };
  document.addEventListener("view", (event) => hear(event.detail.speech));
})();
