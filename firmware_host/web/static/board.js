// The board's gestures, by mouse, pen or touch alike (pointer events): a tap acts on the
// location under it; the wheel, a pinch or the zoom buttons zoom; a drag moves a zoomed board.
// Zooming narrows the drawing's viewBox, so the browser's own hit-testing still finds the
// location under a finger at any zoom.
"use strict";

const TAP_SLOP_PX = 10;  // a pointer that moves further than this drags instead of tapping
const MAX_ZOOM = 8;
const WHEEL_ZOOM = 0.002;  // zoom per pixel of wheel travel (exponential, so in and out are symmetric)

class BoardView {
  /** `tap(loc, secondary)` on a tap (secondary: a right-click); `preview(loc or null)` as a
      pointer hovers or presses a location, to say what a tap there would do. */
  constructor(container, { tap, preview }) {
    this.container = container;
    this.tap = tap;
    this.preview = preview;
    this.svg = null;
    this.drawing = null;  // the drawing of the board shown (the view's), and what each place shows on it
    this.whole = null;  // the drawing's own viewBox: {x, y, w, h}
    this.shown = null;  // the part of it shown
    this.pointers = new Map();  // pointer id -> {x, y, startX, startY, loc, secondary, dragged}
    this.pinch = null;  // two fingers' {x, y, distance} at the last move
    this.previewed = null;
    container.addEventListener("pointerdown", (event) => this.down(event));
    container.addEventListener("pointermove", (event) => this.move(event));
    container.addEventListener("pointerup", (event) => this.up(event));
    container.addEventListener("pointercancel", (event) => this.lift(event));
    container.addEventListener("pointerleave", () => { if (!this.pointers.size) this.setPreview(null); });
    container.addEventListener("wheel", (event) => {
      event.preventDefault();
      this.zoomAt(Math.exp(-event.deltaY * WHEEL_ZOOM), event.clientX, event.clientY);
    }, { passive: false });
    container.addEventListener("contextmenu", (event) => event.preventDefault());  // a right-click is a tap
  }

  /** Draw a view: the board once per game (a new one resets the zoom), then each place whose pieces or
      lights changed and the arrows.  A blinking light blinks by itself (style.css), in step with the others. */
  draw(view) {
    const redrawn = [];  // the places drawn anew: all of them with a new board
    if (view.drawing !== this.drawing) {
      this.drawing = view.drawing;
      this.container.innerHTML = view.drawing.svg;
      this.svg = this.container.querySelector("svg");
      this.spots = new Map([...this.svg.querySelectorAll("[data-spot]")].map((g) => [g.dataset.spot, g]));
      this.areas = new Map([...this.svg.querySelectorAll("[data-area]")].map((g) => [g.dataset.area, g]));
      this.marks = this.svg.querySelector("g.marks");
      this.drawn = {};
      this.drawnMarks = "";
      const [x, y, w, h] = this.svg.getAttribute("viewBox").split(/[\s,]+/).map(Number);
      const sameBoard = this.whole && this.whole.w === w && this.whole.h === h;
      this.whole = { x, y, w, h };
      if (!sameBoard) this.shown = { ...this.whole };
      this.apply();
    }
    this.container.style.setProperty("--blink-period", `${2 * (view.blink_ms || 400)}ms`);
    let blinking = false;
    for (const [loc, place] of Object.entries(view.places)) {
      const [spot, area = ""] = place;
      const before = this.drawn[loc] || ["", ""];
      if (before[0] === spot && before[1] === area) continue;
      if (before[0] !== spot) this.spots.get(loc).innerHTML = spot;
      if (before[1] !== area && this.areas.has(loc)) this.areas.get(loc).innerHTML = area;
      blinking ||= /phase\d/.test(spot + area);
      this.drawn[loc] = [spot, area];
      redrawn.push(loc);
    }
    if (view.marks !== this.drawnMarks) this.marks.innerHTML = this.drawnMarks = view.marks;
    if (blinking) this.inStep();
    this.markPreviewed();
    // For the page's other parts (keys.js, ...): which places' elements are new.
    document.dispatchEvent(new CustomEvent("board-drawn", { detail: { places: redrawn } }));
  }

  /** Every blinking light in step, as the LEDs are: each animation counted from the page's start. */
  inStep() {
    for (const animation of this.svg.getAnimations({ subtree: true })) animation.startTime = 0;
  }

  /** Show or hide the places' names. */
  showNames(on) {
    this.container.classList.toggle("names", on);
  }

  get zoom() { return this.whole.w / this.shown.w; }

  /** Zoom by `factor` keeping the board point under (clientX, clientY) where it is. */
  zoomAt(factor, clientX, clientY) {
    const zoom = Math.min(MAX_ZOOM, Math.max(1, this.zoom * factor));
    const anchor = this.toBoard(clientX, clientY);
    const w = this.whole.w / zoom, h = this.whole.h / zoom;
    this.shown = { x: anchor.x - (anchor.x - this.shown.x) * w / this.shown.w,
                   y: anchor.y - (anchor.y - this.shown.y) * h / this.shown.h, w, h };
    this.apply();
  }

  zoomBy(factor) {
    const box = this.svg.getBoundingClientRect();
    this.zoomAt(factor, box.left + box.width / 2, box.top + box.height / 2);
  }

  reset() {
    this.shown = { ...this.whole };
    this.apply();
  }

  panBy(dxPx, dyPx) {
    const box = this.svg.getBoundingClientRect();
    this.shown.x -= dxPx * this.shown.w / box.width;
    this.shown.y -= dyPx * this.shown.h / box.height;
    this.apply();
  }

  /** Keep the shown part inside the drawing, and draw it. */
  apply() {
    const { whole, shown } = this;
    shown.x = Math.min(Math.max(shown.x, whole.x), whole.x + whole.w - shown.w);
    shown.y = Math.min(Math.max(shown.y, whole.y), whole.y + whole.h - shown.h);
    this.svg.setAttribute("viewBox", `${shown.x} ${shown.y} ${shown.w} ${shown.h}`);
    this.container.classList.toggle("zoomed", this.zoom > 1.001);
  }

  toBoard(clientX, clientY) {
    return new DOMPoint(clientX, clientY).matrixTransform(this.svg.getScreenCTM().inverse());
  }

  locationAt(event) {
    const element = document.elementFromPoint(event.clientX, event.clientY);
    const location = element && this.container.contains(element) ? element.closest("[data-loc]") : null;
    return location ? location.dataset.loc : null;
  }

  down(event) {
    if (event.pointerType === "mouse" && event.button !== 0 && event.button !== 2) return;
    this.container.setPointerCapture(event.pointerId);  // a place is drawn anew under a finger when it changes
    const loc = this.locationAt(event);
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY, startX: event.clientX,
                                         startY: event.clientY, loc, secondary: event.button === 2, dragged: false });
    if (this.pointers.size === 2) {  // a pinch: neither finger taps
      for (const pointer of this.pointers.values()) pointer.dragged = true;
      this.pinch = this.spread();
      this.setPreview(null);
    } else {
      this.setPreview(loc);
    }
  }

  move(event) {
    const pointer = this.pointers.get(event.pointerId);
    if (!pointer) {  // a mouse or pen hovering
      this.setPreview(this.locationAt(event));
      return;
    }
    const dx = event.clientX - pointer.x, dy = event.clientY - pointer.y;
    pointer.x = event.clientX;
    pointer.y = event.clientY;
    if (this.pinch) {
      const now = this.spread();
      this.zoomAt(now.distance / this.pinch.distance, now.x, now.y);
      this.panBy(now.x - this.pinch.x, now.y - this.pinch.y);
      this.pinch = now;
      return;
    }
    if (!pointer.dragged && Math.hypot(event.clientX - pointer.startX, event.clientY - pointer.startY) > TAP_SLOP_PX) {
      pointer.dragged = true;  // slid away: no tap
      this.setPreview(null);
    }
    if (pointer.dragged) this.panBy(dx, dy);
  }

  up(event) {
    const pointer = this.lift(event);
    if (pointer && !pointer.dragged && pointer.loc) this.tap(pointer.loc, pointer.secondary);
    if (event.pointerType !== "touch" && !this.pointers.size) this.setPreview(this.locationAt(event));
  }

  lift(event) {
    const pointer = this.pointers.get(event.pointerId);
    this.pointers.delete(event.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    if (!this.pointers.size) this.setPreview(null);
    return pointer;
  }

  spread() {
    const [a, b] = [...this.pointers.values()];
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, distance: Math.max(Math.hypot(a.x - b.x, a.y - b.y), 1) };
  }

  setPreview(loc) {
    if (loc === this.previewed) return;
    this.previewed = loc;
    this.markPreviewed();
    this.preview(loc);
  }

  markPreviewed() {
    for (const element of this.container.querySelectorAll(".previewed")) element.classList.remove("previewed");
    if (this.previewed) {
      for (const element of this.container.querySelectorAll(`[data-loc="${CSS.escape(this.previewed)}"]`)) {
        element.classList.add("previewed");
      }
    }
  }
}
