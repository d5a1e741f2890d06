// Shared helpers for the jantaku pages: JSON calls with the CSRF token, tiles in MPSZ, photo overlays.
"use strict";
const J = (() => {
  const csrfMeta = document.querySelector('meta[name="csrf-token"]');
  const WINDS = ["East", "South", "West", "North"];

  async function api(method, path, body) {
    const opts = { method, headers: { "Accept": "application/json" }, credentials: "same-origin" };
    if (csrfMeta) opts.headers["X-CSRF-Token"] = csrfMeta.content;
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const resp = await fetch(path, opts);
    let data = null;
    try { data = await resp.json(); } catch (e) { data = { error: `HTTP ${resp.status}` }; }
    if (!resp.ok) {
      const err = new Error((data && data.error) || `HTTP ${resp.status}`);
      err.status = resp.status;
      throw err;
    }
    return data;
  }

  function say(text, ok) {
    const el = document.getElementById("status");
    if (!el) return;
    el.textContent = text;
    el.className = "status " + (ok ? "ok" : "error");
  }

  // "123m0p77z" -> ["1m","2m","3m","0p","7z","7z"]; unreadable text gives null.
  function parseTiles(text) {
    const compact = (text || "").replace(/\s+/g, "");
    if (!compact) return [];
    if (!/^([0-9]+[mpsz])+$/.test(compact)) return null;
    const out = [];
    for (const [, digits, suit] of compact.matchAll(/([0-9]+)([mpsz])/g)) {
      for (const d of digits) out.push(d + suit);
    }
    return out;
  }

  // ["1m","2m","0p"] -> "12m0p" keeping the order given.
  function writeTiles(tiles) {
    let out = "", digits = "", suit = "";
    for (const t of tiles) {
      if (t[1] !== suit && digits) { out += digits + suit; digits = ""; }
      suit = t[1]; digits += t[0];
    }
    return digits ? out + digits + suit : out;
  }

  // A tile picture from /tiles/, or a styled text tile ("5m" in its suit's colour, red fives red) when this
  // device has no tile art and no CJK font: the first failed picture switches the page to text tiles.
  let textTiles = false;
  function textTile(code) {
    const span = document.createElement("span");
    span.className = `tile-text suit-${code[1]}` + (code[0] === "0" ? " red" : "");
    span.textContent = code[0] === "0" ? `5${code[1]}` : code;
    span.title = code;
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", code);
    return span;
  }

  function tileImg(code) {
    if (textTiles) return textTile(code);
    const img = document.createElement("img");
    img.src = `/tiles/${code}.png`;
    img.alt = code;
    img.title = code;
    img.addEventListener("error", () => {
      textTiles = true;
      const span = textTile(code);
      span.className += " " + img.className;
      for (const [k, v] of Object.entries(img.dataset)) span.dataset[k] = v;
      img.replaceWith(span);
    }, { once: true });
    return img;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v; else node.setAttribute(k, v);
    }
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  }

  function seatName(state, seat) {
    const g = state && state.game;
    return g ? g.seats[seat].name : `Seat ${seat}`;
  }

  function fillSeatSelects(state, root) {
    for (const sel of (root || document).querySelectorAll("select.seat-select")) {
      const keep = sel.value;
      sel.replaceChildren();
      if (sel.dataset.optional) sel.append(el("option", { value: "" }, sel.dataset.optional));
      for (let s = 0; s < 4; s++) {
        const g = state && state.game;
        const label = g ? `${g.seats[s].name} (${g.seats[s].wind_name})` : `Seat ${s}`;
        sel.append(el("option", { value: String(s) }, label));
      }
      if (keep || sel.dataset.optional) sel.value = keep;
    }
    for (const span of (root || document).querySelectorAll(".seat-name")) {
      span.textContent = seatName(state, Number(span.dataset.seat));
    }
  }

  // Draw the recognised tiles' boxes over a photo (boxes are in pixels of the photo).
  function overlay(figure, url, image, tiles) {
    if (!url) { figure.hidden = true; return; }
    figure.hidden = false;
    const img = figure.querySelector("img");
    const svg = figure.querySelector("svg");
    if (img.getAttribute("src") !== url) img.src = url;
    svg.replaceChildren();
    if (!image || !image.width) return;
    svg.setAttribute("viewBox", `0 0 ${image.width} ${image.height}`);
    svg.setAttribute("preserveAspectRatio", "none");
    const ns = "http://www.w3.org/2000/svg";
    const size = Math.max(14, image.width / 50);
    for (const t of tiles || []) {
      const [x1, y1, x2, y2] = t.box;
      const r = document.createElementNS(ns, "rect");
      r.setAttribute("x", x1); r.setAttribute("y", y1);
      r.setAttribute("width", x2 - x1); r.setAttribute("height", y2 - y1);
      const label = document.createElementNS(ns, "text");
      label.setAttribute("x", x1); label.setAttribute("y", Math.max(size, y1 - 4));
      label.setAttribute("font-size", size);
      label.textContent = t.tile;
      svg.append(r, label);
    }
  }

  function pay(payment) {
    if (!payment) return "";
    if (payment.ron != null) return `${payment.ron} by ron`;
    if (payment.tsumo_dealer != null && payment.tsumo_other != null && payment.tsumo_dealer !== payment.tsumo_other)
      return `${payment.tsumo_other} / ${payment.tsumo_dealer} by tsumo`;
    if (payment.tsumo_other != null) return `${payment.tsumo_other} all`;
    return "";
  }

  function scoreBlock(score) {
    const box = el("div", { class: "winner-block" });
    if (!score) return box;
    const head = [];
    if (score.han != null) head.push(`${score.han} han`);
    if (score.fu) head.push(`${score.fu} fu`);
    if (score.limit) head.push(score.limit);
    if (score.value != null) head.push(`${score.value} ${score.unit || "points"}`);  // Zung Jung points, MCR fan
    box.append(el("div", {}, head.join(" · ")));
    const ul = el("ul", { class: "yaku" });
    for (const y of score.yaku || []) ul.append(el("li", {}, `${y.name} ${y.han}`));
    for (const y of score.patterns || []) ul.append(el("li", {}, `${y.name} ${y.points}`));
    box.append(ul);
    const p = pay(score.payment);
    if (p || score.total != null) box.append(el("div", { class: "pay" }, [p, score.total != null ? `total ${score.total}` : ""].filter(Boolean).join(" · ")));
    return box;
  }

  return { api, say, parseTiles, writeTiles, tileImg, el, fillSeatSelects, overlay, scoreBlock, pay, seatName, WINDS };
})();
