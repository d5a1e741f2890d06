// The panel page: shows the LEDs, and under mock pins lets the keeper press the panel's buttons.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  function draw(p) {
    $("panel-kind").textContent = p.mock ? "Mock pins: these buttons drive the panel's mock GPIO pins." : `Real pins (${p.factory}): press the buttons on the table.`;
    for (const led of document.querySelectorAll("[data-led]")) {
      const v = p.leds[led.dataset.led];
      led.classList.toggle("on", !!v);
      led.title = `${led.dataset.led}: ${v ? "on" : "off"}`;
      // its state in words, not by colour alone: "dealer LED (Ann): on", "status LED: blinking fast"
      const [, what, seat] = led.dataset.led.match(/^(\D+)(\d?)$/);
      const whose = seat ? ` (${document.querySelector(`.seat-name[data-seat="${seat}"]`).textContent})` : "";
      const mode = (p.led_modes || {})[led.dataset.led];
      const state = { blink: "blinking", fast: "blinking fast" }[mode] || (v ? "on" : "off");
      led.setAttribute("aria-label", `${what} LED${whose}: ${state}`);
    }
    $("panel-mode").textContent = p.mode_text || "";
    if (p.error) J.say(`The last press: ${p.error}`, false);  // the status LED blinks fast meanwhile
    for (const b of document.querySelectorAll("[data-button]")) b.disabled = !p.mock;
  }
  let timer = null;
  async function refresh() {
    try { draw(await J.api("GET", "/api/panel")); } catch (e) {
      if (e.status === 404) {  // no panel in this process (serve --no-panel, or its pins would not start)
        clearInterval(timer);
        for (const b of document.querySelectorAll("[data-button]")) b.disabled = true;
        $("panel-kind").textContent = "No panel is running: jantaku serve was started without one, or its pins could not start (see the log).";
      }
      J.say(e.message, false);
    }
  }
  for (const b of document.querySelectorAll("[data-button]")) {
    b.addEventListener("click", async () => {
      try {
        const name = b.dataset.button === "undo" ? null : b.dataset.button;
        const r = await J.api("POST", "/api/panel/press", name ? { button: name } : { button: "undo", hold: true });
        draw(r.panel);
        J.say(`pressed ${b.dataset.button}`, true);
      } catch (e) { J.say(e.message, false); }
    });
  }
  J.api("GET", "/api/keeper/state").then((s) => J.fillSeatSelects(s)).catch(() => {});
  timer = setInterval(refresh, 500);
  refresh();
})();
