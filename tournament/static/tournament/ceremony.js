/* The prize ceremony on the projector: one slide at a time, moved on by the director's keys,
   a remote clicker (it sends PageDown/PageUp) or a click. Every slide comes from the data in
   the page, so nothing is fetched after loading and the ceremony goes on without a network.
   The slide shown stands in the address (#7), so a reload keeps the place. */
(function () {
  "use strict";

  var data = JSON.parse(document.getElementById("ceremony-data").textContent);
  var slides = data.slides;
  var words = data.words;
  var stage = document.getElementById("stage");
  var bar = document.getElementById("progress-bar");
  var counter = document.getElementById("progress-text");
  var keys = document.getElementById("keys");
  var corner = document.getElementById("provisional");
  var index = 0;

  var FORWARD = ["ArrowRight", "ArrowDown", "PageDown", " ", "Spacebar", "Enter"];
  var BACK = ["ArrowLeft", "ArrowUp", "PageUp", "Backspace"];

  function say(key, values) {
    return (words[key] || key).replace(/\{(\w+)\}/g, function (all, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }

  function node(tag, className, text) {
    var element = document.createElement(tag);
    if (className) element.className = className;
    if (text !== undefined && text !== null && text !== "") element.textContent = text;
    return element;
  }

  function stat(label, value, className) {
    var box = node("div", "stat " + className);
    box.appendChild(node("p", "stat-label", label));
    box.appendChild(node("p", "stat-value fit", value));
    return box;
  }

  // --- the slides -------------------------------------------------------------------------

  function titleSlide(section) {
    section.appendChild(node("p", "kicker", say("ceremony")));
    section.appendChild(node("h1", "big fit", data.tournament));
    section.appendChild(node("p", "sub", data.date));
    if (data.provisional) section.appendChild(node("p", "badge", say("provisional")));
  }

  function categorySlide(section, slide) {
    section.appendChild(node("p", "kicker", say("ceremony")));
    section.appendChild(node("h1", "big fit", slide.category));
    section.appendChild(node("p", "sub", slide.count));
  }

  function awardSlide(section, slide) {
    section.appendChild(node("p", "kicker", slide.category));
    var place = node("p", "place", say("place", { n: slide.place }));
    if (slide.shared) place.appendChild(node("span", "shared", say("shared")));
    section.appendChild(place);
    section.appendChild(node("h1", "name fit", slide.name));
    if (slide.club) section.appendChild(node("p", "club", slide.club));
    var stats = node("div", "stats");
    stats.appendChild(stat(slide.score_label, String(slide.score), "score"));
    if (slide.prize) stats.appendChild(stat(say("prize"), slide.prize, "prize"));
    section.appendChild(stats);
  }

  function endSlide(section, slide) {
    if (slide.empty) {
      section.appendChild(node("p", "kicker", say("ceremony")));
      section.appendChild(node("h1", "big fit", say("empty")));
      return;
    }
    section.appendChild(node("h1", "big fit", say("end")));
    section.appendChild(node("p", "sub", say("thanks")));
    section.appendChild(node("p", "kicker tail", data.tournament));
  }

  var RENDER = { title: titleSlide, category: categorySlide, award: awardSlide, end: endSlide };

  // A long name, title or prize shrinks until it fits its width in at most two lines.
  function fit(element) {
    var size = parseFloat(getComputedStyle(element).fontSize);
    var line = size * 1.15;
    var smallest = size * 0.35;
    while (size > smallest &&
           (element.scrollWidth > element.clientWidth + 1 || element.offsetHeight > line * 2.2)) {
      size *= 0.92;
      line = size * 1.15;
      element.style.fontSize = size + "px";
    }
  }

  function show(next) {
    index = Math.max(0, Math.min(slides.length - 1, next));
    var slide = slides[index];
    var section = node("section", "slide " + slide.kind + "-slide");
    section.dataset.kind = slide.kind;
    RENDER[slide.kind](section, slide);
    stage.replaceChildren(section);
    section.querySelectorAll(".fit").forEach(fit);
    var done = slides.length > 1 ? index / (slides.length - 1) : 1;
    bar.style.width = (done * 100).toFixed(2) + "%";
    counter.textContent = say("progress", { n: index + 1, total: slides.length });
    keys.hidden = index !== 0;
    // Provisional: the title says so in large; every other slide in a corner.
    corner.hidden = !data.provisional || index === 0;
    var hash = "#" + (index + 1);
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function fromHash() {
    var number = parseInt(location.hash.slice(1), 10);
    return isNaN(number) ? 0 : number - 1;
  }

  function fullScreen() {
    if (document.fullscreenElement) {
      document.exitFullscreen().catch(function () {});
    } else if (document.documentElement.requestFullscreen) {
      document.documentElement.requestFullscreen().catch(function () {});
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    if (FORWARD.indexOf(event.key) >= 0) show(index + 1);
    else if (BACK.indexOf(event.key) >= 0) show(index - 1);
    else if (event.key === "Home") show(0);
    else if (event.key === "End") show(slides.length - 1);
    else if (event.key === "f" || event.key === "F") fullScreen();
    else return;
    event.preventDefault();
  });

  document.addEventListener("click", function (event) {
    if (event.button === 0) show(index + 1);
  });

  window.addEventListener("hashchange", function () {
    if (fromHash() !== index) show(fromHash());
  });

  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { show(index); }, 150);
  });

  show(fromHash());

  // For the browser tests: where the ceremony stands.
  window.kreuzdameCeremony = {
    state: function () {
      return { index: index, length: slides.length, kind: slides[index].kind };
    }
  };
})();
