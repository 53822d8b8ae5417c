/* The projector view: shows the clock, the seating, the tables and the standings in turn,
   fetches fresh data every few seconds without reloading, and pages long lists so that
   every page fits the screen it is shown on. No library and no address outside this site. */
(function () {
  "use strict";

  var body = document.body;
  var PAGE_MS = Math.max(2, parseInt(body.dataset.seconds, 10) || 12) * 1000;
  var POLL_MS = Math.max(5, parseInt(body.dataset.pollSeconds, 10) || 15) * 1000;
  // Lists that fit on one page are shown larger, up to this factor.
  var SCALES = [1.9, 1.6, 1.3, 1, 0.9, 0.8];

  var words = {};
  document.querySelectorAll("#words [data-word]").forEach(function (node) {
    words[node.dataset.word] = node.textContent.trim();
  });

  function say(key, values) {
    return (words[key] || key).replace(/\{(\w+)\}/g, function (all, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : all;
    });
  }

  function node(tag, className, text) {
    var element = document.createElement(tag);
    if (className) element.className = className;
    if (text !== undefined) element.textContent = text;
    return element;
  }

  var data = JSON.parse(document.getElementById("projector-data").textContent);
  var receivedAt = performance.now();

  // --- one row per list item ------------------------------------------------------------

  function seatingRow(seat) {
    var row = node("li", "row");
    var name = node("span", "name");
    name.appendChild(node("span", "last", seat.last));
    if (seat.first) name.appendChild(document.createTextNode(", " + seat.first));
    row.appendChild(name);
    row.appendChild(node("span", "where", say("table", { n: seat.table })));
    return row;
  }

  function tableRow(table) {
    var row = node("li", "row " + table.state);
    row.appendChild(node("span", "num", String(table.number)));
    if (table.extra_minutes) row.appendChild(node("span", "extra", say("extra", { n: table.extra_minutes })));
    var state = "–";
    if (table.state === "done") state = "✓ " + say("done");
    else if (table.state === "playing") state = table.games + "/" + table.nominal;
    row.appendChild(node("span", "state", state));
    return row;
  }

  function standingRow(line) {
    var row = node("li", "row" + (line.note ? " " + line.note : ""));
    row.appendChild(node("span", "rank", line.rank ? line.rank + "." : "–"));
    var name = node("span", "name", line.name);
    if (line.note) name.appendChild(node("span", "note", " " + say(line.note)));
    row.appendChild(name);
    row.appendChild(node("span", "total", String(line.total)));
    return row;
  }

  // column: the narrowest column in em of the list's own type size; widest: the widest
  // column the longest row may ask for;
  // smallest: the type may shrink this far to bring the list onto one page (the tables: a
  // glance, not a search)
  var LISTS = {
    seating: {
      items: function () { return data.seating; }, row: seatingRow, column: 10, widest: 24
    },
    tables: {
      items: function () { return data.tables; }, row: tableRow, column: 6.5, widest: 12,
      smallest: 0.8
    },
    standings: {
      items: function () { return data.standings.lines; }, row: standingRow, column: 10,
      widest: 24
    }
  };
  // A name wider than its column is set smaller down to this share of the row's type before
  // it is cut with an ellipsis.
  var NAME_SHRINK = 0.75;
  var ORDER = ["clock", "seating", "tables", "standings", "day"];
  var views = {};
  document.querySelectorAll("#stage .view").forEach(function (view) {
    views[view.dataset.view] = view;
  });

  // --- pagination: measured on the real screen ------------------------------------------

  var layouts = {}; // list name -> {pages, cols, rowHeight, scale}

  function showOnly(name) {
    Object.keys(views).forEach(function (key) { views[key].hidden = key !== name; });
  }

  function measure(name, scale) {
    var spec = LISTS[name];
    var grid = views[name].querySelector(".grid");
    grid.style.fontSize = scale + "em";
    grid.style.gridTemplateColumns = "";
    grid.style.gridTemplateRows = "";
    grid.replaceChildren(spec.row(spec.items()[0]));
    var rowHeight = Math.ceil(grid.firstChild.getBoundingClientRect().height);
    var box = grid.getBoundingClientRect();
    var style = getComputedStyle(grid);
    var em = parseFloat(style.fontSize);
    var gap = parseFloat(style.columnGap) || 0;
    // Columns as wide as the widest row needs with its name set smaller (within
    // column..widest em), as many as fit; whole: every row fits the column it gets.
    var need = widestRow(grid, spec, NAME_SHRINK);
    var column = Math.min(Math.max(need / em, spec.column), spec.widest, box.width / em);
    var cols = Math.max(1, Math.floor((box.width + gap) / (column * em + gap)));
    var rows = Math.max(1, Math.floor(box.height / rowHeight));
    var whole = need <= (box.width + gap) / cols - gap;
    return { scale: scale, rowHeight: rowHeight, cols: cols, rows: rows, whole: whole };
  }

  // The width in px of the list's widest row on one line at the grid's type size, its name
  // set at ``share`` of it.
  function widestRow(grid, spec, share) {
    var probe = node("ol", grid.className);
    probe.style.cssText = "position:absolute;visibility:hidden;display:block;width:max-content;";
    probe.style.fontSize = grid.style.fontSize;
    probe.replaceChildren.apply(probe, spec.items().map(spec.row));
    probe.querySelectorAll(".name").forEach(function (name) { name.style.fontSize = share + "em"; });
    grid.parentNode.appendChild(probe);
    var width = probe.getBoundingClientRect().width;
    probe.remove();
    return Math.ceil(width) + 1;
  }

  // A name that does not fit its column is set smaller (down to NAME_SHRINK) before the
  // ellipsis cuts it.
  function fitNames(grid) {
    grid.querySelectorAll(".name").forEach(function (name) {
      if (name.scrollWidth <= name.clientWidth) return;
      var share = Math.max(NAME_SHRINK, Math.floor((name.clientWidth / name.scrollWidth) * 100) / 100);
      name.style.fontSize = share + "em";
      while (name.scrollWidth > name.clientWidth && share > NAME_SHRINK) {
        share = Math.max(NAME_SHRINK, share - 0.03);
        name.style.fontSize = share + "em";
      }
    });
  }

  function layoutList(name) {
    var items = LISTS[name].items();
    if (!items.length) return null;
    showOnly(name);
    if (name === "tables") summarise();
    if (name === "standings") noteHidden();
    var smallest = LISTS[name].smallest || 1;
    var fit = null;
    SCALES.forEach(function (scale) {
      if (scale < smallest || (fit && fit.whole && fit.cols * fit.rows >= items.length)) return;
      var tried = measure(name, scale);
      // Larger only while every row fits its column; below the normal size only when that
      // brings the list onto one page.
      if (scale > 1 && !tried.whole) return;
      if (!fit || scale >= 1 || tried.cols * tried.rows >= items.length) fit = tried;
    });
    var perPage = fit.cols * fit.rows;
    fit.pages = [];
    for (var start = 0; start < items.length; start += perPage) {
      fit.pages.push(items.slice(start, start + perPage));
    }
    return fit;
  }

  function renderPage(name, index) {
    var layout = layouts[name];
    var items = layout.pages[index];
    var grid = views[name].querySelector(".grid");
    // Columns filled top to bottom, balanced: a short page does not leave one long column.
    var rows = Math.min(layout.rows, Math.ceil(items.length / layout.cols));
    grid.style.fontSize = layout.scale + "em";
    grid.style.gridTemplateColumns = "repeat(" + layout.cols + ", minmax(0, 1fr))";
    grid.style.gridTemplateRows = "repeat(" + rows + ", " + layout.rowHeight + "px)";
    grid.replaceChildren.apply(grid, items.map(LISTS[name].row));
    fitNames(grid);
  }

  function summarise() {
    var count = { done: 0, playing: 0, waiting: 0 };
    data.tables.forEach(function (table) { count[table.state] += 1; });
    document.getElementById("tables-summary").textContent = say("summary", {
      done: count.done, total: data.tables.length, playing: count.playing, waiting: count.waiting
    });
  }

  // Hidden standings (issue 38): the rounds the director keeps for the prize ceremony.
  // The same note on the standings slide and on the Zahlen des Tages slide (their figures
  // count the rounds before it only).
  function noteHidden(id) {
    var note = document.getElementById(id || "standings-note");
    var from = data.standings.hidden_from;
    note.hidden = !from;
    note.textContent = from ? say("hidden", { n: from }) : "";
  }

  // --- the clock ----------------------------------------------------------------------

  function clocks() {
    var running = data.round && data.round.running;
    var four = running ? data.clock["4"] : null;
    var five = running ? data.clock["5"] : null;
    return { big: four || five, five: four && five && five.ends_at !== four.ends_at ? five : null };
  }

  function secondsLeft(clock) {
    var elapsed = (performance.now() - receivedAt) / 1000;
    return Math.max(0, Math.floor(clock.seconds_left - elapsed));
  }

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function duration(left) {
    var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }

  function tick() {
    if (views.clock.hidden) return;
    var shown = clocks();
    if (!shown.big) return;
    var left = secondsLeft(shown.big);
    var big = document.getElementById("clock-four");
    big.textContent = duration(left);
    big.classList.toggle("up", left === 0);
    document.getElementById("clock-four-end").textContent =
      left === 0 ? say("time-up") : say("ends", { time: shown.big.ends_at });
    document.getElementById("clock-five").textContent = shown.five
      ? say("five", { left: duration(secondsLeft(shown.five)), time: shown.five.ends_at })
      : "";
  }

  // --- the rotation -------------------------------------------------------------------

  var sequence = [];
  var position = 0;
  var timer = null;
  var laidOutFor = ""; // the screen size the pages were last measured on, "1920x1080"

  function build() {
    var current = sequence[position];
    sequence = [];
    layouts = {};
    laidOutFor = window.innerWidth + "x" + window.innerHeight;
    ORDER.forEach(function (name) {
      if (name === "clock") {
        if (clocks().big) sequence.push({ view: "clock", page: 0, pages: 1 });
        return;
      }
      if (name === "day") {  // only on request (?zahlen=1) and once a game counts
        if (body.dataset.day === "1" && data.day) sequence.push({ view: "day", page: 0, pages: 1 });
        return;
      }
      var layout = layoutList(name);
      if (!layout) return;
      layouts[name] = layout;
      layout.pages.forEach(function (_page, index) {
        sequence.push({ view: name, page: index, pages: layout.pages.length });
      });
    });
    if (!sequence.length) sequence.push({ view: "idle", page: 0, pages: 1 });
    // Stay where the screen was: the same page of the same view, or that view's last page.
    position = 0;
    if (current) {
      var same = -1, last = -1;
      sequence.forEach(function (entry, index) {
        if (entry.view !== current.view) return;
        last = index;
        if (entry.page === current.page) same = index;
      });
      position = same >= 0 ? same : Math.max(last, 0);
    }
    show();
  }

  function title(entry) {
    var round = data.round ? " · " + say("round", { n: data.round.number }) : "";
    if (entry.view === "clock") return say("clock") + round;
    if (entry.view === "seating") return say("seating") + round;
    if (entry.view === "tables") return say("tables") + round;
    if (entry.view === "day") return say("day");
    if (entry.view === "standings") {
      return say("standings") + (data.standings.provisional ? " (" + say("provisional") + ")" : "");
    }
    return data.tournament;
  }

  function fillDay() {
    var day = data.day || {};
    function put(id, big, note) {
      document.getElementById(id).textContent = big;
      document.getElementById(id + "-who").textContent = note;
    }
    var b = day.biggest, s = day.solos, r = day.round;
    put("day-biggest", b ? b.value : "–", b ? b.kind + " · " + b.who + " · " + say("at-game", b) : "");
    put("day-solos", s ? s.count : "–", s ? s.who : "");
    put("day-round", r ? r.points : "–", r ? r.who + " · " + say("at-table", r) : "");
    noteHidden("day-hidden-note");
  }

  function show() {
    var entry = sequence[position];
    showOnly(entry.view);
    if (layouts[entry.view]) renderPage(entry.view, entry.page);
    if (entry.view === "tables") summarise();
    if (entry.view === "day") fillDay();
    document.getElementById("view-title").textContent = title(entry);
    var meta = entry.view === "idle" ? "" : data.tournament;
    if (LISTS[entry.view]) meta += " · " + say("page", { page: entry.page + 1, pages: entry.pages });
    document.getElementById("page-of").textContent = meta;
    tick();
  }

  function next() {
    position = (position + 1) % sequence.length;
    show();
    schedule();
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(next, PAGE_MS);
  }

  // --- fresh data, kept when the network fails -----------------------------------------

  var offline = document.getElementById("offline");
  var offlineWord = offline.textContent.trim();

  function setOffline(isOffline) {
    offline.hidden = !isOffline;
    offline.textContent = offlineWord + " · " + say("as-of", { time: data.generated_at });
  }

  function poll() {
    var controller = window.AbortController ? new AbortController() : null;
    var abort = controller && setTimeout(function () { controller.abort(); }, 10000);
    return fetch(body.dataset.url, {
      cache: "no-store",
      credentials: "same-origin",
      headers: { Accept: "application/json" },
      signal: controller ? controller.signal : undefined
    })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (fresh) {
        data = fresh;
        receivedAt = performance.now();
        setOffline(false);
        build();
      })
      .catch(function () { setOffline(true); })
      .finally(function () { clearTimeout(abort); });
  }

  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(build, 200);
  });

  // For the browser tests: step through the rotation without waiting.
  window.kreuzdameProjector = {
    next: next,
    poll: poll,
    state: function () {
      var entry = sequence[position];
      return {
        view: entry.view, page: entry.page + 1, pages: entry.pages, length: sequence.length,
        screen: laidOutFor
      };
    }
  };

  build();
  schedule();
  setInterval(tick, 250);
  setInterval(poll, POLL_MS);
})();
