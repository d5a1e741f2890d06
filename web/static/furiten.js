// Furiten check: a seat's waiting hand against its own discards (typed, or read by the camera).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  J.api("GET", "/api/keeper/state").then((s) => {
    J.fillSeatSelects(s);
    // the replay camera (no camera on this machine): pick the photo the camera reads
    $("f-replay-label").hidden = !(s.replay_photos && s.replay_photos.length);
    for (const p of s.replay_photos || []) $("f-photo").append(J.el("option", { value: p }, p));
    if (s.next_photo) $("f-photo").value = s.next_photo;
  }).catch((e) => J.say(e.message, false));
  $("f-check").addEventListener("click", async () => {
    const body = {
      seat: Number($("f-seat").value), hand: $("f-hand").value,
      discards: $("f-discards").value, read_pond: $("f-read").checked,
    };
    const melds = $("f-melds").value.split(/\s+/).filter(Boolean);
    if (melds.length) body.melds = melds;  // none typed: a hand read from the photo keeps the photo's melds
    if (!$("f-replay-label").hidden) body.photo = $("f-photo").value;
    const out = $("f-result");
    out.replaceChildren();
    try {
      const r = (await J.api("POST", "/api/furiten", body)).furiten;
      out.append(J.el("p", { class: r.furiten ? "error" : "" }, r.furiten ? "FURITEN" : "Not furiten"));
      out.append(J.el("p", {}, r.reason));
      out.append(J.el("p", { class: "caveat" }, `${r.caveat[0].toUpperCase()}${r.caveat.slice(1)}.`));
      if (r.pond) out.append(J.el("p", {}, `Discards ${r.pond}.`));  // which pond the camera's photo gave
      if ((r.waits || []).length) {  // none when the hand is not tenpai: the reason says so
        const waits = J.el("div", { class: "tile-row" }, "Waits: ");
        for (const t of r.waits) waits.append(J.tileImg(t));
        out.append(waits);
      }
      if (r.hand_read) out.append(J.el("p", {}, `The ${r.hand_read}.`));
      for (const note of r.red_fives || []) out.append(J.el("p", { class: "warnings" }, note));
      // the fields show what was checked: a hand, melds or pond read from the photo are there to see and fix
      $("f-hand").value = r.hand || "";
      $("f-melds").value = (r.melds || []).join(" ");
      if (r.discards) $("f-discards").value = r.discards;
      J.say("checked", true);
    } catch (e) { out.append(J.el("p", { class: "error" }, e.message)); J.say(e.message, false); }
  });
})();
