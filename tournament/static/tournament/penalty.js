// The penalty form shows only the facts the chosen category depends on.
(function () {
  "use strict";
  var form = document.getElementById("penalty-form");
  if (!form) return;
  var situational = ["geringfuegig", "schwerwiegend", "entschieden"];
  var light = ["geringfuegig", "entschieden"];
  function checked(name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : "";
  }
  function show(selector, on) {
    form.querySelectorAll(selector).forEach(function (el) { el.hidden = !on; });
  }
  function update() {
    var category = checked("category");
    var context = checked("context");
    var solo = context === "solo" || context === "hochzeit-nach";
    show(".for-situational", situational.indexOf(category) >= 0);
    show(".for-light", light.indexOf(category) >= 0 && solo);
    show(".for-heavy", category === "schwerwiegend");
    show(".for-deduction", category === "punktabzug");
    if (situational.indexOf(category) >= 0 && !solo) show(".for-solo", false);
    // Where the profile's points for a category do not come from its own rule text.
    form.querySelectorAll("[data-categories]").forEach(function (el) {
      el.hidden = el.getAttribute("data-categories").split(" ").indexOf(category) < 0;
    });
  }
  form.addEventListener("change", update);
  update();
})();
