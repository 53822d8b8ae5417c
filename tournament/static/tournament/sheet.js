// Spielliste entry: show the fields the chosen kind and mode need, run the round clock,
// and let Enter move through the desk grid like Tab (Ctrl+Enter saves).
(function () {
  "use strict";

  function syncForm(form) {
    var kind = form.querySelector("input[name=kind]:checked");
    var mode = form.querySelector("input[name=mode]:checked");
    form.dataset.kind = kind && kind.value !== "normal" ? "solo" : "normal";
    form.dataset.mode = mode ? mode.value : "derive";
  }

  function syncAll() {
    document.querySelectorAll("#game-form").forEach(syncForm);
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("#game-form");
    if (form) syncForm(form);
  });

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  // The clock counts from the moment the server sent it, by the monotonic clock: a phone
  // that slept or throttled its timers still shows the right time left.
  function tick() {
    document.querySelectorAll(".clock[data-seconds-left]").forEach(function (clock) {
      if (!clock.dataset.shownAt) clock.dataset.shownAt = String(performance.now());
      var elapsed = (performance.now() - parseFloat(clock.dataset.shownAt)) / 1000;
      var left = Math.floor(parseInt(clock.dataset.secondsLeft, 10) - elapsed);
      if (isNaN(left) || left < 0) left = 0;
      var out = clock.querySelector(".left");
      if (!out) return;
      var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
      out.textContent = h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
    });
  }

  document.addEventListener("keydown", function (event) {
    var grid = event.target.closest && event.target.closest("#desk-grid");
    if (!grid || event.key !== "Enter" || event.target.tagName !== "INPUT") return;
    event.preventDefault();
    if (event.ctrlKey || event.metaKey) {
      grid.requestSubmit();
      return;
    }
    var inputs = Array.prototype.slice.call(grid.querySelectorAll("input:not([type=hidden])"));
    var next = inputs[inputs.indexOf(event.target) + 1];
    if (next) next.focus();
  });

  // After a save the answer (an error, a conflict, a refusal) may be far above the button
  // the thumb just pressed: bring it into view.
  function showAnswer(event) {
    if (!event.detail || !event.detail.target || event.detail.target.id !== "sheet") return;
    var answer = document.querySelector("#sheet [role=alert], #sheet #notice");
    if (answer) answer.scrollIntoView({ block: "center" });
  }

  // Forms with data-confirm ask before they are sent (closing a round, confirming a sheet).
  document.addEventListener("submit", function (event) {
    var question = event.target.dataset && event.target.dataset.confirm;
    if (question && !window.confirm(question)) event.preventDefault();
  });

  // The Spielwert-Rechner on the keeper page: "use this row" puts kind, soloist and numbers
  // into the game form (typed directly) and closes the calculator; the keeper checks and
  // saves. Without a game form on the page the button opens the keeper page with the row.
  function check(form, name, value) {
    var input = form.querySelector('input[name="' + name + '"][value="' + value + '"]');
    if (input) input.checked = true;
    return input;
  }

  function takeRow(take) {
    var form = document.getElementById("game-form");
    if (!form) return false;
    var current = form.querySelector("input[name=kind]:checked");
    var kind = take.dataset.kind;
    // A solo kind the keeper already chose (e.g. Hochzeit) is kept for a solo row.
    if (!(kind !== "normal" && current && current.value !== "normal")) check(form, "kind", kind);
    check(form, "mode", "direct");
    form.querySelectorAll("input[name=soloist]").forEach(function (r) { r.checked = false; });
    if (take.dataset.soloist) check(form, "soloist", take.dataset.soloist);
    take.dataset.points.split(" ").forEach(function (value, index) {
      var input = form.querySelector('input[name="p' + (index + 1) + '"]');
      if (input) input.value = value;
    });
    var facts = form.querySelector("input[name=facts]");
    if (facts) facts.value = take.dataset.facts || "";
    var details = form.closest("details");
    if (details) details.open = true;
    closeCalculator();
    // As if typed: the outbox marks the form as being filled in.
    form.dispatchEvent(new Event("change", { bubbles: true }));
    syncForm(form);
    form.scrollIntoView({ block: "start" });
    var save = document.getElementById("save-game");
    if (save) save.focus({ preventScroll: true });
    return true;
  }

  function closeCalculator() {
    var panel = document.getElementById("calculator-panel");
    if (panel) panel.replaceChildren();
  }

  document.addEventListener("submit", function (event) {
    if (event.target.id !== "calculator-take") return;
    if (takeRow(event.target)) event.preventDefault();
  });

  // The game's facts came with the calculator's row; whatever the keeper taps or types in the
  // row afterwards (the next game too: the outbox keeps hidden fields) makes it theirs, and
  // the facts go. The solo's kind may still change (the server keeps facts that fit).
  function dropFacts(event) {
    var form = event.target.closest && event.target.closest("#game-form");
    var name = event.target.name;
    if (!form || !event.isTrusted || name === "kind" || name === "reason") return;
    var facts = form.querySelector("input[name=facts]");
    if (facts) facts.value = "";
  }
  document.addEventListener("input", dropFacts);
  document.addEventListener("change", dropFacts);

  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("[data-close-calculator]")) return;
    closeCalculator();
    var link = document.getElementById("calculator-link");
    if (link) link.scrollIntoView({ block: "center" });
  });

  document.addEventListener("DOMContentLoaded", syncAll);
  document.addEventListener("htmx:afterSwap", syncAll);
  document.addEventListener("htmx:afterSwap", showAnswer);
  // The keeper page's outbox (outbox.js) swaps the sheet itself, outside htmx's requests.
  document.addEventListener("outbox:swapped", syncAll);
  syncAll();
  setInterval(tick, 1000);
})();
