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

  function tick() {
    document.querySelectorAll(".clock[data-seconds-left]").forEach(function (clock) {
      var left = parseInt(clock.dataset.secondsLeft, 10) - 1;
      if (isNaN(left) || left < 0) return;
      clock.dataset.secondsLeft = String(left);
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

  document.addEventListener("DOMContentLoaded", syncAll);
  document.addEventListener("htmx:afterSwap", syncAll);
  syncAll();
  setInterval(tick, 1000);
})();
