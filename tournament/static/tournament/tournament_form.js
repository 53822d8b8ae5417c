// The tournament form: the short name follows the name while it is typed (until the director
// edits it; never for a saved tournament, whose address is printed), and the parameters of a
// custom profile show only when "custom" is chosen and follow the profile they start from.
(function () {
  "use strict";
  var form = document.getElementById("tournament-form");
  if (!form) return;

  var FOLD = { "ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue" };
  var MAX = 56; // the field's 60 characters, with room for "-2" when the name is taken

  // The same rule as slug_from_name in tournament/forms/tournaments.py.
  function slugFrom(name) {
    var text = name.replace(/[äöüßÄÖÜ]/g, function (ch) { return FOLD[ch]; });
    text = text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
    var slug = text.replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
    if (slug.length > MAX) {
      slug = slug.slice(0, MAX);
      if (slug.indexOf("-") > 0) slug = slug.slice(0, slug.lastIndexOf("-"));
    }
    return slug;
  }

  var slug = form.querySelector("[data-slug-from]");
  var name = slug && document.getElementById(slug.getAttribute("data-slug-from"));
  if (slug && name && !slug.hasAttribute("data-slug-fixed")) {
    var automatic = slug.value === "" || slug.value === slugFrom(name.value);
    name.addEventListener("input", function () {
      if (automatic) slug.value = slugFrom(name.value);
    });
    slug.addEventListener("input", function () {
      automatic = slug.value === "";
    });
  }

  var profile = form.querySelector("[data-custom-value]");
  var custom = document.getElementById("custom-profile");
  if (profile && custom) {
    var showCustom = function () {
      custom.hidden = profile.value !== profile.getAttribute("data-custom-value");
    };
    profile.addEventListener("change", showCustom);
    showCustom();
  }

  // What the chosen profile (a custom one: its base) takes from elsewhere than its rule text.
  var base = form.querySelector("[name=custom_base]");
  var notes = form.querySelectorAll("[data-notes-for]");
  if (profile && notes.length) {
    var showNotes = function () {
      var key = profile.value;
      if (key === profile.getAttribute("data-custom-value")) key = base ? base.value : "";
      Array.prototype.forEach.call(notes, function (el) {
        el.hidden = el.getAttribute("data-notes-for") !== (key || "ddv");
      });
    };
    profile.addEventListener("change", showNotes);
    if (base) base.addEventListener("change", showNotes);
    showNotes();
  }

  var valuesScript = document.getElementById("profile-values");
  var shown = form.querySelector("[name=shown_base]");
  if (!valuesScript || !base || !shown) return;
  var values = JSON.parse(valuesScript.textContent);

  function fieldValue(name) {
    var inputs = form.querySelectorAll("[name=" + name + "]");
    if (inputs.length === 0) return undefined;
    var first = inputs[0];
    if (first.type === "checkbox" && inputs.length > 1) {
      return Array.prototype.filter.call(inputs, function (i) { return i.checked; })
        .map(function (i) { return i.value; }).join(",");
    }
    if (first.type === "checkbox") return first.checked ? "true" : "false";
    return String(first.value);
  }

  function asText(value) {
    if (Array.isArray(value)) return value.join(",");
    return String(value);
  }

  function setField(name, value) {
    var inputs = form.querySelectorAll("[name=" + name + "]");
    if (inputs.length > 1) {
      Array.prototype.forEach.call(inputs, function (i) { i.checked = value.indexOf(i.value) >= 0; });
    } else if (inputs.length === 1 && inputs[0].type === "checkbox") {
      inputs[0].checked = value === true;
    } else if (inputs.length === 1) {
      inputs[0].value = value;
    }
  }

  // A new base: every field that still shows the old base's value takes the new one; what
  // the director changed stays.
  base.addEventListener("change", function () {
    var before = values[shown.value];
    var after = values[base.value];
    if (!after) return;
    Object.keys(after).forEach(function (name) {
      if (!before || fieldValue(name) === asText(before[name])) setField(name, after[name]);
    });
    shown.value = base.value;
  });
})();
