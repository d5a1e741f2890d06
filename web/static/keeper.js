// The scorekeeper's recording page: every button calls the JSON API and redraws from its reply.
"use strict";
(() => {
  let state = null;
  let panelSaid = "";
  let logSaid = "";
  let activeField = "p-concealed";
  let selected = null; // {field, index} of a tile picked in a row, to be replaced from the picker
  const FIELD_NAMES = { "p-concealed": "Concealed", "p-win": "Winning tile", "p-dora": "Dora indicators", "p-ura": "Ura indicators" };

  const $ = (id) => document.getElementById(id);
  const seatOf = (id) => Number($(id).value);
  const kind = (name) => document.querySelector(`input[name="${name}"]:checked`).value;

  // One request at a time: a double tap on a phone would otherwise record a draw, a chombo or an adjustment twice
  // (the server cannot tell a second tap from a second event), and a second "Confirm" would report the first's
  // proposal gone. A tap while one is on its way is dropped.
  let busy = false;
  // Writes that change the game, and corrections of the hand about to be recorded, carry the game as this page
  // showed it (`seen`): one made meanwhile elsewhere (a second phone recording the same hand, an undo aimed at a
  // hand no longer the last) is refused (409), not doubled.
  const GAME_WRITES = new Set(["/api/riichi", "/api/ron", "/api/tsumo", "/api/draw", "/api/abortive", "/api/chombo",
    "/api/pao", "/api/adjust", "/api/penalty", "/api/end", "/api/undo", "/api/redo", "/api/proposal/confirm"]);

  async function act(method, path, body, message) {
    if (busy) return null;
    busy = true;
    document.body.classList.add("busy");
    try {
      const write = method === "POST" ? GAME_WRITES.has(path) : method === "PUT" && path === "/api/proposal";
      if (write && state && state.game_version) body = { ...(body || {}), seen: state.game_version };
      const data = await J.api(method, path, body);
      if (data.state) draw(data.state);
      J.say(message || "done", true);
      return data;
    } catch (e) {
      J.say(e.message, false);
      if (e.status === 409) refresh();  // show the game as it is now
      return null;
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
  }

  // A ron's discarder is never its winner: the winner's seat is greyed out of "Ron from", which defaults to
  // the seat before the winner (kamicha, the usual deal-in when in doubt) whenever the winner changes onto it.
  const DISCARDERS = ["scan-discarder", "q-discarder"];
  function guardDiscarder(id) {
    const sel = $(id), winner = seatOf(sel.dataset.winner);
    for (const o of sel.options) o.disabled = Number(o.value) === winner;
    if (sel.value === "" || Number(sel.value) === winner) sel.value = String((winner + 3) % 4);
  }

  // What is wrong with the seats of a win form (null when nothing): shown beside the form, never sent.
  function seatProblem(id) {
    const sel = $(id);
    if (kind(sel.dataset.kind) !== "ron") return null;
    const winner = seatOf(sel.dataset.winner), discarder = seatOf(id);
    const name = (seat) => J.isolate(J.seatName(state, seat));
    if (winner === discarder) return `${name(winner)} cannot win by ron on their own discard: pick who dealt in under "Ron from".`;
    if (id === "q-discarder" && $("q-winner2").value !== "") {
      const second = Number($("q-winner2").value);
      if (second === winner) return `${name(second)} is already the first winner: pick another seat for the double ron, or nobody.`;
      if (second === discarder) return `${name(second)} dealt in and cannot also win this ron: pick another seat, or nobody.`;
    }
    return null;
  }

  // True when the form may be sent; else the reason is shown inline (and in the status line).
  function seatsOk(id) {
    const problem = seatProblem(id);
    const box = $(id === "scan-discarder" ? "scan-seat-error" : "q-seat-error");
    box.textContent = problem || "";
    box.hidden = !problem;
    if (problem) J.say(problem, false);
    return !problem;
  }

  function draw(s) {
    state = s;
    J.fillSeatSelects(s);
    for (const id of DISCARDERS) guardDiscarder(id);
    const g = s.game;
    const panelSays = s.device.status === "error" ? s.device.message : "";
    if (panelSays && panelSays !== panelSaid) J.say(panelSays.startsWith("panel") ? panelSays : `panel: ${panelSays}`, false);
    panelSaid = panelSays;  // said once, not again over the page's own results at every refresh
    // a game log that takes no writes (its disk full or read-only, its file gone), said to every keeper page once
    const logSays = s.device.game_log && s.device.game_log !== "ok" ? s.device.game_log : "";
    if (logSays && logSays !== logSaid) J.say(`${logSays}. The score shown is the last one stored.`, false);
    else if (!logSays && logSaid) J.say("the game log takes writes again", true);
    logSaid = logSays;
    const counters = g && g.counters ? ` · ${g.honba} honba · ${g.riichi_sticks} riichi stick${g.riichi_sticks === 1 ? "" : "s"}` : "";
    $("game-title").textContent = g ? `${g.over ? "Game over" : g.round + counters} · ${g.preset_title}` : (s.device.game_keeping !== "ok" ? s.device.game_keeping : "no game yet");
    const mini = $("mini");
    mini.replaceChildren();
    if (g) {
      for (const seat of g.seats) {
        const box = J.el("div", { class: seat.dealer && !g.over ? "dealer" : "" },
          J.el("div", {}, `${seat.wind_name} · ${J.isolate(seat.name)}${seat.riichi ? " · riichi" : ""}`),
          J.el("div", { class: "pts" }, J.num(seat.points)));
        mini.append(box);
      }
    }
    J.drawStandings($("standings"), g);
    drawControls(g);
    for (const b of document.querySelectorAll("[data-riichi]")) {
      const seat = Number(b.dataset.riichi);
      b.textContent = `Riichi: ${J.seatName(s, seat)}`;
      b.disabled = !g || g.over || g.seats[seat].riichi;
    }
    const presetSel = $("preset");
    if (!presetSel.options.length) {
      for (const p of s.presets || []) presetSel.append(J.el("option", { value: p }, p));
    }
    const replay = $("scan-photo");
    $("replay-label").hidden = !(s.replay_photos && s.replay_photos.length);
    if (replay.options.length !== (s.replay_photos || []).length) {
      replay.replaceChildren();
      for (const p of s.replay_photos || []) replay.append(J.el("option", { value: p }, p));
    }
    if (s.next_photo !== shownNext) {  // moves on after a scan; a live refresh keeps the photo the keeper picked
      shownNext = s.next_photo;
      if (s.next_photo && document.activeElement !== replay) replay.value = s.next_photo;
    }
    drawProposal(s.proposal);
  }

  // Only what can be recorded is offered: a Zung Jung or MCR game (kept with `jantaku game`) has no riichi, no
  // han and fu and no tenpai at a draw, and its wins are priced by the CLI; a game that is over takes nothing but
  // a penalty, undo and redo.
  function drawControls(g) {
    const other = !!(g && g.system && g.system !== "riichi");
    const over = !!(g && g.over);
    for (const node of document.querySelectorAll(".riichi-only, .play-only")) {
      node.hidden = (other && node.classList.contains("riichi-only")) || (over && node.classList.contains("play-only"));
    }
    $("other-system").hidden = !other || over;
    $("other-system").textContent = other
      ? `This game follows ${g.system_title} rules: record its wins with \`jantaku game ron/tsumo …\` on the device (${g.value_unit} by hand or the tiles). Draws, adjustments, ending the game, undo and redo work here.`
      : "";
    $("draw").textContent = other ? "Draw" : "Exhaustive draw";
    $("penalty-points").step = other ? "1" : "100";  // riichi points are taken in 100s
    $("draws-title").textContent = other ? "Draws and adjustments" : "Draws, chombo, adjustments";
  }

  // The replay folder's next photo last put in the picker.
  let shownNext = null;

  // The proposal last drawn: a live refresh that brings the same proposal again must not overwrite what the
  // keeper is typing or picking (the picker takes the focus from the field, so focus alone cannot tell).
  let drawnProposal = null;

  function drawProposal(p) {
    $("proposal").hidden = !p;
    const key = JSON.stringify(p);
    if (key === drawnProposal) return;
    drawnProposal = key;
    if (!p) {  // dropped or recorded: its tiles must not come back into a hand typed next
      for (const id of ["p-concealed", "p-win", "p-melds", "p-dora", "p-ura"]) $(id).value = "";
      for (const box of document.querySelectorAll("[data-flag]")) box.checked = false;
      return;
    }
    J.overlay($("proposal-photo"), p.photo_url, p.image, p.tiles);
    $("proposal-photo-name").textContent = p.photo || "";
    const warn = $("proposal-warnings");
    warn.replaceChildren(...(p.warnings || []).map((w) => J.el("li", {}, w)));
    const fields = { "p-concealed": p.concealed, "p-win": p.win, "p-melds": (p.melds || []).join(" "), "p-dora": p.dora_indicators, "p-ura": p.ura_indicators };
    for (const [id, v] of Object.entries(fields)) if (document.activeElement !== $(id)) $(id).value = v || "";
    for (const box of document.querySelectorAll("[data-flag]")) box.checked = !!(p.flags || {})[box.dataset.flag];
    if (p.winner != null) $("scan-winner").value = String(p.winner);
    if (p.discarder != null) $("scan-discarder").value = String(p.discarder);
    guardDiscarder("scan-discarder");
    document.querySelector(`input[name="scan-kind"][value="${p.tsumo ? "tsumo" : "ron"}"]`).checked = true;
    $("scan-riichi-discard").checked = !!p.riichi_discard;
    drawRows();
    const out = $("proposal-score");
    out.replaceChildren();
    if (p.error) out.append(J.el("p", { class: "error" }, p.error));
    if (p.score && p.score.valid) out.append(J.scoreBlock(p.score));
    $("confirm").disabled = !!p.error || !p.score;
  }

  // Each tile drawn under its field is a button, chosen (to be replaced from the picker) with a tap, Enter or Space;
  // a row is one Tab stop, the arrow keys, Home and End moving along it.
  function drawRows() {
    for (const row of document.querySelectorAll(".tile-row[data-for]")) {
      const input = $(row.dataset.for);
      const tiles = J.parseTiles(input.value) || [];
      const chosen = selected && selected.field === input.id ? selected.index : -1;
      row.replaceChildren(...tiles.map((code, i) => {
        const b = J.el("button", { type: "button", class: i === chosen ? "selected" : "", "data-index": String(i),
          "data-code": code, "aria-pressed": String(i === chosen), tabindex: i === Math.max(chosen, 0) ? "0" : "-1",
          "aria-label": tileLabel(input.id, tiles, i) });
        b.append(J.tileImg(code, true));  // the button says the tile: its picture is not said again
        return b;
      }));
    }
    drawTarget();
  }

  // What a screen reader says for a tile drawn under its field: the winning tile as part of the hand ("winning
  // tile red 5p"), the others with their place ("2m, tile 2 of 4 in Concealed").
  function tileLabel(field, tiles, i) {
    const name = J.tileName(tiles[i]);
    if (field === "p-win" && tiles.length === 1) return `winning tile ${name}`;
    return `${name}, tile ${i + 1} of ${tiles.length} in ${FIELD_NAMES[field]}`;
  }

  // Which field the picker writes into, said above it and shown on the field and its "Pick into:" button.
  function drawTarget() {
    const into = selected ? selected.field : activeField;
    for (const b of document.querySelectorAll("[data-target]")) b.setAttribute("aria-pressed", String(b.dataset.target === into));
    for (const input of document.querySelectorAll(".tile-input")) input.classList.toggle("picking", input.id === into);
    const code = selected && (J.parseTiles($(into).value) || [])[selected.index];
    const text = selected
      ? `Replacing ${code ? J.tileName(code) : "a tile"}, tile ${selected.index + 1} in ${FIELD_NAMES[into]}: pick the right tile, or ⌫ remove`
      : `Picking into: ${FIELD_NAMES[into]}`;
    if ($("picking-into").textContent !== text) $("picking-into").textContent = text;  // said once (aria-live)
  }

  // One listener per row (a picture that fails to load is swapped for a text tile inside the same button).
  function wireRows() {
    for (const row of document.querySelectorAll(".tile-row[data-for]")) {
      row.addEventListener("click", (ev) => {
        const tile = ev.target.closest("[data-index]");
        if (!tile) return;
        const field = row.dataset.for, i = Number(tile.dataset.index);
        selected = selected && selected.field === field && selected.index === i ? null : { field, index: i };
        activeField = field;
        drawRows();
        // Chosen from the keyboard: on to the picker (at the tile being replaced), past the fields between
        if (ev.detail === 0) (selected ? $("picker").querySelector(`[data-tile="${tile.dataset.code}"]`) : row.querySelector(`[data-index="${i}"]`)).focus();
      });
      row.addEventListener("keydown", (ev) => {
        const tiles = [...row.querySelectorAll("[data-index]")];
        const at = tiles.indexOf(document.activeElement);
        const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: tiles.length - 1 }[ev.key];
        if (at < 0 || to === undefined || !tiles[to]) return;
        ev.preventDefault();
        tiles[at].tabIndex = -1;
        tiles[to].tabIndex = 0;
        tiles[to].focus();
      });
    }
    for (const b of document.querySelectorAll("[data-target]")) {
      b.addEventListener("click", () => { activeField = b.dataset.target; selected = null; drawRows(); });
    }
  }

  function buildPicker() {
    const codes = [];
    for (const s of "mps") { for (let n = 1; n <= 9; n++) { codes.push(`${n}${s}`); if (n === 5) codes.push(`0${s}`); } }
    for (let n = 1; n <= 7; n++) codes.push(`${n}z`);
    const picker = $("picker");
    for (const code of codes) {
      const b = J.el("button", { type: "button", "data-tile": code, "aria-label": J.tileName(code) });
      b.append(J.tileImg(code, true));
      b.addEventListener("click", () => pick(code));
      picker.append(b);
    }
    const del = J.el("button", { type: "button", class: "delete-tile" }, "⌫ remove");
    del.addEventListener("click", () => pick(null));
    picker.append(del);
  }

  // Replace the selected tile with `code` (or remove it), else append to the active field.
  function pick(code) {
    const input = $(selected ? selected.field : activeField);
    const tiles = J.parseTiles(input.value) || [];
    if (selected) {
      if (code) tiles[selected.index] = code; else tiles.splice(selected.index, 1);
      selected = null;
    } else if (code) {
      tiles.push(code);
    } else {
      tiles.pop();
    }
    input.value = J.writeTiles(tiles);
    drawRows();
    $("confirm").disabled = false;  // confirming scores the hand again first
  }

  function proposalBody() {
    const flags = {};
    for (const box of document.querySelectorAll("[data-flag]")) flags[box.dataset.flag] = box.checked;
    const tsumo = kind("scan-kind") === "tsumo";
    return {
      concealed: $("p-concealed").value, win: $("p-win").value,
      melds: $("p-melds").value.split(/\s+/).filter(Boolean),
      dora_indicators: $("p-dora").value, ura_indicators: $("p-ura").value,
      winner: seatOf("scan-winner"), discarder: tsumo ? null : seatOf("scan-discarder"), tsumo, flags,
      riichi_discard: !tsumo && $("scan-riichi-discard").checked,
    };
  }

  function wire() {
    $("undo").addEventListener("click", () => act("POST", "/api/undo", {}, "undone"));
    $("redo").addEventListener("click", () => act("POST", "/api/redo", {}, "redone"));
    for (const b of document.querySelectorAll("[data-riichi]")) {
      b.addEventListener("click", () => act("POST", "/api/riichi", { seat: Number(b.dataset.riichi) }, "riichi declared"));
    }
    for (const id of DISCARDERS) {
      const sel = $(id);
      $(sel.dataset.winner).addEventListener("change", () => { guardDiscarder(id); seatsOk(id); });
      sel.addEventListener("change", () => {  // choosing who dealt in means it is a ron
        document.querySelector(`input[name="${sel.dataset.kind}"][value="ron"]`).checked = true;
        seatsOk(id);
      });
      for (const radio of document.querySelectorAll(`input[name="${sel.dataset.kind}"]`)) {
        radio.addEventListener("change", () => seatsOk(id));
      }
      $(id.replace("discarder", "riichi-discard")).addEventListener("change", (e) => {  // only a ron is on a discard
        if (e.target.checked) document.querySelector(`input[name="${sel.dataset.kind}"][value="ron"]`).checked = true;
      });
    }
    $("q-winner2").addEventListener("change", () => seatsOk("q-discarder"));
    $("scan").addEventListener("click", async () => {
      if (!seatsOk("scan-discarder")) return;
      const tsumo = kind("scan-kind") === "tsumo";
      const body = { winner: seatOf("scan-winner"), tsumo, discarder: tsumo ? null : seatOf("scan-discarder"),
        riichi_discard: !tsumo && $("scan-riichi-discard").checked };
      if (!$("replay-label").hidden) body.photo = $("scan-photo").value;
      $("scan").disabled = true;
      J.say("reading the table…", true);
      await act("POST", "/api/scan", body, "hand read: check it, then confirm");
      $("scan").disabled = false;
    });
    $("type-hand").addEventListener("click", () => seatsOk("scan-discarder") && act("PUT", "/api/proposal", proposalBody(), "type the tiles, then score"));
    $("rescore").addEventListener("click", async () => {
      if (!seatsOk("scan-discarder")) return;
      const r = await act("PUT", "/api/proposal", proposalBody(), "scored");
      if (r && r.proposal && r.proposal.error) J.say(r.proposal.error, false);  // scored, but not a win
    });
    $("confirm").addEventListener("click", async () => {
      if (!seatsOk("scan-discarder")) return;
      const ok = await act("PUT", "/api/proposal", proposalBody(), "scored");
      if (ok && ok.proposal && !ok.proposal.error) await act("POST", "/api/proposal/confirm", {}, "hand recorded");
    });
    $("discard").addEventListener("click", () => act("DELETE", "/api/proposal", undefined, "proposal discarded"));
    for (const input of document.querySelectorAll(".tile-input")) {
      input.addEventListener("focus", () => { activeField = input.id; selected = null; drawRows(); });
      input.addEventListener("input", drawRows);
    }
    // A fixed tile or flag may make the hand win: confirming scores it again first.
    $("proposal").addEventListener("input", () => { $("confirm").disabled = false; });
    // Empty fields are left out, so the server says what is missing (fu only below 5 han).
    const entry = (suffix, seat) => {
      const out = { seat };
      for (const key of ["yakuman", "han", "fu"]) {
        const text = $(`q-${key}${suffix}`).value.trim();
        if (text !== "") out[key] = Number(text);
      }
      if (out.yakuman) return { seat, yakuman: out.yakuman };
      delete out.yakuman;
      return out;
    };
    $("q-record").addEventListener("click", () => {
      if (!seatsOk("q-discarder")) return;
      const first = entry("", seatOf("q-winner"));
      if (kind("q-kind") === "tsumo") { act("POST", "/api/tsumo", first, "tsumo recorded"); return; }
      const winners = [first];
      if ($("q-winner2").value !== "") winners.push(entry("2", Number($("q-winner2").value)));
      act("POST", "/api/ron", { discarder: seatOf("q-discarder"), winners, riichi_discard: $("q-riichi-discard").checked },
        "ron recorded").then((ok) => {
        if (!ok) return;  // a second winner left set would turn the next ron on this phone into a double ron
        $("q-riichi-discard").checked = false;
        $("q-winner2").value = "";
      });
    });
    $("draw").addEventListener("click", () => {
      const tenpai = [...document.querySelectorAll("[data-tenpai]:checked")].map((b) => Number(b.dataset.tenpai));
      const nagashi = [...document.querySelectorAll("[data-nagashi]:checked")].map((b) => Number(b.dataset.nagashi));
      const dead = [...document.querySelectorAll("[data-dead]:checked")].map((b) => Number(b.dataset.dead));
      act("POST", "/api/draw", { tenpai, nagashi, dead }, "draw recorded").then((ok) => {
        if (ok) for (const b of document.querySelectorAll("[data-tenpai],[data-nagashi],[data-dead]")) b.checked = false;
      });
    });
    $("abortive").addEventListener("click", () => act("POST", "/api/abortive", { reason: $("abortive-reason").value }, "abortive draw recorded"));
    $("chombo").addEventListener("click", () => act("POST", "/api/chombo", { seat: seatOf("chombo-seat") }, "chombo recorded"));
    $("pao").addEventListener("click", () => act("POST", "/api/pao", { winner: seatOf("pao-winner"), liable: seatOf("pao-liable") }, "pao recorded"));
    $("adjust").addEventListener("click", () => {
      const amounts = [...document.querySelectorAll("[data-adjust]")].map((i) => Number(i.value));
      act("POST", "/api/adjust", { amounts, reason: $("adjust-reason").value }, "adjustment recorded").then((ok) => {
        if (!ok) return;  // cleared, so that a second tap does not pay it twice
        for (const i of document.querySelectorAll("[data-adjust]")) i.value = "0";
        $("adjust-reason").value = "";
      });
    });
    $("penalty").addEventListener("click", () => {
      const body = { seat: seatOf("penalty-seat"), points: Number($("penalty-points").value), reason: $("penalty-reason").value };
      act("POST", "/api/penalty", body, "penalty recorded").then((ok) => { if (ok) $("penalty-reason").value = ""; });
    });
    $("end").addEventListener("click", () => { if (confirm("End the game now?")) act("POST", "/api/end", { reason: "time called" }, "game ended"); });
    $("new-game").addEventListener("click", () => {
      const g = state && state.game;  // a game in play stays in the log, but the page and panel move to the new one
      if (g && !g.over && !confirm(`Leave the game in play (${g.round}) and start a new one?`)) return;
      const players = [...document.querySelectorAll("input.player")].map((i) => i.value);
      act("POST", "/api/game", { players, preset: $("preset").value }, "new game started");
    });
  }

  async function refresh() {
    try { draw(await J.api("GET", "/api/keeper/state")); } catch (e) { J.say(e.message, false); }
  }

  buildPicker();
  wireRows();
  drawTarget();
  wire();
  refresh();
  // Follow changes made elsewhere (the panel, another keeper) without a reload, as the scoreboard does; the keeper
  // state is fetched again when the table's version is not the one drawn.
  J.follow((s) => { if (!state || s.version !== state.version) refresh(); }, () => {});
})();
