// The scoreboard: draws the table from /api/state and keeps it live with server-sent events
// (or polling once a second when the server has no stream slot left).
"use strict";
(() => {
  const live = document.getElementById("live");
  let lastVersion = -1;
  let announced;  // the last hand's title as drawn: a new one is said by the live region, not the first one drawn

  function fmt(n) { return n == null ? "—" : J.num(n); }

  function render(state) {
    if (state.version === lastVersion) return;
    lastVersion = state.version;
    document.body.dataset.version = state.version;
    const g = state.game;
    // a game that is over shows no next hand and no dealer for it
    document.getElementById("round").textContent = g ? (g.over ? "Game over" : g.round) : "No game";
    document.getElementById("table").classList.toggle("game-over", !!(g && g.over));  // set smaller, to fit a TV
    document.getElementById("honba").textContent = g ? g.honba : 0;
    document.getElementById("sticks").textContent = g ? g.riichi_sticks : 0;
    // USPML, Zung Jung, MCR: no honba, no sticks; a game over has no next hand to count them for (its sticks are given out)
    document.querySelector(".counters").hidden = !!(g && (!g.counters || g.over));
    document.getElementById("sticks-label").textContent = g && g.riichi_sticks === 1 ? "riichi stick" : "riichi sticks";
    document.getElementById("preset").textContent = g ? g.preset_title : (state.device.game_keeping !== "ok" ? state.device.game_keeping : "");
    const over = document.getElementById("over");
    over.hidden = !(g && g.over);
    over.textContent = g && g.over ? `${g.hands_played} hand${g.hands_played === 1 ? "" : "s"} played${g.over_reason ? ": " + g.over_reason : ""}` : "";
    // each seat's change in the last hand as the history page and the CSV give it: riichi deposits included
    const deltas = g && g.last ? g.last.changes : null;
    for (const node of document.querySelectorAll(".seat")) {
      const seat = Number(node.dataset.seat);
      const s = g ? g.seats[seat] : null;
      node.querySelector(".wind-letter").textContent = s ? s.wind_name : "-";
      const name = node.querySelector(".name");
      name.textContent = s ? s.name : "—";
      name.classList.toggle("long", !!s && J.columns(s.name) > 12);  // smaller, the more so the longer (app.css)
      name.style.setProperty("--cols", s ? J.columns(s.name) : 1);
      const pts = node.querySelector(".points");
      pts.textContent = s ? fmt(s.points) : "—";
      pts.classList.toggle("neg", !!s && s.points < 0);
      node.classList.toggle("dealer", !!s && s.dealer && !g.over);
      node.classList.toggle("riichi", !!s && s.riichi);
      let d = node.querySelector(".delta");
      if (!d) { d = J.el("div", { class: "delta" }); node.insertBefore(d, node.querySelector(".riichi-stick")); }
      const dv = deltas ? deltas[seat] : 0;
      d.textContent = dv ? (dv > 0 ? "+" : "") + fmt(dv) : "";
      d.className = "delta " + (dv > 0 ? "up" : dv < 0 ? "down" : "");
      // what a screen reader says on reaching the seat: "East, Bob, 36,800 points, dealer, riichi"
      node.setAttribute("aria-label", s ? [s.wind_name, s.name, `${fmt(s.points)} points`, ...(s.dealer && !g.over ? ["dealer"] : []),
        ...(s.riichi ? ["riichi"] : [])].join(", ") : `Seat ${seat + 1}`);
      // a chombo the preset settles at the end (NARO-1, WRC): shown until the standings take it in
      let pen = node.querySelector(".penalty");
      if (!pen) { pen = J.el("div", { class: "penalty" }); node.insertBefore(pen, d); }
      pen.textContent = s && s.penalty && !g.over ? `penalty ${fmt(s.penalty)} at the end` : "";
    }
    renderLast(g);
    J.drawStandings(document.getElementById("standings"), g);
    document.querySelector(".board-layout").classList.toggle("has-side", !!(g && (g.last || (g.standings && g.standings.length))));
  }

  function renderLast(g) {
    const card = document.getElementById("last");
    const last = g && g.last;
    card.hidden = !last;
    const title = last ? last.title : "";
    if (announced !== undefined && title && title !== announced) document.getElementById("announce").textContent = title;
    announced = title;
    if (!last) return;
    document.getElementById("last-title").textContent = last.title;
    const body = document.getElementById("last-body");
    body.replaceChildren();
    for (const w of last.winners || []) {
      const block = J.scoreBlock(w);
      if (last.winners.length > 1) block.prepend(J.el("h3", {}, w.name));
      body.append(block);
    }
    if (last.detail) body.append(J.el("p", {}, last.detail));
    const ds = J.el("div", { class: "deltas" });
    (last.changes || []).forEach((v, seat) => {
      if (v) ds.append(J.el("span", { class: v > 0 ? "up" : "down" }, `${J.isolate(g.seats[seat].name)} ${v > 0 ? "+" : ""}${fmt(v)}`));
    });
    body.append(ds);
    const photo = last.photo;
    J.overlay(document.getElementById("last-photo"), photo && photo.url, photo && photo.image, photo && photo.tiles);
  }

  J.follow((state, how) => {
    render(state);
    if (how === "fetched") return;
    live.textContent = how === "polling" ? "live (polling)" : "live";
    live.classList.remove("off");
  }, (trouble) => {
    live.textContent = trouble === "offline" ? "offline, retrying" : "reconnecting…";
    live.classList.add("off");
  });
})();
