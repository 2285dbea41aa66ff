// The board: a game's picture (the renderer's SVG) that a person clicks to move.
//
// Each legal move comes with its steps, [[target, label], ...]: a target is the
// data-target of an element of the picture, or null for a choice the picture does not
// draw (offered as a button).  A click picks the next step; the moves whose steps begin
// with the picks so far remain; when one is left with every step picked, it is played.
// A choice button shows, while the pointer is over it, the position after that move.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";

class Board {
  // onMove(name): play a move; preview(name): a promise of the picture after it (or null)
  constructor(root, {onMove, preview} = {}) {
    this.root = root;
    this.onMove = onMove || (() => {});
    this.preview = preview || null;
    root.classList.add("board");
    // the choices stand above the picture, so that a preview of another size never moves
    // the button under the pointer
    root.innerHTML = `<div class="question" hidden></div><div class="picked"></div><div class="choices"></div>
      <div class="picture"></div>
      <details class="all"><summary>all legal moves by name</summary><div class="movelist"></div></details>`;
    this.pictureEl = root.querySelector(".picture");
    this.questionEl = root.querySelector(".question");
    this.choicesEl = root.querySelector(".choices");
    this.pickedEl = root.querySelector(".picked");
    this.listEl = root.querySelector(".movelist");
    this.pictureEl.addEventListener("click", (e) => this.clicked(e));
    this.view = null;
    this.picks = [];
    this.marks = {};            // kind -> [targets] (last, hint, pv)
    this.shown = null;          // the picture drawn (the view's, or a preview)
  }

  show(view, {interactive = true} = {}) {
    this.view = view;
    document.body.dataset.shown = String(+(document.body.dataset.shown || 0) + 1);
    this.interactive = interactive;
    this.picks = [];
    this.marks = {last: view.last || []};
    this.draw(view.picture);
    this.refresh();
  }

  draw(picture, isPreview = false) {
    this.pictureEl.innerHTML = picture;
    this.pictureEl.classList.toggle("preview", isPreview);
    this.svg = this.pictureEl.querySelector("svg");
    this.shown = picture;
    if (!isPreview) this.paint();
  }

  moves() { return (this.interactive && this.view && this.view.moves) || []; }

  candidates() {
    const k = this.picks.length;
    return this.moves().filter((m) => this.picks.every((p, i) => m.steps[i] && m.steps[i][0] === p[0] && m.steps[i][1] === p[1]) && m.steps.length > k);
  }

  refresh() {
    const candidates = this.candidates();
    const k = this.picks.length;
    this.clickable = new Map();     // target -> step
    const choices = new Map();      // label -> move(s)
    for (const m of candidates) {
      const [target, label] = m.steps[k];
      if (target !== null && this.svg && this.svg.querySelector(`[data-target="${cssEscape(target)}"]`)) {
        this.clickable.set(target, m.steps[k]);
      } else {
        const key = label + "\u0000" + target;
        if (!choices.has(key)) choices.set(key, {step: m.steps[k], moves: []});
        choices.get(key).moves.push(m);
      }
    }
    // the question is asked where the answers are; a card all the answers are about (keep
    // this bird? use its power?) is shown once above them
    const asked = this.moves().length && this.view.question;
    this.questionEl.hidden = !asked;
    this.questionEl.textContent = asked ? "Decision: " + this.view.question : "";
    this.choicesEl.innerHTML = "";
    const finals = [...choices.values()].map(({moves}) => moves.length === 1 && moves[0].steps.length === k + 1 ? moves[0] : null);
    const details = finals.map((m) => (m && m.details ? JSON.stringify(m.details) : null));
    const shared = details.length > 1 && details[0] && details.every((d) => d === details[0]) ? finals[0].details : null;
    if (shared) {
      const box = document.createElement("div");
      box.className = "shared-card";
      box.innerHTML = cardHtml(shared.name, shared);
      this.choicesEl.appendChild(box);
    }
    for (const {step, moves} of choices.values()) {
      const b = document.createElement("button");
      const only = moves.length === 1 && moves[0].steps.length === k + 1 ? moves[0] : null;
      const card = only && only.details && !shared;
      b.className = "choice" + (card ? " card" : "");
      b.dataset.label = step[1];
      if (only) b.dataset.move = only.name;
      b.innerHTML = card ? cardHtml(step[1], only.details) : escapeHtml(step[1]);
      b.addEventListener("click", () => this.pick(step));
      if (only && this.preview) {
        b.addEventListener("mouseenter", () => this.showPreview(only.name));
        b.addEventListener("mouseleave", () => this.endPreview());
      }
      this.choicesEl.appendChild(b);
    }
    if (k > 0) {
      const back = document.createElement("button");
      back.textContent = "start the move again";
      back.className = "again";
      back.addEventListener("click", () => { this.picks = []; this.refresh(); });
      this.choicesEl.appendChild(back);
    }
    this.pickedEl.textContent = k ? "chosen: " + this.picks.map((p) => p[1]).join(" \u2192 ") : "";
    this.listEl.innerHTML = "";
    for (const m of this.moves()) {
      const b = document.createElement("button");
      b.textContent = m.label;
      b.title = m.name;
      b.dataset.move = m.name;
      b.addEventListener("click", () => { this.interactive = false; this.refresh(); this.onMove(m.name); });
      this.listEl.appendChild(b);
    }
    this.root.querySelector("details.all").hidden = this.moves().length === 0;
    this.paint();
  }

  pick(step) {
    this.picks.push(step);
    const done = this.moves().filter((m) => m.steps.length === this.picks.length &&
      this.picks.every((p, i) => m.steps[i][0] === p[0] && m.steps[i][1] === p[1]));
    if (done.length === 1) {
      const name = done[0].name;
      this.picks = [];
      this.endPreview();
      this.interactive = false;       // until the next position is shown: one move a turn
      this.refresh();
      this.onMove(name);
      return;
    }
    this.endPreview();
    this.refresh();
  }

  clicked(event) {
    if (!this.clickable) return;
    for (let el = event.target; el && el !== this.pictureEl; el = el.parentNode) {
      const t = el.getAttribute && el.getAttribute("data-target");
      if (t && this.clickable.has(t)) { this.pick(this.clickable.get(t)); return; }
    }
  }

  async showPreview(name) {
    this.previewing = name;
    const picture = await this.preview(name);
    if (picture && this.previewing === name) this.draw(picture, true);
  }

  endPreview() {
    if (this.previewing !== undefined && this.previewing !== null) {
      this.previewing = null;
      if (this.view) this.draw(this.view.picture);
    }
  }

  // marks: last move, hint, principal variation (targets, drawn over the picture)
  mark(kind, targets) { this.marks[kind] = targets || []; this.paint(); }

  paint() {
    if (!this.svg) return;
    const old = this.svg.querySelector("g.marks");
    if (old) old.remove();
    for (const el of this.svg.querySelectorAll(".clickable")) el.classList.remove("clickable");
    const layer = document.createElementNS(SVGNS, "g");
    layer.setAttribute("class", "marks");
    this.svg.appendChild(layer);
    const box = (el) => boxIn(this.svg, el);
    const outline = (target, cls, label) => {
      for (const el of this.svg.querySelectorAll(`[data-target="${cssEscape(target)}"]`)) {
        const b = box(el);
        if (!b) continue;
        const r = document.createElementNS(SVGNS, "rect");
        r.setAttribute("x", b.x - 2); r.setAttribute("y", b.y - 2);
        r.setAttribute("width", b.w + 4); r.setAttribute("height", b.h + 4);
        r.setAttribute("rx", 5); r.setAttribute("class", "mark " + cls);
        r.dataset.for = target;
        layer.appendChild(r);
        if (label) {
          const t = document.createElementNS(SVGNS, "text");
          t.setAttribute("x", b.x + b.w - 4); t.setAttribute("y", b.y + 12);
          t.setAttribute("class", "mark-label"); t.textContent = label;
          layer.appendChild(t);
          label = "";
        }
      }
    };
    if (this.clickable) {
      for (const t of this.clickable.keys()) {
        outline(t, "can");
        for (const el of this.svg.querySelectorAll(`[data-target="${cssEscape(t)}"]`)) el.classList.add("clickable");
      }
    }
    for (const t of this.marks.last || []) outline(t, "last");
    (this.marks.pv || []).forEach((t, i) => outline(t, "pv", i === 0 ? "best" : ""));
    for (const t of this.marks.hint || []) outline(t, "hint", "hint");
    for (const p of this.picks) if (p[0]) outline(p[0], "pick");
  }
}

function boxIn(svg, el) {
  const s = svg.getBoundingClientRect();
  const r = el.getBoundingClientRect();
  if (!s.width || !r.width) return null;
  const vb = svg.viewBox.baseVal;
  const sx = (vb && vb.width ? vb.width : s.width) / s.width;
  const sy = (vb && vb.height ? vb.height : s.height) / s.height;
  return {x: (r.left - s.left) * sx, y: (r.top - s.top) * sy, w: r.width * sx, h: r.height * sy};
}

function cssEscape(text) { return window.CSS && CSS.escape ? CSS.escape(text) : text.replace(/"/g, '\\"'); }

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

// a card a move concerns (a Wingspan bird or bonus card), readable in a choice button
function cardHtml(label, d) {
  if (d.kind === "bird") {
    return `<div class="card-name">${escapeHtml(d.name)}</div>
      <div class="card-line">cost ${escapeHtml(d.cost)} \u00b7 ${d.points} points \u00b7 ${escapeHtml(d.habitats.join(", "))}</div>
      <div class="card-line">${escapeHtml(d.nest)} nest, ${d.eggs} eggs \u00b7 wingspan ${d.wingspan} cm${d.predator ? " \u00b7 predator" : ""}${d.flocking ? " \u00b7 flocking" : ""}</div>
      <div class="card-power">${escapeHtml(d.power)}</div>
      ${label !== d.name ? `<div class="card-line">${escapeHtml(label)}</div>` : ""}`;
  }
  if (d.kind === "bonus") {
    return `<div class="card-name">${escapeHtml(d.name)} (bonus card)</div><div class="card-power">${escapeHtml(d.counts)}</div>`;
  }
  return escapeHtml(label);
}

// an evaluation graph: values[k] = every seat's expected result after ply k (or null)
function graphSvg(values, sides, current) {
  const w = 600, h = 160, pad = 24;
  const n = Math.max(values.length - 1, 1);
  const x = (k) => pad + (w - 2 * pad) * k / n;
  const y = (v) => h - pad - (h - 2 * pad) * v;
  const colours = ["#1f5fa8", "#c8434f", "#2e9d4a", "#e07a10", "#9a62c8"];
  let out = `<svg xmlns="${SVGNS}" viewBox="0 0 ${w} ${h}">`;
  out += `<line x1="${pad}" y1="${y(0.5)}" x2="${w - pad}" y2="${y(0.5)}" stroke="#ccc" stroke-dasharray="4 3"/>`;
  out += `<text x="2" y="${y(1) + 4}" font-size="10" fill="#777">1</text><text x="2" y="${y(0) + 4}" font-size="10" fill="#777">0</text>`;
  const seats = sides.length === 2 ? [0] : sides.map((_, i) => i);
  for (const s of seats) {
    let d = "";
    values.forEach((v, k) => {
      if (!v || v[s] === null || v[s] === undefined) return;
      d += (d ? " L" : "M") + x(k).toFixed(1) + "," + y(v[s]).toFixed(1);
    });
    if (d) out += `<path class="series" data-seat="${s}" d="${d}" fill="none" stroke="${colours[s % 5]}" stroke-width="2"/>`;
  }
  if (current !== undefined) out += `<line x1="${x(current)}" y1="${pad / 2}" x2="${x(current)}" y2="${h - pad / 2}" stroke="#999"/>`;
  out += `<text x="${w - pad}" y="12" font-size="11" text-anchor="end" fill="#555">${sides.length === 2 ? escapeHtml(sides[0]) + "'s expected result" : "each seat's expected result"}</text>`;
  return out + "</svg>";
}
