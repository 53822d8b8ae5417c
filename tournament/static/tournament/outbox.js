// The list keeper's outbox. A phone at the table loses the hall's WLAN now and then, and a
// game saved in that moment must not be lost. So every game saved on the phone page goes
// through a queue kept in localStorage (one per table link), online or not: one code path,
// which every online save exercises too. The queue is sent in order, one game at a time.
// The server recognises a game sent twice by its client id, so sending again is always safe:
// an answer lost on the way only means the game is sent once more.
//
// No service worker: it needs HTTPS or localhost, and a hall serves plain http on a LAN
// name. The queue is shown and sent whenever the page is open, also after the tab was
// closed and the link opened again. Storage and the choice of the sending tab (when the link
// is open twice) are in outbox-store.js.
(function () {
  "use strict";

  var box = document.getElementById("outbox");
  var sheet = document.getElementById("sheet");
  var dataNode = document.getElementById("outbox-data");
  // Without fetch the form simply posts the page, as it does without JavaScript.
  if (!box || !sheet || !dataNode || !window.fetch || !window.URLSearchParams ||
    !window.KreuzdameOutboxStore) return;

  var data = JSON.parse(dataNode.textContent);
  var KEY = box.dataset.key;
  var ACTION = box.dataset.action;
  var TIMEOUT = 10000; // a phone "online" to a dead router would otherwise wait for minutes
  var FIRST_DELAY = 3000;
  var MAX_DELAY = 30000;
  var DONE_FOR = 20000; // how long "Everything sent." stays

  var store = window.KreuzdameOutboxStore(KEY, uuid4());
  var sending = false; // one flush at a time: the order of the games matters
  var posting = false; // a game of this tab is on the way: its answer brings the sheet
  var retryTimer = null;
  var refreshTimer = null;
  var delay = 0;
  var offline = false; // the last attempt to reach the server failed
  var backlog = false; // games had to wait: say so when they are through
  var actionFailed = false; // a tap that is not queued (remove, submit, ...) did not arrive
  var heldAnswers = {}; // client id -> the server's answer, kept while the keeper types
  // Held games whose answer this page has (it asked, or was told, here). A game held by a page
  // before a reload (or by another tab) is asked once more, so that its conflict box shows.
  var answeredHere = {};
  var parked = null; // a half-typed game form, put aside while a held game's answer is shown
  var shown = "";

  // --- texts: translated in keeper.html, placeholders {count}, {number}, ... filled here ---

  function text(name, values) {
    var out = box.dataset["text" + name] || "";
    Object.keys(values || {}).forEach(function (key) {
      out = out.split("{" + key + "}").join(String(values[key]));
    });
    return out;
  }

  // --- the queue ---------------------------------------------------------------------------
  // Every change reads the queue from storage first and writes it back at once: another tab
  // of the same link may have changed it in between.

  function load() { return store.load(); }

  function save(queue) { store.save(queue); }

  function update(id, changes) {
    save(load().map(function (item) {
      return item.id === id ? Object.assign(item, changes) : item;
    }));
  }

  function remove(id) {
    save(load().filter(function (item) { return item.id !== id; }));
  }

  // A game saved again under its own client id (the form after a refusal keeps it) or from
  // the form that replaced a conflicting one takes the place of the held game: same spot in
  // the order. Everything else goes to the end.
  function enqueue(item) {
    var queue = load();
    var at = -1;
    queue.forEach(function (queued, index) {
      if (queued.id === item.id || (item.replaces && queued.id === item.replaces)) at = index;
    });
    if (at < 0) {
      queue.push(item);
    } else {
      var old = queue[at];
      delete heldAnswers[old.id];
      queue[at] = item;
      if (!old.version && !item.version) shiftBehind(queue, at, item.number - old.number);
    }
    save(queue);
  }

  // New games are numbered when they are queued. When the desk removed or added a game
  // meanwhile, the server holds the first of them and offers it again as the sheet's next
  // game; saved under that number, the new games behind it move along by the same step
  // (held 5 saved as 6: the queued 6 and 7 become 7 and 8). Changes of stored games keep
  // their numbers. A discarded game moves nothing: the desk's row took its place.
  function shiftBehind(queue, at, delta) {
    if (!delta) return;
    for (var i = at + 1; i < queue.length; i++) {
      if (!queue[i].version) queue[i] = renumbered(queue[i], queue[i].number + delta);
    }
  }

  function renumbered(item, number) {
    var fields = item.fields.map(function (pair) {
      return pair[0] === "number" ? ["number", String(number)] : pair;
    });
    return Object.assign({}, item, { number: number, fields: fields, rev: uuid4() });
  }

  function sentRecently() { return Date.now() - store.sentAt() < DONE_FOR; }

  function markSent() {
    store.setSent(Date.now());
    setTimeout(render, DONE_FOR + 100);
  }

  function forgetSent() { store.setSent(0); }

  // crypto.randomUUID exists only in secure contexts (HTTPS, localhost), not on the hall's
  // plain http: build a version 4 UUID from getRandomValues, which works everywhere.
  function uuid4() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) {
      return (b + 0x100).toString(16).slice(1);
    }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20),
      hex.slice(20)].join("-");
  }

  // --- an old link after the round was closed ---------------------------------------------
  // Nothing is sent any more (the server would refuse it): the games the phone still holds are
  // shown, plainly marked as not on the list, for the keeper to take to the tournament office.
  // They stay on the phone until then.

  if (box.dataset.closed) {
    var kept = load();
    var body = document.querySelector("#sheet-rows tbody");
    if (kept.length && body) {
      var none = body.querySelector("tr.empty");
      if (none) none.hidden = true;
      var columns = document.querySelectorAll("#sheet-rows thead th").length;
      kept.forEach(function (item) {
        var row = document.createElement("tr");
        row.className = "pending held not-on-list";
        var number = document.createElement("td");
        number.textContent = String(item.number);
        var what = document.createElement("td");
        what.colSpan = Math.max(1, columns - 1);
        what.textContent = (item.version ? text("Change", { number: item.number }) + " · " : "") +
          item.summary + " — " + text("NotOnList");
        row.append(number, what);
        body.appendChild(row);
      });
    }
    if (kept.length) {
      var p = document.createElement("p");
      p.textContent = kept.length === 1 ? text("ClosedOne")
        : text("ClosedMany", { count: kept.length });
      box.replaceChildren(p);
      box.className = "outbox banner error";
      box.setAttribute("role", "alert");
      box.hidden = false;
    }
    return;
  }

  // --- the game form -------------------------------------------------------------------------

  function gameForm() { return document.getElementById("game-form"); }

  function field(form, name) { return form.querySelector('[name="' + name + '"]'); }

  function isEdit(form) {
    var version = field(form, "version");
    return Boolean(version && version.value);
  }

  function valuesOf(pairs, name) {
    return pairs.filter(function (p) { return p[0] === name; }).map(function (p) { return p[1]; });
  }

  function first(pairs, name) { return valuesOf(pairs, name)[0] || ""; }

  function fieldsOf(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      // The CSRF token travels in a header, always the page's current one.
      if (name !== "csrfmiddlewaretoken") pairs.push([name, String(value)]);
    });
    return pairs;
  }

  // "N · winners 1, 3 · value 2": what the keeper typed, in words; the points of a derived
  // row are the server's business (the rules engine), not repeated here.
  function summary(pairs) {
    var kind = first(pairs, "kind") || "normal";
    var parts = [data.letters[kind] || "?"];
    var soloist = first(pairs, "soloist");
    if (kind !== "normal" && soloist) parts.push(text("Soloist", { position: soloist }));
    if (first(pairs, "mode") === "direct") {
      var points = [];
      for (var p = 1; p <= data.size; p++) points.push(first(pairs, "p" + p) || "0");
      parts.push(points.join(" / "));
    } else {
      if (kind === "normal") {
        parts.push(text("Winners", { positions: valuesOf(pairs, "winners").join(", ") }));
      } else if (first(pairs, "result")) {
        parts.push(text(first(pairs, "result") === "won" ? "Won" : "Lost"));
      }
      parts.push(text("Value", { value: first(pairs, "value") }));
    }
    return parts.join(" · ");
  }

  function itemFrom(form) {
    var id = field(form, "client_id");
    if (!id.value) id.value = uuid4();
    var pairs = fieldsOf(form);
    return {
      id: id.value,
      replaces: form.dataset.replaces || "",
      number: parseInt(first(pairs, "number"), 10) || 0,
      version: first(pairs, "version"),
      fields: pairs,
      summary: summary(pairs),
      // Changes with every save of the game, also under the same client id: an answer to an
      // earlier send of it is then out of date (see answered).
      rev: uuid4(),
      state: "waiting",
      message: "",
      created: Date.now(),
    };
  }

  // The number after the last game still queued (or the server's next one).
  function nextNumber(form) {
    var next = parseInt(form.dataset.next, 10) || 1;
    load().forEach(function (item) {
      if (!item.version && item.number >= next) next = item.number + 1;
    });
    return next;
  }

  // At a 5-table the dealer sits out. The dealer of the game being prepared follows from the
  // server's next dealer and the kinds of the games still queued: he deals again after a
  // Pflichtsolo when the rule profile says so, else the deal moves on. Only a guess (a
  // vorgeführtes Pflichtsolo can move the deal): the server checks every game on arrival.
  function predictedDealer(form, number) {
    var dealer = parseInt(form.dataset.dealer, 10) || 1;
    var from = parseInt(form.dataset.next, 10) || 1;
    load().forEach(function (item) {
      if (item.version || item.number < from || item.number >= number) return;
      if (!data.repeats[first(item.fields, "kind")]) dealer = (dealer % data.size) + 1;
    });
    return dealer;
  }

  // The server leaves its sitter out of the choices; the next game's sitter may be another
  // player, so every position gets a choice and the predicted sitter's is hidden.
  function fitSitter(form, number) {
    if (data.size !== 5) return;
    var sitter = predictedDealer(form, number);
    ["winners", "soloist"].forEach(function (name) {
      var some = form.querySelector('input[name="' + name + '"]');
      if (!some) return;
      var fieldset = some.closest("fieldset");
      for (var p = 1; p <= data.size; p++) {
        var input = fieldset.querySelector('input[name="' + name + '"][value="' + p + '"]');
        if (!input) input = addChoice(fieldset, some.closest("label"), name, p);
        input.disabled = p === sitter; // a disabled input is not sent
        input.closest("label").hidden = p === sitter;
      }
    });
  }

  function addChoice(fieldset, model, name, position) {
    var label = model.cloneNode(true);
    var input = label.querySelector("input");
    input.value = String(position);
    input.id = "outbox_" + name + "_" + position;
    input.checked = false;
    while (input.nextSibling) label.removeChild(input.nextSibling);
    label.appendChild(document.createTextNode(" " + position + " · " + (data.names[position] || "")));
    var after = null;
    fieldset.querySelectorAll("label").forEach(function (other) {
      var value = parseInt(other.querySelector("input").value, 10);
      if (value < position) after = other;
    });
    if (after) after.after(label);
    else fieldset.querySelector("legend").after(label);
    return input;
  }

  // While games wait in the queue the server cannot hand out the next form, so it is made
  // here: the next number, a new client id, empty inputs, the heading "Game N".
  function prepareNext(form) {
    form.querySelectorAll(".edit-only, .errors, .error").forEach(function (el) { el.remove(); });
    form.querySelectorAll("input").forEach(function (input) {
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = (input.name === "kind" && input.value === "normal") ||
          (input.name === "mode" && input.value === "derive");
      } else if (input.type !== "hidden") {
        input.value = "";
      }
    });
    field(form, "version").value = "";
    field(form, "client_id").value = uuid4();
    delete form.dataset.replaces;
    delete form.dataset.dirty;
    markPrepared(form);
    form.dataset.kind = "normal";
    form.dataset.mode = "derive";
    renumber(form);
  }

  function renumber(form) {
    var number = nextNumber(form);
    field(form, "number").value = String(number);
    form.querySelector("h2").textContent = text("Game", { number: number });
    fitSitter(form, number);
  }

  // An empty form made for the next game. A second tap on "Save game" lands on it right
  // after the first one queued the game: that tap is ignored instead of queueing an empty
  // game (refused, then held). Typing anything makes the form the keeper's (markDirty).
  function markPrepared(form) { form.dataset.prepared = "1"; }

  function untouched(form) { return Boolean(form.dataset.prepared && !form.dataset.dirty); }

  // The half-typed game put aside by "Show" comes back once the held game is dealt with,
  // numbered after the games queued by then.
  function restoreParked(form) {
    if (!parked) return false;
    var draft = parked;
    parked = null;
    if (!isEdit(draft)) {
      draft.dataset.next = form.dataset.next;
      draft.dataset.dealer = form.dataset.dealer;
    }
    form.replaceWith(draft);
    if (!isEdit(draft)) renumber(draft);
    document.dispatchEvent(new CustomEvent("outbox:swapped"));
    return true;
  }

  function prepareOrRestore(form) {
    if (!restoreParked(form)) prepareNext(form);
  }

  // The server's form is kept when it is a change of a game, or the answer to a held game.
  function shouldPrepare(form) {
    var queue = load();
    return !isEdit(form) && queue.length > 0 && queue[0].state !== "held";
  }

  function clearAnswers() {
    sheet.querySelectorAll("#conflict, #notice.error, #notice").forEach(function (el) {
      el.remove();
    });
  }

  // --- showing the queue ---------------------------------------------------------------------

  function render() {
    var queue = load();
    renderRows(queue);
    renderStrip(queue);
    renderBlocks(queue);
  }

  // The queued games as rows at the end of the sheet, marked "not sent yet".
  function renderRows(queue) {
    var body = document.querySelector("#sheet-rows tbody");
    if (!body) return;
    body.querySelectorAll("tr.pending").forEach(function (row) { row.remove(); });
    var empty = body.querySelector("tr.empty");
    if (empty) empty.hidden = queue.length > 0;
    var columns = document.querySelectorAll("#sheet-rows thead th").length;
    queue.forEach(function (item) {
      var row = document.createElement("tr");
      row.className = "pending" + (item.state === "held" ? " held" : "");
      row.dataset.clientId = item.id;
      var number = document.createElement("td");
      number.textContent = String(item.number);
      var what = document.createElement("td");
      what.colSpan = Math.max(1, columns - 1);
      what.textContent = (item.version ? text("Change", { number: item.number }) + " · " : "") +
        item.summary + " — " + text(item.state === "held" ? "HeldRow" : "Pending");
      row.append(number, what);
      body.appendChild(row);
    });
  }

  function offlineText(count) {
    if (count === 0) return text("OfflineNone");
    if (count === 1) return text("OfflineOne");
    return text("OfflineMany", { count: count });
  }

  // The strip above the sheet says in plain words where the games are.
  function renderStrip(queue) {
    var head = queue[0];
    var kind = "info";
    var lines = [];
    var buttons = [];
    if (head && head.state === "held") {
      kind = "error";
      // The answer in the sheet below says the details; the strip only when it is not shown.
      var below = !heldAnswers[head.id] && document.querySelector(
        "#sheet #conflict, #sheet #form-errors, #sheet #notice.error");
      lines.push(below ? text("HeldBelow", { number: head.number })
        : text("Held", { number: head.number, message: head.message }));
      lines.push(text("HeldHint"));
      if (queue.length > 1) lines.push(text("Waiting", { count: queue.length - 1 }));
      if (heldAnswers[head.id]) buttons.push(["show", text("Show")]);
      buttons.push(["resend", text("SendAgain")]);
      buttons.push(["discard", text("Discard", { number: head.number })]);
    } else if (offline || actionFailed) {
      kind = "warning";
      if (actionFailed) lines.push(text("ActionFailed"));
      if (offline && (queue.length || !actionFailed)) lines.push(offlineText(queue.length));
    } else if (queue.length && backlog) {
      lines.push(text("Sending", { count: queue.length }));
    } else if (!queue.length && sentRecently()) {
      kind = "done";
      lines.push(text("Done"));
    }
    // Said as long as the page is open: closing it would lose the games not sent yet.
    if (store.trouble()) {
      lines.unshift(text("NoStorage"));
      if (kind === "info" || kind === "done") kind = "warning";
    }
    var signature = JSON.stringify([kind, lines, buttons]);
    if (signature === shown) return;
    shown = signature;
    box.hidden = lines.length === 0;
    box.className = "outbox banner " + kind;
    box.replaceChildren();
    lines.forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      box.appendChild(p);
    });
    buttons.forEach(function (spec) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "small";
      button.dataset.outbox = spec[0];
      button.textContent = spec[1];
      box.appendChild(button);
    });
    placeHeader();
  }

  // While the strip shows, the count and clock of the sheet stick right under it (site.css):
  // the strip never covers them, and whatever the page scrolls into view (the conflict, an
  // error, the form) lands below both, through scroll-padding.
  function placeHeader() {
    var root = document.documentElement;
    var strip = box.hidden ? 0 : box.getBoundingClientRect().height;
    var status = document.getElementById("sheet-status-wrap");
    document.body.classList.toggle("outbox-shown", !box.hidden);
    root.style.setProperty("--outbox-height", strip + "px");
    var below = !box.hidden && status ? status.getBoundingClientRect().height : 0;
    root.style.scrollPaddingTop = strip ? Math.ceil(strip + below + 8) + "px" : "";
  }
  if (window.ResizeObserver) new ResizeObserver(placeHeader).observe(box);
  document.addEventListener("htmx:afterSwap", placeHeader);
  document.addEventListener("outbox:swapped", placeHeader);

  // A sheet with games still on the phone cannot be submitted, nor its "last game" removed.
  function renderBlocks(queue) {
    var submit = document.querySelector("#submit-form button[type=submit]");
    if (submit) {
      submit.disabled = queue.length > 0;
      var note = document.getElementById("submit-blocked");
      if (queue.length && !note) {
        note = document.createElement("p");
        note.id = "submit-blocked";
        note.className = "muted";
        submit.before(note);
      }
      if (note) {
        if (queue.length) note.textContent = text("SubmitBlocked", { count: queue.length });
        else note.remove();
      }
    }
    var removeLast = document.querySelector("#delete-form button");
    if (removeLast) removeLast.disabled = queue.length > 0;
  }

  // --- sending -------------------------------------------------------------------------------

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  // Every request of the outbox gives up after TIMEOUT, answer body included: a request
  // that hangs would keep `sending` set and stall the queue.
  function request(options) {
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, TIMEOUT);
    return fetch(ACTION, Object.assign({
      credentials: "same-origin",
      cache: "no-store",
      signal: controller.signal,
    }, options)).then(function (response) {
      return response.text().then(function (html) {
        return { status: response.status, html: html, url: response.headers.get("HX-Replace-Url") };
      });
    }).finally(function () {
      clearTimeout(timer);
    });
  }

  // The headers of htmx's requests with hx-target="#sheet": the server answers with the
  // sheet partial.
  function sheetHeaders() {
    return {
      "HX-Request": "true",
      "HX-Target": "sheet",
      "HX-Current-URL": window.location.href,
    };
  }

  // A lost CSRF cookie (browser data cleared, the phone restarted the browser): the page,
  // fetched once, sets a fresh cookie and carries the matching token.
  function renewToken() {
    return request({}).then(function (answer) {
      var page = new DOMParser().parseFromString(answer.html, "text/html");
      var headers = page.body && page.body.getAttribute("hx-headers");
      if (headers) document.body.setAttribute("hx-headers", headers);
    });
  }

  function post(item, renewed) {
    var body = new URLSearchParams();
    item.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    var headers = Object.assign({ "X-CSRFToken": csrfToken() }, sheetHeaders());
    return request({ method: "POST", body: body, headers: headers }).then(function (answer) {
      if (answer.status === 403 && !renewed) {
        return renewToken().then(function () { return post(item, true); });
      }
      return answer;
    });
  }

  function flush() {
    clearTimeout(retryTimer);
    retryTimer = null;
    if (sending) return;
    var queue = load(); // as stored now: another tab may have changed it
    var head = queue[0];
    if (head && head.state === "held" && !answeredHere[head.id]) {
      // Held where this page cannot show why (its answer was in the memory of the page
      // before a reload, which may even have written "held" after this page started): ask
      // again, once.
      answeredHere[head.id] = true;
      update(head.id, { state: "waiting" });
      head = load()[0];
    }
    if (!head || head.state === "held") {
      store.releaseLease(); // nothing to send: another tab may take over
      render();
      return;
    }
    sending = true; // also while the lease is claimed: one flush at a time
    store.claimLease(function (mine) {
      if (mine) {
        send();
      } else {
        sending = false;
        waitForSender();
      }
    });
  }

  function send() {
    var queue = load(); // claiming took a moment: read again
    var head = queue[0];
    if (!head || head.state === "held") {
      sending = false;
      flush();
      return;
    }
    if (queue.length > 1 || offline) backlog = true;
    render();
    posting = true;
    post(head, false).then(function (answer) {
      sending = posting = false;
      answered(head, answer);
    }, function () {
      sending = posting = false;
      unreachable();
    });
  }

  // Another tab of the link sends. It lets go when its queue is through or a game is held
  // (the storage event then calls flush); should it vanish without a word (tab killed, phone
  // asleep), its lease goes stale and this tab takes over.
  function waitForSender() {
    retryTimer = setTimeout(flush, store.leaseStale + 500);
    render();
  }

  // The game as sent is still in the queue, unchanged. Otherwise the keeper saved it again
  // (corrected) or discarded it while it was on the way, and this answer is out of date.
  function current(item) {
    return load().some(function (queued) {
      return queued.id === item.id && queued.rev === item.rev;
    });
  }

  function answered(item, answer) {
    var status = answer.status;
    if (!current(item)) {
      outdated(answer);
      return;
    }
    if (status >= 200 && status < 300) {
      reachable();
      remove(item.id);
      if (!load().length && backlog) {
        backlog = false;
        markSent();
      }
      swapIn(answer.html, true);
      if (answer.url) window.history.replaceState(window.history.state, "", answer.url);
      flush();
    } else if (status === 409 || status === 422) {
      // A conflict (the desk changed the sheet meanwhile) or a refusal: the keeper decides.
      // The games behind it wait, their order matters.
      reachable();
      hold(item, messageOf(answer.html), answer.html, status === 409 ? theirsOf(answer.html) : "");
    } else if (busy(status)) {
      unreachable(); // the server is busy or a proxy in between failed: try again later
    } else if (status === 410) {
      // The round was closed meanwhile: the page shows itself as closed, with what this
      // phone still holds (see data-closed above).
      store.releaseLease();
      window.location.reload();
    } else {
      reachable(); // 403 twice, 404 (the round is over): sending again will not help
      hold(item, text("Refused", { status: status }), null);
    }
  }

  // An out-of-date answer neither holds nor removes a game: what the keeper saved since is
  // sent next. A stored game still shows in the sheet.
  function outdated(answer) {
    if (busy(answer.status)) {
      unreachable();
      return;
    }
    reachable();
    if (answer.status >= 200 && answer.status < 300) swapIn(answer.html, true);
    flush();
  }

  function busy(status) {
    return status === 408 || status === 429 || status >= 500;
  }

  function reachable() {
    offline = false;
    delay = 0;
  }

  // No answer: keep the game, try again after a growing pause (3 s up to 30 s), and at once
  // when the browser reports the network back or the page becomes visible again.
  function unreachable() {
    offline = true;
    backlog = true;
    delay = Math.min(MAX_DELAY, delay ? delay * 2 : FIRST_DELAY);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(flush, delay);
    render();
  }

  // The server's own words, for the strip: the conflict's message or the first error.
  function messageOf(html) {
    var answer = new DOMParser().parseFromString(html, "text/html");
    var found = ["#conflict > p", "#form-errors", "#notice", ".error"].map(function (selector) {
      return answer.querySelector(selector);
    }).filter(Boolean)[0];
    return found ? found.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // What the sheet holds of a conflicting game: "stored" (somebody else's version of it is on
  // the list) or "removed" (it is not there any more); see _conflict.html.
  function theirsOf(html) {
    var box = new DOMParser().parseFromString(html, "text/html").querySelector("#conflict");
    return (box && box.dataset.theirs) || "";
  }

  function hold(item, message, html, theirs) {
    answeredHere[item.id] = true;
    update(item.id, { state: "held", message: message, theirs: theirs || "" });
    store.releaseLease();
    if (html !== null) {
      var form = gameForm();
      if (form && form.dataset.dirty) heldAnswers[item.id] = html; // shown on request
      else showHeld(item.id, html);
    }
    render();
  }

  // Today's conflict box, or the form with its error: saving that form resolves the held game.
  // A game the keeper had started to type is put aside meanwhile (restoreParked).
  function showHeld(id, html) {
    var draft = gameForm();
    if (draft && draft.dataset.dirty) parked = draft;
    delete heldAnswers[id];
    swapIn(html, false);
    var form = gameForm();
    if (form) form.dataset.replaces = id;
    var answer = sheet.querySelector("#conflict, #form-errors, #notice");
    if (answer) answer.scrollIntoView({ block: "center" });
  }

  // Put the server's answer into the page as htmx would. A game the keeper has started to
  // type is never thrown away: that form moves over into the new sheet.
  function swapIn(html, keepDraft) {
    var old = gameForm();
    var draft = keepDraft && old && old.dataset.dirty ? old : null;
    sheet.innerHTML = html;
    var fresh = gameForm();
    if (draft && fresh) {
      if (!isEdit(draft)) {
        draft.dataset.next = fresh.dataset.next;
        draft.dataset.dealer = fresh.dataset.dealer;
      }
      fresh.replaceWith(draft);
    } else if (fresh && shouldPrepare(fresh)) {
      prepareNext(fresh);
    } else if (fresh && keepDraft && !isEdit(fresh)) {
      markPrepared(fresh); // the server's empty form after a save: a double tap lands here
    }
    htmx.process(sheet);
    document.dispatchEvent(new CustomEvent("outbox:swapped"));
    render();
  }

  // --- the keeper's taps -----------------------------------------------------------------------

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.id !== "game-form" || event.defaultPrevented) return;
    event.preventDefault();
    if (untouched(form)) return; // the second tap of a double tap: nothing entered
    var missing = missingEntry(form);
    if (missing) { // nothing to send yet: say what is missing, keep nothing on the phone
      showFormError(form, missing);
      return;
    }
    enqueue(itemFrom(form));
    forgetSent();
    clearAnswers();
    prepareOrRestore(form);
    render();
    flush();
  });

  // The server would refuse a game without its value (or, typed directly, without every
  // player's number): said at once, like the server says it, instead of a held game.
  function missingEntry(form) {
    var mode = form.querySelector('[name="mode"]:checked');
    if (mode && mode.value === "direct") {
      var points = form.querySelectorAll('input[name^="p"][type="number"]');
      var empty = Array.prototype.some.call(points, function (input) {
        return /^p[1-5]$/.test(input.name) && input.value.trim() === "";
      });
      return empty ? text("EnterPoints") : "";
    }
    var value = field(form, "value");
    return value && value.value.trim() === "" ? text("EnterValue") : "";
  }

  function showFormError(form, message) {
    var errors = form.querySelector("#form-errors");
    if (!errors) {
      errors = document.createElement("div");
      errors.className = "errors";
      errors.id = "form-errors";
      errors.setAttribute("role", "alert");
      form.prepend(errors);
    }
    var line = document.createElement("p");
    line.textContent = message;
    errors.replaceChildren(line);
    errors.scrollIntoView({ block: "nearest" });
  }

  function markDirty(event) {
    var form = event.target.closest && event.target.closest("#game-form");
    if (form) form.dataset.dirty = "1";
  }
  document.addEventListener("input", markDirty);
  document.addEventListener("change", markDirty);

  // Say what is true about the sheet when the keeper drops a held game: a version stored by
  // somebody else stays, as does a stored game whose change was refused; only a new game
  // that was refused is not on the list at all.
  function discardText(head) {
    var values = { number: head.number };
    if (head.theirs === "stored") return text("DiscardStored", values);
    if (head.theirs === "removed") return text("DiscardRemoved", values);
    if (head.version) return text("DiscardChange", values);
    return text("DiscardConfirm", values);
  }

  box.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-outbox]");
    var head = load()[0];
    if (!button || !head) return;
    var action = button.dataset.outbox;
    if (action === "show" && heldAnswers[head.id]) {
      showHeld(head.id, heldAnswers[head.id]);
    } else if (action === "resend") {
      update(head.id, { state: "waiting", message: "" });
      flush();
    } else if (action === "discard" && window.confirm(discardText(head))) {
      remove(head.id);
      delete heldAnswers[head.id];
      var form = gameForm();
      if (form && (form.dataset.replaces === head.id || field(form, "client_id").value === head.id)) {
        clearAnswers();
        prepareOrRestore(form);
      }
      flush();
    }
    render();
  });

  // --- the other requests of the page (htmx): remove, submit, call, poll -----------------------

  htmx.config.timeout = TIMEOUT;

  function isPoll(event) {
    return Boolean(event.detail && event.detail.elt && event.detail.elt.id === "sheet-status-wrap");
  }

  // These are not queued: when they do not arrive the keeper is told to try again.
  function requestFailed(event) {
    offline = true;
    if (!isPoll(event)) actionFailed = true;
    render();
  }
  document.addEventListener("htmx:sendError", requestFailed);
  document.addEventListener("htmx:timeout", requestFailed);
  document.addEventListener("htmx:responseError", function (event) {
    if (!isPoll(event)) actionFailed = true;
    render();
  });

  // Any answer proves the server is reachable again: send what waits, without waiting for
  // the next retry (the status strip polls every 30 s, so this also notices a silent return).
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.successful) return;
    if (!isPoll(event)) actionFailed = false;
    if (offline) {
      reachable();
      flush();
    }
    render();
  });

  // A swap by htmx (a change opened, the last game removed) rewrote the rows and the form.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "sheet") return;
    var form = gameForm();
    if (form && shouldPrepare(form)) prepareNext(form);
    render();
  });

  window.addEventListener("online", function () {
    if (!load().length) offline = false;
    delay = 0;
    flush();
  });
  window.addEventListener("offline", function () {
    offline = true;
    render();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") flush();
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) flush();
  });
  // Another tab of the same link changed the queue: show it, send what it queued (when this
  // tab is the sender or none is), and fetch the sheet when the other tab sent games.
  window.addEventListener("storage", function (event) {
    store.answerRollCall(event);
    if (event.key === KEY) {
      if (!posting && shorter(event.oldValue, event.newValue)) refreshSoon();
      renumberUntouched();
      render();
      flush();
    } else if (event.key === store.leaseKey && !event.newValue) {
      flush(); // the sending tab let go: take over what is left
    }
  });
  window.addEventListener("pagehide", function () { store.releaseLease(); });

  // An empty form for the next game follows the games the other tab queued.
  function renumberUntouched() {
    var form = gameForm();
    if (!form || isEdit(form) || form.dataset.dirty || form.dataset.replaces) return;
    if (sheet.querySelector("#conflict, #form-errors, #notice.error")) return;
    prepareNext(form);
  }

  function shorter(before, after) {
    try {
      return (JSON.parse(before) || []).length > (JSON.parse(after) || []).length;
    } catch (e) {
      return false;
    }
  }

  function refreshSoon() {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(refreshSheet, 500);
  }

  // The sheet as the server has it now. A form showing a change or a held game's answer is
  // the keeper's business and stays; a half-typed game is carried over by swapIn.
  function refreshSheet() {
    var form = gameForm();
    if (posting || (form && (isEdit(form) || form.dataset.replaces))) return;
    request({ headers: sheetHeaders() }).then(function (answer) {
      var now = gameForm();
      if (answer.status === 200 && !posting && now === form) swapIn(answer.html, true);
    }, function () { /* the next save brings the sheet */ });
  }

  // On load: show what waits and send it. A held game is asked again, so that its conflict
  // box or error shows once more; the form continues after the last queued game. Not while
  // another tab of the link is sending: that tab has the answers.
  function start() {
    var queue = load();
    if (!queue.length) {
      render();
      return;
    }
    backlog = true;
    var form = gameForm();
    if (form && !isEdit(form)) prepareNext(form);
    render();
    store.claimLease(function (mine) {
      if (mine) {
        save(load().map(function (item) { return Object.assign(item, { state: "waiting" }); }));
      }
      flush();
    });
  }

  start();
})();
