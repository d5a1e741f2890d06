// History: each player's points after every hand as an SVG line chart, the hands table, exports.
"use strict";
(() => {
  const COLORS = ["#1f6feb", "#d64545", "#2e7d32", "#8e44ad"];
  const $ = (id) => document.getElementById(id);

  function chart(points, names) {
    const W = 900, H = 320, P = 44;
    const n = points.length;
    const all = points.flat();
    const lo = Math.min(...all, 0), hi = Math.max(...all, 1);
    const x = (i) => P + (n > 1 ? (i * (W - 2 * P)) / (n - 1) : 0);
    const y = (v) => H - P - ((v - lo) * (H - 2 * P)) / (hi - lo || 1);
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    for (const v of [lo, (lo + hi) / 2, hi]) {
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", 2); t.setAttribute("y", y(v) + 4); t.setAttribute("font-size", 12);
      t.textContent = Math.round(v);
      const l = document.createElementNS(ns, "line");
      l.setAttribute("x1", P); l.setAttribute("x2", W - P); l.setAttribute("y1", y(v)); l.setAttribute("y2", y(v));
      l.setAttribute("stroke", "#ccd"); svg.append(t, l);
    }
    for (let seat = 0; seat < 4; seat++) {
      const line = document.createElementNS(ns, "polyline");
      line.setAttribute("points", points.map((row, i) => `${x(i)},${y(row[seat])}`).join(" "));
      line.setAttribute("stroke", COLORS[seat]);
      line.setAttribute("data-seat", seat);
      svg.append(line);
    }
    $("chart").replaceChildren(svg);
    $("legend").replaceChildren(...names.map((name, seat) => {
      const s = J.el("span", {}, name); s.style.setProperty("--c", COLORS[seat]); return s;
    }));
  }

  async function load() {
    try {
      const h = await J.api("GET", "/api/history");
      if (!h.game) { $("chart").textContent = "No game yet."; }
      else {
        chart(h.points, h.names);
        const thead = $("hands").querySelector("thead");
        thead.replaceChildren(J.el("tr", {}, J.el("th", {}, "#"), J.el("th", {}, "Hand"), J.el("th", {}, "What happened"),
          ...h.names.map((nm) => J.el("th", { class: "num" }, nm))));
        const tbody = $("hands").querySelector("tbody");
        tbody.replaceChildren(...h.hands.map((row, i) => J.el("tr", {}, J.el("td", {}, i + 1), J.el("td", {}, row.round),
          J.el("td", {}, row.title), ...row.points.map((p) => J.el("td", { class: "num" }, J.num(p))))));
      }
      const g = await J.api("GET", "/api/games");
      $("games").querySelector("tbody").replaceChildren(...g.games.map((game) => J.el("tr", {},
        J.el("td", {}, game.id), J.el("td", {}, (game.players || []).join(", ")), J.el("td", {}, game.preset || ""),
        J.el("td", {}, J.el("a", { href: `/api/games/${game.id}/export.json` }, "JSON"), " · ",
          J.el("a", { href: `/api/games/${game.id}/export.csv` }, "CSV")))));
    } catch (e) { J.say(e.message, false); }
  }
  load();
})();
