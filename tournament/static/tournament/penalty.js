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
  }
  form.addEventListener("change", update);
  update();
})();
