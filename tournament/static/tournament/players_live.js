// The players page refreshes its table, counts and lists by itself when something changed
// (htmx, see _players_live.html). The new table must not undo what the director was doing:
// open panels (a player's code, "all present") stay open, and the table keeps its scroll
// position (sideways on a phone, down in a long list).
(function () {
  "use strict";
  var kept = null;

  function scroller() {
    return document.querySelector(".entries-scroll");
  }

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "players-live") {
      return;
    }
    var box = scroller();
    kept = {
      open: Array.prototype.map.call(
        document.querySelectorAll("details[open][id]"),
        function (details) { return details.id; }
      ),
      left: box ? box.scrollLeft : 0,
      top: box ? box.scrollTop : 0,
      page: window.scrollY
    };
  });

  document.body.addEventListener("htmx:afterSettle", function () {
    if (!kept) {
      return;
    }
    kept.open.forEach(function (id) {
      var details = document.getElementById(id);
      if (details) {
        details.open = true;
      }
    });
    var box = scroller();
    if (box) {
      box.scrollLeft = kept.left;
      box.scrollTop = kept.top;
    }
    window.scrollTo(window.scrollX, kept.page);
    kept = null;
  });
})();
