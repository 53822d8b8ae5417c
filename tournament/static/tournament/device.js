// A tablet paired with a table (tournament/views/devices.py) follows its table from round to
// round: this asks the server every few seconds where the table plays now and goes there.
// Plain fetch and localStorage only: the hall serves plain http, not a secure context.
(function () {
  "use strict";

  var node = document.getElementById("device-follow");
  if (!node || !window.fetch || !window.AbortController) return;
  var EVERY = 8000;
  var TIMEOUT = 8000;
  var here = window.location.pathname;
  // The page shows no running round (a closed round or the waiting screen).
  var waiting = node.dataset.waiting === "1";

  // Games of this table link still on the tablet (outbox.js): they were not saved, and
  // moving on would hide them, so the keeper goes on by a tap instead.
  function held() {
    if (!node.dataset.key) return 0;
    try {
      return (JSON.parse(window.localStorage.getItem(node.dataset.key)) || []).length;
    } catch {
      return 0;
    }
  }

  function offerNext(url) {
    if (node.querySelector("a.button")) return;
    var p = document.createElement("p");
    p.textContent = node.dataset.textNext;
    var link = document.createElement("a");
    link.className = "button primary";
    link.href = url;
    link.textContent = node.dataset.textGo;
    node.replaceChildren(p, link);
    node.hidden = false;
  }

  function go(state) {
    if (state.state !== "paired") {
      window.location.reload(); // revoked: the page says so
    } else if (state.url && state.url !== here) {
      if (held()) offerNext(state.url);
      else window.location.assign(state.url);
    } else if (!state.url && !waiting) {
      window.location.reload(); // the round was closed: its final sheet, and waiting
    }
  }

  var next = null;

  function schedule(ms) {
    clearTimeout(next);
    next = setTimeout(check, ms);
  }

  function check() {
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, TIMEOUT);
    fetch(node.dataset.stateUrl, { credentials: "same-origin", cache: "no-store",
      signal: controller.signal })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) { if (state) go(state); }, function () { /* offline: later */ })
      .finally(function () {
        clearTimeout(timer);
        schedule(EVERY);
      });
  }

  schedule(EVERY);
  // Back from sleep or from a lost connection: ask at once.
  window.addEventListener("online", function () { schedule(0); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") schedule(0);
  });
})();
