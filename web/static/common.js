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

  // A tile as a screen reader says it: MPSZ, a red five named so ("red 5p", not "0p").
  function tileName(code) { return code[0] === "0" ? `red 5${code[1]}` : code; }

  // A tile picture from /tiles/, or a styled text tile ("5m" in its suit's colour, red fives red) when this
  // device has no tile art and no CJK font: the first failed picture switches the page to text tiles. Inside a
  // control that names the tile itself (a tile of a hand: "winning tile 5p"), `decorative` hides the picture from
  // screen readers, which would otherwise say it again as a stray image.
  let textTiles = false;
  function textTile(code, decorative) {
    const span = document.createElement("span");
    span.className = `tile-text suit-${code[1]}` + (code[0] === "0" ? " red" : "");
    span.textContent = code[0] === "0" ? `5${code[1]}` : code;
    span.title = tileName(code);
    if (decorative) span.setAttribute("aria-hidden", "true");
    else { span.setAttribute("role", "img"); span.setAttribute("aria-label", tileName(code)); }
    return span;
  }

  function tileImg(code, decorative = false) {
    if (textTiles) return textTile(code, decorative);
    const img = document.createElement("img");
    img.src = `/tiles/${code}.png`;
    img.alt = decorative ? "" : tileName(code);
    img.title = tileName(code);
    if (decorative) img.setAttribute("aria-hidden", "true");
    img.addEventListener("error", () => {
      textTiles = true;
      const span = textTile(code, decorative);
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

  // A name inside a longer line: a right-to-left one (Hebrew, Arabic) is set apart with Unicode isolates, so
  // what follows it ("+4,900", "(West)") stays after it instead of taking the name's direction.
  const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]|[\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;
  function isolate(name) { return RTL.test(name) ? `\u2068${name}\u2069` : name; }

  // Columns a name takes: a CJK character or an emoji is as wide as two letters (a seat sets a long name smaller).
  const WIDE = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|[\u{1F300}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u;
  function columns(text) { return [...text].reduce((n, ch) => n + (WIDE.test(ch) ? 2 : 1), 0); }

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
        const label = g ? `${isolate(g.seats[s].name)} (${g.seats[s].wind_name})` : `Seat ${s}`;
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
    if (payment.ron != null) return `${num(payment.ron)} by ron`;
    if (payment.tsumo_dealer != null && payment.tsumo_other != null && payment.tsumo_dealer !== payment.tsumo_other)
      return `${num(payment.tsumo_other)} / ${num(payment.tsumo_dealer)} by tsumo`;
    if (payment.tsumo_other != null) return `${num(payment.tsumo_other)} all`;
    return "";
  }

  function scoreBlock(score) {
    const box = el("div", { class: "winner-block" });
    if (!score) return box;
    const head = [];
    // A yakuman counts 13 "han" in the scorer's numbers; the table says yakuman, as `jantaku score` prints it
    const times = (n) => (n > 1 ? `${n}x yakuman` : "yakuman");
    if (score.yakuman > 0) head.push(times(score.yakuman));
    else {
      if (score.han != null) head.push(`${score.han} han`);
      if (score.fu) head.push(`${score.fu} fu`);
      if (score.limit) head.push(score.limit);
    }
    if (score.value != null) head.push(`${score.value} ${score.unit || "points"}`);  // Zung Jung points, MCR fan
    box.append(el("div", {}, head.join(" · ")));
    const ul = el("ul", { class: "yaku" });
    for (const y of score.yaku || []) ul.append(el("li", {}, `${y.name} ${score.yakuman > 0 ? times(y.han / 13) : y.han}`));
    for (const y of score.patterns || []) ul.append(el("li", {}, `${y.name} ${y.points}`));
    box.append(ul);
    const p = pay(score.payment);
    if (p || score.total != null) box.append(el("div", { class: "pay" }, [p, score.total != null ? `total ${score.total}` : ""].filter(Boolean).join(" · ")));
    return box;
  }

  const num = (n) => Number(n).toLocaleString("en-US");  // points as every page writes them: 12,000

  // The final standings into `card` (hidden while the game is on). A riichi game shows each part of the result
  // as a club's score sheet does: the points, then in the result's unit (1,000: +8.8) their difference from the
  // return, uma, oka (first place's bonus), a penalty column when someone has one, and the result they add up
  // to; in Zung Jung and MCR the points are the result.
  function drawStandings(card, g) {
    const rows = (g && g.standings) || [];
    card.hidden = !rows.length;
    if (!rows.length) return;
    const unit = g.unit || 1;
    const inUnit = (n) => { const v = Math.round((n / unit) * 1000) / 1000; return (v > 0 ? "+" : "") + v; };
    const cols = [["Rank", (r) => r.rank], ["Player", (r) => r.name], ["Points", (r) => num(r.points), "points"]];
    if (!g.system || g.system === "riichi") {
      const each = unit === 1 ? "" : ` (in ${num(unit)}s, as the result)`;
      cols.push([`vs ${num(g.return_points)}`, (r) => inUnit(r.above_return), "above_return",
                 `points above (or below) the ${num(g.return_points)} return${each}`],
                ["Uma", (r) => inUnit(r.uma), "uma", `placement bonus${each}`],
                ["Oka", (r) => inUnit(r.oka), "oka", `first place's bonus${each}`]);
      if (rows.some((r) => r.penalty)) {
        cols.push(["Penalty", (r) => inUnit(r.penalty), "penalty", `end-of-game penalty${each}`]);
      }
    }
    cols.push(["Result", (r) => (r.net > 0 ? "+" : "") + r.net, "net"]);
    const head = el("tr", {}, ...cols.map(([title, , part, tip]) =>
      el("th", part ? { class: "num", ...(tip ? { title: tip } : {}) } : {}, title)));
    const body = rows.map((r) => el("tr", {}, ...cols.map(([, value, part]) =>
      el("td", part ? { class: "num", "data-part": part } : {}, value(r)))));
    const table = el("table", { class: "standings" }, el("thead", {}, head), el("tbody", {}, ...body));
    table.style.setProperty("--parts", cols.length - 2);  // the numbers after rank and player (a phone's second line)
    card.querySelector(".standings-box").replaceChildren(table);
  }

  // Follow the table's changes without a reload: the live stream, and when the server has no stream slot left
  // (503, the stream closed for good) polling /api/state each second, trying the stream again after 30 s. A
  // connection that goes silent without closing (a phone asleep, a Wi-Fi blip) raises no error: the server sends a
  // keepalive event every few seconds (its data says how many), so one silent for three of them is dropped and
  // reopened, the state fetched at once; checked by the clock each second and when the tab is shown again, since
  // a timer may not run while the phone sleeps. `onState(state, how)` gets every state, how being "live" (the
  // stream), "polling" or "fetched" (once, at the start and after a silence); `onTrouble(what)` "reconnecting" or
  // "offline" (a poll failed; the next one tries again).
  function follow(onState, onTrouble) {
    let source = null, pollTimer = null, every = 5, heard = 0;
    const hear = () => { heard = Date.now(); };

    async function poll() {
      try { onState(await api("GET", "/api/state"), pollTimer ? "polling" : "fetched"); }
      catch (e) { onTrouble("offline"); }
    }

    function startPolling() {
      if (pollTimer) return;
      pollTimer = setInterval(poll, 1000);
      poll();
      setTimeout(() => { clearInterval(pollTimer); pollTimer = null; connect(); }, 30000);
    }

    function connect() {
      if (!window.EventSource) { startPolling(); return; }
      source = new EventSource("/api/stream");
      hear();
      source.addEventListener("open", hear);
      source.addEventListener("keepalive", (ev) => { hear(); every = Number(ev.data) || 5; });
      source.addEventListener("state", (ev) => { hear(); onState(JSON.parse(ev.data), "live"); });
      source.onerror = () => {
        if (source.readyState === EventSource.CLOSED) { source = null; startPolling(); }
        else onTrouble("reconnecting");
      };
    }

    function watchdog() {
      if (!source || Date.now() - heard <= 3 * every * 1000) return;
      source.close(); source = null;
      onTrouble("reconnecting");
      poll();
      connect();
    }

    poll();
    connect();
    setInterval(watchdog, 1000);
    document.addEventListener("visibilitychange", watchdog);
  }

  // The keeper pages' sticky nav: its height, for the page's scroll padding, so that a control focused by Shift+Tab
  // never lands under it (38 to 137 px, with the width and the status line).
  const nav = document.querySelector(".keeper-nav");
  if (nav) {
    new ResizeObserver(([e]) => document.documentElement.style.setProperty("--nav-h", `${e.target.offsetHeight}px`))
      .observe(nav);
  }

  return { api, say, follow, parseTiles, writeTiles, tileImg, tileName, el, fillSeatSelects, overlay, scoreBlock, pay, seatName, drawStandings,
           isolate, columns, num, WINDS };
})();
