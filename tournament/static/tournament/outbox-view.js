// What the keeper's outbox shows: the queued games as rows of the sheet, the strip above it,
// the blocked buttons, the games of a closed round; and the game form it prepares for the
// next game while earlier ones wait. The decisions are outbox-queue.js's; this only draws.

import { nextNumber, predictedDealer, rowText } from "./outbox-queue.js";

// The texts, translated in keeper.html as data-text-* of the strip: placeholders {count},
// {number}, ... are filled in here.
export function texts(box) {
  return function text(name, values) {
    let out = box.dataset["text" + name] || "";
    Object.keys(values || {}).forEach((key) => {
      out = out.split("{" + key + "}").join(String(values[key]));
    });
    return out;
  };
}

// --- the rows --------------------------------------------------------------------------------

function sheetBody() {
  return document.querySelector("#sheet-rows tbody");
}

function row(item, className, words) {
  const columns = document.querySelectorAll("#sheet-rows thead th").length;
  const tr = document.createElement("tr");
  tr.className = className;
  const number = document.createElement("td");
  number.textContent = String(item.number);
  const what = document.createElement("td");
  what.colSpan = Math.max(1, columns - 1);
  what.textContent = words;
  tr.append(number, what);
  return tr;
}

// The queued games as rows at the end of the sheet, marked "not sent yet".
export function renderRows(queue, text) {
  const body = sheetBody();
  if (!body) return;
  body.querySelectorAll("tr.pending").forEach((tr) => tr.remove());
  const empty = body.querySelector("tr.empty");
  if (empty) empty.hidden = queue.length > 0;
  queue.forEach((item) => {
    const held = item.state === "held";
    const tr = row(item, "pending" + (held ? " held" : ""),
      rowText(item, text(held ? "HeldRow" : "Pending"), text));
    tr.dataset.clientId = item.id;
    body.appendChild(tr);
  });
}

// An old link after the round was closed: nothing is sent any more (the server would refuse
// it); the games the phone still holds are shown, plainly marked as not on the list, for the
// keeper to take to the tournament office. They stay on the phone until then.
export function showKept(box, kept, text) {
  const body = sheetBody();
  if (kept.length && body) {
    const none = body.querySelector("tr.empty");
    if (none) none.hidden = true;
    kept.forEach((item) => {
      body.appendChild(row(item, "pending held not-on-list", rowText(item, text("NotOnList"), text)));
    });
  }
  if (kept.length) {
    const p = document.createElement("p");
    p.textContent = kept.length === 1 ? text("ClosedOne")
      : text("ClosedMany", { count: kept.length });
    box.replaceChildren(p);
    box.className = "outbox banner error";
    box.setAttribute("role", "alert");
    box.hidden = false;
  }
}

// --- the strip ----------------------------------------------------------------------------

let shown = "";

// An answer of the server (conflict, form errors, a refusal) is in the sheet below.
export function answerShown() {
  return Boolean(document.querySelector("#sheet #conflict, #sheet #form-errors, #sheet #notice.error"));
}

// The strip as outbox-queue.js's strip() says it; drawn again only when that changed.
export function renderStrip(box, content) {
  const signature = JSON.stringify([content.kind, content.lines, content.buttons]);
  if (signature === shown) return;
  shown = signature;
  box.hidden = content.lines.length === 0;
  box.className = "outbox banner " + content.kind;
  box.replaceChildren();
  content.lines.forEach((line) => {
    const p = document.createElement("p");
    p.textContent = line;
    box.appendChild(p);
  });
  content.buttons.forEach((spec) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "small";
    button.dataset.outbox = spec[0];
    button.textContent = spec[1];
    box.appendChild(button);
  });
  placeHeader(box);
}

// While the strip shows, the count and clock of the sheet stick right under it (site.css):
// the strip never covers them, and whatever the page scrolls into view (the conflict, an
// error, the form) lands below both, through scroll-padding.
export function placeHeader(box) {
  const root = document.documentElement;
  const strip = box.hidden ? 0 : box.getBoundingClientRect().height;
  const status = document.getElementById("sheet-status-wrap");
  document.body.classList.toggle("outbox-shown", !box.hidden);
  root.style.setProperty("--outbox-height", strip + "px");
  const below = !box.hidden && status ? status.getBoundingClientRect().height : 0;
  root.style.scrollPaddingTop = strip ? Math.ceil(strip + below + 8) + "px" : "";
}

// A sheet with games still on the phone cannot be submitted, nor its "last game" removed.
export function renderBlocks(queue, text) {
  const submit = document.querySelector("#submit-form button[type=submit]");
  if (submit) {
    submit.disabled = queue.length > 0;
    let note = document.getElementById("submit-blocked");
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
  const removeLast = document.querySelector("#delete-form button");
  if (removeLast) removeLast.disabled = queue.length > 0;
}

// --- the game form -------------------------------------------------------------------------

export function gameForm() {
  return document.getElementById("game-form");
}

export function field(form, name) {
  return form.querySelector('[name="' + name + '"]');
}

export function isEdit(form) {
  const version = field(form, "version");
  return Boolean(version && version.value);
}

export function fieldsOf(form) {
  const pairs = [];
  new FormData(form).forEach((value, name) => {
    // The CSRF token travels in a header, always the page's current one.
    if (name !== "csrfmiddlewaretoken") pairs.push([name, String(value)]);
  });
  return pairs;
}

// The server leaves its sitter out of the choices; the next game's sitter may be another
// player, so every position gets a choice and the predicted sitter's is hidden.
function fitSitter(form, number, queue, data) {
  if (data.size !== 5) return;
  const sitter = predictedDealer(queue, {
    dealer: parseInt(form.dataset.dealer, 10) || 1,
    from: parseInt(form.dataset.next, 10) || 1,
    number: number,
    size: data.size,
    repeats: data.repeats,
  });
  ["winners", "soloist"].forEach((name) => {
    const some = form.querySelector('input[name="' + name + '"]');
    if (!some) return;
    const fieldset = some.closest("fieldset");
    for (let p = 1; p <= data.size; p++) {
      let input = fieldset.querySelector('input[name="' + name + '"][value="' + p + '"]');
      if (!input) input = addChoice(fieldset, some.closest("label"), name, p, data);
      input.disabled = p === sitter; // a disabled input is not sent
      input.closest("label").hidden = p === sitter;
    }
  });
}

function addChoice(fieldset, model, name, position, data) {
  const label = model.cloneNode(true);
  const input = label.querySelector("input");
  input.value = String(position);
  input.id = "outbox_" + name + "_" + position;
  input.checked = false;
  while (input.nextSibling) label.removeChild(input.nextSibling);
  label.appendChild(document.createTextNode(" " + position + " · " + (data.names[position] || "")));
  let after = null;
  fieldset.querySelectorAll("label").forEach((other) => {
    const value = parseInt(other.querySelector("input").value, 10);
    if (value < position) after = other;
  });
  if (after) after.after(label);
  else fieldset.querySelector("legend").after(label);
  return input;
}

// While games wait in the queue the server cannot hand out the next form, so it is made
// here: the next number, a new client id, empty inputs, the heading "Game N".
export function prepareNext(form, queue, data, text, clientId) {
  form.querySelectorAll(".edit-only, .errors, .error").forEach((el) => el.remove());
  form.querySelectorAll("input").forEach((input) => {
    if (input.type === "radio" || input.type === "checkbox") {
      input.checked = (input.name === "kind" && input.value === "normal") ||
        (input.name === "mode" && input.value === "derive");
    } else if (input.type !== "hidden") {
      input.value = "";
    }
  });
  field(form, "version").value = "";
  field(form, "client_id").value = clientId;
  delete form.dataset.replaces;
  delete form.dataset.dirty;
  markPrepared(form);
  form.dataset.kind = "normal";
  form.dataset.mode = "derive";
  renumber(form, queue, data, text);
}

// The number after the last game still queued (or the server's next one).
export function renumber(form, queue, data, text) {
  const number = nextNumber(queue, parseInt(form.dataset.next, 10) || 1);
  field(form, "number").value = String(number);
  form.querySelector("h2").textContent = text("Game", { number: number });
  fitSitter(form, number, queue, data);
}

// An empty form made for the next game. A second tap on "Save game" lands on it right
// after the first one queued the game: that tap is ignored instead of queueing an empty
// game (refused, then held). Typing anything makes the form the keeper's (markDirty).
export function markPrepared(form) {
  form.dataset.prepared = "1";
}

export function untouched(form) {
  return Boolean(form.dataset.prepared && !form.dataset.dirty);
}

export function clearAnswers(sheet) {
  sheet.querySelectorAll("#conflict, #notice.error, #notice").forEach((el) => el.remove());
}

// The server would refuse a game without its value (or, typed directly, without every
// player's number): said at once, like the server says it, instead of a held game.
export function missingEntry(form, text) {
  const mode = form.querySelector('[name="mode"]:checked');
  if (mode && mode.value === "direct") {
    const points = form.querySelectorAll('input[name^="p"][type="number"]');
    const empty = Array.prototype.some.call(points, (input) => (
      /^p[1-5]$/.test(input.name) && input.value.trim() === ""
    ));
    return empty ? text("EnterPoints") : "";
  }
  const value = field(form, "value");
  return value && value.value.trim() === "" ? text("EnterValue") : "";
}

export function showFormError(form, message) {
  let errors = form.querySelector("#form-errors");
  if (!errors) {
    errors = document.createElement("div");
    errors.className = "errors";
    errors.id = "form-errors";
    errors.setAttribute("role", "alert");
    form.prepend(errors);
  }
  const line = document.createElement("p");
  line.textContent = message;
  errors.replaceChildren(line);
  errors.scrollIntoView({ block: "nearest" });
}
