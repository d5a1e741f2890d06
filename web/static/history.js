// History: each player's points after every hand as an SVG line chart, the hands table, exports.
"use strict";
(() => {
  const COLORS = ["#1f6feb", "#d64545", "#2e7d32", "#8e44ad"];
  const $ = (id) => document.getElementById(id);
  const ns = "http://www.w3.org/2000/svg";

  function svgEl(tag, attrs, text) {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text != null) node.textContent = text;
    return node;
  }

  // The smallest step of 1, 2 or 5 times a power of ten (a whole point at least) that cuts lo..hi into at most
  // `most` parts: ticks a reader can add up (10,000 20,000 30,000), not the data's own min and max.
  function niceStep(span, most) {
    const raw = span / Math.max(1, most);
    const mag = 10 ** Math.floor(Math.log10(raw || 1));
    const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
    return Math.max(1, step);
  }

  function yTicks(values, most) {
    let lo = Math.min(...values), hi = Math.max(...values);
    if (lo === hi) { const pad = Math.max(1, Math.abs(lo) / 10); lo -= pad; hi += pad; }  // a flat line sits mid-chart
    const step = niceStep(hi - lo, most);
    lo = Math.floor(lo / step) * step; hi = Math.ceil(hi / step) * step;
    const ticks = [];
    for (let v = lo; v <= hi + step / 2; v += step) ticks.push(v === 0 ? 0 : v);  // no "-0"
    return { lo, hi, ticks };
  }

  // Hands labelled every 1, 2, 5, 10, ... so that the labels do not run into each other on a narrow screen.
  function handStep(hands, room, labelWidth) {
    for (let mag = 1; ; mag *= 10) {
      for (const m of [1, 2, 5]) if (hands === 0 || (room / hands) * m * mag >= labelWidth) return m * mag;
    }
  }

  // Drawn at the box's own size in CSS pixels (and again when it changes), so that the labels keep the page's
  // type size on a phone and a TV alike instead of shrinking with a scaled viewBox.
  function chart(box, points, hands, names) {
    const W = Math.floor(box.clientWidth);
    if (!W) return;
    const font = parseFloat(getComputedStyle(box).fontSize) || 13;
    const H = Math.round(Math.min(420, Math.max(240, W * 0.45)));
    const n = points.length;
    const { lo, hi, ticks } = yTicks(points.flat(), Math.floor((H - 3 * font) / (2.5 * font)));
    const labels = ticks.map((v) => J.num(v));
    const charW = 0.62 * font;  // a digit's width, near enough, in the system fonts
    const left = Math.ceil(Math.max(4, ...labels.map((s) => s.length)) * charW) + 12;
    const right = Math.ceil(font), top = Math.ceil(font), bottom = Math.ceil(font * 2);
    const plotW = W - left - right, plotH = H - top - bottom;
    const x = (i) => left + (n > 1 ? (i * plotW) / (n - 1) : 0);
    const y = (v) => top + ((hi - v) * plotH) / (hi - lo);
    const now = names.map((name, seat) => `${name} ${J.num(points[n - 1][seat])}`).join(", ");
    const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img",
      "aria-label": `Points after each hand; now ${now}` });
    ticks.forEach((v, k) => {
      svg.append(svgEl("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: v === 0 ? "zero" : "grid" }),
        svgEl("text", { x: left - 6, y: y(v), class: "tick y", "text-anchor": "end", "dominant-baseline": "middle" },
          labels[k]));
    });
    const base = top + plotH;
    const every = handStep(n - 1, plotW, Math.ceil(String(n - 1).length * charW) + 10);
    for (let i = 1; i < n; i++) {
      if (n > 1 && plotW / (n - 1) >= 3) svg.append(svgEl("line", { x1: x(i), x2: x(i), y1: base, y2: base + 4, class: "mark" }));
      if (i % every === 0 && hands[i] !== "") {  // the hand's own number, as the table and CSV give it
        svg.append(svgEl("text", { x: x(i), y: base + 6 + font, class: "tick x", "text-anchor": "middle" }, hands[i]));
      }
    }
    svg.append(svgEl("text", { x: left - 6, y: base + 6 + font, class: "axis", "text-anchor": "end" }, "hand"));
    for (let seat = 0; seat < 4; seat++) {
      const pts = points.map((row, i) => `${x(i)},${y(row[seat])}`);
      svg.append(svgEl("polyline", { points: pts.join(" "), stroke: COLORS[seat], "data-seat": seat }));
      if (n === 1 || plotW / (n - 1) >= 12) {  // dots while there is room, so a lone hand still shows
        for (const p of pts) { const [cx, cy] = p.split(","); svg.append(svgEl("circle", { cx, cy, r: 3.5, fill: COLORS[seat] })); }
      }
    }
    box.replaceChildren(svg);
  }

  function drawChart(points, names, hands) {
    const box = $("chart");
    let width = 0;
    new ResizeObserver(() => {
      if (box.clientWidth !== width) { width = box.clientWidth; chart(box, points, hands, names); }
    }).observe(box);
    $("legend").replaceChildren(...names.map((name, seat) => {
      const s = J.el("span", {}, name); s.style.setProperty("--c", COLORS[seat]); return s;
    }));
  }

  async function load() {
    try {
      const h = await J.api("GET", "/api/history");
      if (!h.game) { $("chart").textContent = "No game yet."; }
      else {
        drawChart(h.points, h.names, ["", ...h.hands.map((row) => row.number ?? "")]);  // an adjustment: no number
        const thead = $("hands").querySelector("thead");
        thead.replaceChildren(J.el("tr", {}, J.el("th", {}, "#"), J.el("th", {}, "Hand"), J.el("th", {}, "What happened"),
          ...h.names.map((nm) => J.el("th", { class: "num" }, nm))));
        const tbody = $("hands").querySelector("tbody");
        tbody.replaceChildren(...h.hands.map((row) => J.el("tr", {}, J.el("td", {}, row.number ?? ""), J.el("td", {}, row.round),
          J.el("td", {}, row.title), ...row.points.map((p, seat) => pointsCell(p, row.changes[seat])))));
      }
      const g = await J.api("GET", "/api/games");
      $("games").querySelector("tbody").replaceChildren(...g.games.map((game) => J.el("tr", {},
        J.el("td", {}, game.id), J.el("td", {}, (game.players || []).join(", ")), J.el("td", {}, game.preset || ""),
        J.el("td", {}, game.over ? "over" : game.round, " ", game.current ? J.el("strong", {}, "(current)") : resumeButton(game)),
        J.el("td", {}, J.el("a", { href: `/api/games/${game.id}/export.json` }, "JSON"), " · ",
          J.el("a", { href: `/api/games/${game.id}/export.csv` }, "CSV")))));
    } catch (e) { J.say(e.message, false); }
  }
  // A player's score after a row and, under it, the row's change as the CSV export gives it: riichi deposits made
  // during the hand included, so the changes add up from the starting points (a stick lost shows as -1,000).
  function pointsCell(points, change) {
    const cell = J.el("td", { class: "num" }, J.num(points));
    if (change) cell.append(J.el("br", {}), J.el("small", { class: `change ${change > 0 ? "up" : "down"}` }, `${change > 0 ? "+" : ""}${J.num(change)}`));
    return cell;
  }

  // A game left in play (a new one started by mistake, or one to go on with another night) is made the current
  // one again; the game in play now stays in the log, to be resumed the same way.
  function resumeButton(game) {
    const button = J.el("button", { type: "button", class: "secondary" }, "Continue");
    button.addEventListener("click", async () => {
      if (!confirm(`Make game ${game.id} (${game.players.join(", ")}) the current game? The one in play now stays in the log.`)) return;
      try {
        await J.api("POST", `/api/games/${game.id}/resume`, {});
        J.say(`game ${game.id} is the current game`, true);
        load();
      } catch (e) { J.say(e.message, false); }
    });
    return button;
  }

  load();
})();
