// The printed board in the page: the terminal's 13×13 grid (the wasm's
// layout(), web/client.BoardLayout) drawn in SVG, one grid cell one unit.
// Board.setup draws what never moves (the track in the four colours, the
// hangars in the corners, the home columns to the centre, the flight
// lines, the jump, shortcut and turn squares); Board.draw the planes, the
// last move's path; Board.offer the planes (and their landing squares) the
// player may tap; Board.die the dice panel. It knows nothing of the game:
// app.js hands it the wasm's JSON.
"use strict";

const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const mk = (name, attrs, parent) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  };
  let layout = null;
  let svg = null;
  let layers = {}; // the board's groups, bottom to top

  // A track square's shape: its whole cell, or on an inner corner the
  // triangle on the side of the square before (after) it.
  function corners(sq) {
    const { x, y } = sq;
    if (!sq.side) return [[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1]];
    const cx = e => (e === "l" ? 0 : e === "r" ? 1 : null);
    const cy = e => (e === "t" ? 0 : e === "b" ? 1 : null);
    // The corner both edges share, the one across, and the other end of
    // this triangle's edge.
    const C = [cx(sq.side) ?? cx(sq.other), cy(sq.side) ?? cy(sq.other)];
    const O = [1 - C[0], 1 - C[1]];
    const T = cx(sq.side) !== null ? [C[0], 1 - C[1]] : [1 - C[0], C[1]];
    return [C, T, O].map(([a, b]) => [x + a, y + b]);
  }
  const centroid = pts => [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];

  // centre is the middle of a spot (a track square or a cell).
  function centre(spot) {
    if (spot.square >= 0) return centroid(corners(layout.track[spot.square]));
    return [spot.x + 0.5, spot.y + 0.5];
  }

  // setup draws the board that never changes.
  function setup(svgEl, lay) {
    svg = svgEl;
    layout = lay;
    const n = lay.size;
    svg.setAttribute("viewBox", `-0.2 -0.2 ${n + 0.4} ${n + 0.4}`);
    svg.replaceChildren();
    planeEls.clear();
    for (const name of ["ground", "path", "targets", "planes", "hits"]) layers[name] = mk("g", { class: name }, svg);
    const g = layers.ground;
    mk("rect", { x: -0.2, y: -0.2, width: n + 0.4, height: n + 0.4, rx: 0.4, class: "sheet" }, g);
    for (const [c, at] of Object.entries(lay.corner)) {
      mk("rect", { x: at.x + 0.08, y: at.y + 0.08, width: 2.84, height: 2.84, rx: 0.35, class: "hangar " + c }, g);
    }
    for (const [c, slots] of Object.entries(lay.hangar)) {
      for (const s of slots) mk("circle", { cx: s.x + 0.5, cy: s.y + 0.5, r: 0.4, class: "slot " + c }, g);
    }
    for (const [c, at] of Object.entries(lay.launch)) {
      mk("rect", { x: at.x + 0.1, y: at.y + 0.1, width: 0.8, height: 0.8, rx: 0.4, class: "launch " + c }, g);
    }
    for (const [c, cells] of Object.entries(lay.home)) {
      for (const h of cells) mk("rect", { x: h.x, y: h.y, width: 1, height: 1, class: "home " + c }, g);
    }
    // The centre: four triangles, each colour's towards its home column.
    const m = lay.centre;
    for (const [c, cells] of Object.entries(lay.home)) {
      const h = cells[cells.length - 1];
      const dx = Math.sign(h.x - m.x), dy = Math.sign(h.y - m.y);
      const mid = [m.x + 0.5, m.y + 0.5];
      const a = [m.x + 0.5 + dx * 0.5 - dy * 0.5, m.y + 0.5 + dy * 0.5 + dx * 0.5];
      const b = [m.x + 0.5 + dx * 0.5 + dy * 0.5, m.y + 0.5 + dy * 0.5 - dx * 0.5];
      mk("polygon", { points: [mid, a, b].map(p => p.join(",")).join(" "), class: "centre " + c }, g);
    }
    lay.track.forEach((sq, a) => {
      mk("polygon", { points: corners(sq).map(p => p.join(",")).join(" "), class: "sq " + sq.colour, "data-square": a }, g);
    });
    // The flight lines, dashed across the opposite home column.
    for (const [c, [from, to]] of Object.entries(lay.flight)) {
      const [x1, y1] = centroid(corners(lay.track[from])), [x2, y2] = centroid(corners(lay.track[to]));
      mk("line", { x1, y1, x2, y2, class: "flight " + c }, g);
    }
    lay.track.forEach((sq, a) => {
      const [x, y] = centroid(corners(sq));
      if (sq.shortcut) mk("circle", { cx: x, cy: y, r: 0.3, class: "mark shortcut" }, g);
      else if (sq.turn) mk("circle", { cx: x, cy: y, r: 0.14, class: "mark turn" }, g);
      else if (sq.jump) mk("circle", { cx: x, cy: y, r: 0.1, class: "mark jump", "data-jump": a }, g);
    });
  }

  // A plane: a disc in its colour with a white aeroplane on it.
  const glyph = "M0,-0.26 L0.05,-0.08 L0.26,0.04 L0.26,0.1 L0.05,0.04 L0.04,0.18 L0.11,0.24 L0.11,0.28 L0,0.25 L-0.11,0.28 L-0.11,0.24 L-0.04,0.18 L-0.05,0.04 L-0.26,0.1 L-0.26,0.04 L-0.05,-0.08 Z";

  // draw puts every plane where the board says, a stack side by side,
  // and the last move's path (kept from the board before when this one
  // has none: it shows until the next move, so a player about to choose
  // sees what the one before did). A plane keeps its element from board
  // to board (a redraw that moves nothing leaves it be); the plane of a
  // move just played flies its way there, unless the person asked for
  // less motion.
  let shownMove = null;
  let planeAt = {}; // data-plane → where it is drawn
  const planeEls = new Map(); // data-plane → {g, disc, glyph}
  const calm = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  function draw(board) {
    planeAt = {};
    const fresh = board.moved || null;
    if (fresh) shownMove = fresh;
    layers.path.replaceChildren();
    const stacks = {};
    for (const p of board.planes || []) {
      const key = p.square >= 0 ? "s" + p.square : p.x + "," + p.y;
      (stacks[key] ||= []).push(p);
    }
    const seen = new Set();
    for (const group of Object.values(stacks)) {
      group.forEach((p, k) => {
        const id = p.colour + p.index;
        let [x, y] = centre(p);
        if (group.length > 1) { x += (k % 2 ? 0.18 : -0.18); y += (k < 2 ? -0.18 : 0.18) * (group.length > 2 ? 1 : 0); }
        const r = group.length > 1 ? 0.27 : 0.36;
        planeAt[id] = [x, y];
        seen.add(id);
        let el = planeEls.get(id);
        if (!el) {
          const g = mk("g", {}, layers.planes);
          el = { g, disc: mk("circle", { cx: 0, cy: 0, "data-plane": id }, g), glyph: mk("path", { d: glyph, class: "glyph" }, g) };
          planeEls.set(id, el);
        }
        const moved = shownMove && shownMove.move === id;
        el.disc.setAttribute("class", "plane " + p.colour + (moved ? " moved" : ""));
        el.disc.setAttribute("r", r);
        el.disc.dataset.place = p.place;
        el.disc.onclick = null;
        el.glyph.setAttribute("transform", `scale(${r / 0.36})`);
        const at = `translate(${x},${y})`;
        if (el.g.getAttribute("transform") !== at) {
          el.g.setAttribute("transform", at);
          el.g.querySelectorAll("animateMotion").forEach(a => a.remove());
          if (fresh && fresh.move === id && fresh.path && fresh.path.length > 1 && !calm) fly(el.g, fresh.path.map(centre), [x, y]);
        }
      });
    }
    for (const [id, el] of planeEls) if (!seen.has(id)) { el.g.remove(); planeEls.delete(id); }
    mark();
    if (shownMove && shownMove.path && shownMove.path.length > 1) {
      const pts = shownMove.path.map(centre);
      mk("polyline", { points: pts.map(p => p.join(",")).join(" "), class: "trail" }, layers.path);
      pts.slice(1, -1).forEach(([x, y]) => mk("circle", { cx: x, cy: y, r: 0.11, class: "step" }, layers.path));
      const [ex, ey] = pts[pts.length - 1];
      mk("circle", { cx: ex, cy: ey, r: 0.46, class: "landed" }, layers.path);
      document.body.dataset.path = shownMove.path.length;
    }
  }

  // fly moves a plane's group, drawn at its end, along pts (a step of the
  // way in 60 ms, at most half a second in all): the motion is an offset
  // from where it is drawn.
  function fly(g, pts, [ex, ey]) {
    const d = "M" + pts.map(([px, py]) => `${px - ex},${py - ey}`).join(" L") + " L0,0";
    const a = mk("animateMotion", { path: d, dur: Math.min(0.06 * pts.length, 0.5) + "s", fill: "freeze", begin: "indefinite" }, g);
    a.beginElement();
  }

  // offer makes each target's plane and landing square tappable: pick(move)
  // is called once, for the first tap. A tap target is a circle 1.7 cells
  // across (45 px on a 360 px phone), drawn over the planes, invisible,
  // moved in from the board's edge so that all of it is on the screen.
  const hitR = 0.85;
  const inside = v => Math.min(Math.max(v, hitR - 0.2), layout.size + 0.2 - hitR);
  // The offer stands over redraws until a tap or clear.
  let pending = null; // {targets, pick} while the player is to choose
  function offer(targets, pick) {
    pending = { targets, pick };
    mark();
  }
  function mark() {
    layers.targets.replaceChildren();
    layers.hits.replaceChildren();
    if (!pending) return;
    const { targets, pick } = pending;
    const tap = m => ev => { ev.preventDefault(); if (pending === null) return; clear(); pick(m); };
    for (const t of targets) {
      const plane = svg.querySelector(`circle.plane[data-plane="${t.plane}"]`);
      if (plane) {
        plane.classList.add("movable");
        plane.onclick = tap(t.move); // one handler: a stale offer's never fires
        const [x, y] = planeAt[t.plane];
        const hit = mk("circle", { cx: inside(x), cy: inside(y), r: hitR, class: "hit", "data-move": t.move }, layers.hits);
        hit.addEventListener("click", tap(t.move));
      }
      const [tx, ty] = centre(t.to);
      mk("circle", { cx: tx, cy: ty, r: 0.42, class: "target " + t.plane[0] }, layers.targets);
      const land = mk("circle", { cx: inside(tx), cy: inside(ty), r: hitR, class: "hit land", "data-move": t.move }, layers.hits);
      land.addEventListener("click", tap(t.move));
    }
  }

  // clear takes the offer back (the move was picked, or the game ended).
  function clear() {
    pending = null;
    if (!svg) return;
    layers.targets.replaceChildren();
    layers.hits.replaceChildren();
    svg.querySelectorAll(".movable").forEach(p => { p.classList.remove("movable"); p.onclick = null; });
  }

  // die shows the last roll on the dice panel; with onRoll the die shines
  // and a tap rolls.
  const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
    5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };
  function die(button, roll) {
    const face = button.querySelector("svg") || mk("svg", { viewBox: "0 0 4 4", "aria-hidden": "true" }, button);
    face.replaceChildren();
    mk("rect", { x: 0.2, y: 0.2, width: 3.6, height: 3.6, rx: 0.6, class: "face" + (roll ? " " + roll.colour : "") }, face);
    for (const [x, y] of roll ? pips[roll.value] : []) mk("circle", { cx: x, cy: y, r: 0.38, class: "pip" }, face);
    button.dataset.value = roll ? roll.value : "";
  }

  // armDie makes the die shine and roll on a tap (onRoll, once); null
  // takes that back.
  function armDie(button, onRoll) {
    button.classList.toggle("movable", !!onRoll);
    button.disabled = !onRoll;
    button.onclick = onRoll ? () => { armDie(button, null); onRoll(); } : null;
  }

  // The board's strings in the terminal's seven languages (app.js adds
  // them to its own).
  const strings = {
    en: { roll: "Your roll: tap the die.", die: "Roll the die", wait: "The others are playing…", jump: "your colour: jump 4", flight: "flight along the dashes", turn: "turn to the centre" },
    el: { roll: "Η σειρά σας να ρίξετε: αγγίξτε το ζάρι.", die: "Ρίξτε το ζάρι", wait: "Παίζουν οι άλλοι…", jump: "το χρώμα σας: άλμα 4", flight: "πτήση στη διακεκομμένη", turn: "στροφή προς το κέντρο" },
    hi: { roll: "आपकी बारी: पासे को छुएँ।", die: "पासा फेंकें", wait: "दूसरे खिलाड़ी खेल रहे हैं…", jump: "आपका रंग: 4 की छलाँग", flight: "धारीदार रेखा पर उड़ान", turn: "केंद्र की ओर मोड़" },
    it: { roll: "Tocca a te tirare: tocca il dado.", die: "Tira il dado", wait: "Gli altri stanno giocando…", jump: "il tuo colore: salto di 4", flight: "volo lungo il tratteggio", turn: "svolta verso il centro" },
    pt: { roll: "É a sua vez de lançar: toque no dado.", die: "Lançar o dado", wait: "Os outros estão a jogar…", jump: "a sua cor: salto de 4", flight: "voo pela linha tracejada", turn: "viragem para o centro" },
    ru: { roll: "Ваш бросок: коснитесь кубика.", die: "Бросить кубик", wait: "Ходят другие игроки…", jump: "ваш цвет: прыжок на 4", flight: "полёт по пунктиру", turn: "поворот к центру" },
    zh: { roll: "轮到你掷骰：点一下骰子。", die: "掷骰子", wait: "其他玩家正在行动…", jump: "本色格：跳 4 格", flight: "沿虚线飞行", turn: "转向中心" },
  };

  // legend names the board's marks under it, in the page's language.
  function legend(el, t) {
    el.replaceChildren();
    for (const [cls, text] of [["jump", t.jump], ["shortcut", t.flight], ["turn", t.turn]]) {
      const li = document.createElement("li");
      const icon = mk("svg", { viewBox: "0 0 1 1", "aria-hidden": "true", class: "key" }, li);
      mk("rect", { x: 0, y: 0, width: 1, height: 1, class: "sq R" }, icon);
      mk("circle", { cx: 0.5, cy: 0.5, r: cls === "shortcut" ? 0.3 : cls === "turn" ? 0.14 : 0.1, class: "mark " + cls }, icon);
      li.append(text);
      el.appendChild(li);
    }
  }

  return { setup, draw, offer, clear, die, armDie, legend, strings };
})();
