// The list keeper's outbox. A phone at the table loses the hall's WLAN now and then, and a
// game saved in that moment must not be lost. So every game saved on the phone page goes
// through a queue kept in localStorage (one per table link), online or not: one code path,
// which every online save exercises too. The queue is sent in order, one game at a time.
// The server recognises a game sent twice by its client id, so sending again is always safe:
// an answer lost on the way only means the game is sent once more.
//
// No service worker: it needs HTTPS or localhost, and a hall serves plain http on a LAN
// name. The queue is shown and sent whenever the page is open, also after the tab was
// closed and the link opened again.
//
// This module ties the page together: the keeper's taps, the browser's events, the sending.
// The rest lives beside it, as ES modules (keeper.html loads this one with type="module"):
//   outbox-queue.js  the logic alone (what to send next, what an answer means, the dealer
//                    rule, what the strip says): no DOM, no fetch, no storage; tests/js/
//   outbox-store.js  storage, and the choice of the sending tab when the link is open twice
//   outbox-view.js   the rows, the strip, the blocked buttons, the prepared game form
//   outbox-net.js    the requests and what is read from the server's answers

import {
  allWaiting, busy, discardQuestion, DONE_FOR, enqueue, isCurrent, newItem, nextDelay, outcome,
  sendable, shorter, strip, toAskAgain, uuid4, withChanges, without,
} from "./outbox-queue.js";
import { createStore } from "./outbox-store.js";
import {
  answerShown, clearAnswers, field, fieldsOf, gameForm, isEdit, markPrepared, missingEntry,
  placeHeader, prepareNext, renderBlocks, renderRows, renderStrip, renumber, showFormError,
  showKept, texts, untouched,
} from "./outbox-view.js";
import { fetchSheet, messageOf, post, theirsOf, TIMEOUT } from "./outbox-net.js";

const box = document.getElementById("outbox");
const sheet = document.getElementById("sheet");
const dataNode = document.getElementById("outbox-data");

let data = null;
let text = null;
let store = null;
let ACTION = "";
let KEY = "";
let sending = false; // one flush at a time: the order of the games matters
let posting = false; // a game of this tab is on the way: its answer brings the sheet
let retryTimer = null;
let refreshTimer = null;
let delay = 0;
let offline = false; // the last attempt to reach the server failed
let backlog = false; // games had to wait: say so when they are through
let actionFailed = false; // a tap that is not queued (remove, submit, ...) did not arrive
const heldAnswers = {}; // client id -> the server's answer, kept while the keeper types
// Held games whose answer this page has (it asked, or was told, here). A game held by a page
// before a reload (or by another tab) is asked once more, so that its conflict box shows.
const answeredHere = {};
let parked = null; // a half-typed game form, put aside while a held game's answer is shown

// --- the queue ---------------------------------------------------------------------------
// Every change reads the queue from storage first and writes it back at once: another tab
// of the same link may have changed it in between.

function load() { return store.load(); }

function save(queue) { store.save(queue); }

function update(id, changes) { save(withChanges(load(), id, changes)); }

function remove(id) { save(without(load(), id)); }

function add(item) {
  const result = enqueue(load(), item);
  if (result.replaced) delete heldAnswers[result.replaced];
  save(result.queue);
}

function sentRecently() { return Date.now() - store.sentAt() < DONE_FOR; }

function markSent() {
  store.setSent(Date.now());
  setTimeout(render, DONE_FOR + 100);
}

function forgetSent() { store.setSent(0); }

// --- the game form -------------------------------------------------------------------------

function itemFrom(form) {
  const id = field(form, "client_id");
  if (!id.value) id.value = uuid4();
  return newItem(fieldsOf(form), id.value, form.dataset.replaces, data, text);
}

function prepare(form) { prepareNext(form, load(), data, text, uuid4()); }

// The half-typed game put aside by "Show" comes back once the held game is dealt with,
// numbered after the games queued by then.
function restoreParked(form) {
  if (!parked) return false;
  const draft = parked;
  parked = null;
  if (!isEdit(draft)) {
    draft.dataset.next = form.dataset.next;
    draft.dataset.dealer = form.dataset.dealer;
  }
  form.replaceWith(draft);
  if (!isEdit(draft)) renumber(draft, load(), data, text);
  document.dispatchEvent(new CustomEvent("outbox:swapped"));
  return true;
}

function prepareOrRestore(form) {
  if (!restoreParked(form)) prepare(form);
}

// The server's form is kept when it is a change of a game, or the answer to a held game.
function shouldPrepare(form) {
  return !isEdit(form) && sendable(load()) !== null;
}

// --- showing the queue ---------------------------------------------------------------------

function render() {
  const queue = load();
  const head = queue[0];
  renderRows(queue, text);
  renderStrip(box, strip(queue, {
    answerKept: Boolean(head && heldAnswers[head.id]),
    answerShown: answerShown(),
    offline: offline,
    actionFailed: actionFailed,
    backlog: backlog,
    sentRecently: sentRecently(),
    trouble: store.trouble(),
  }, text));
  renderBlocks(queue, text);
}

// --- sending -------------------------------------------------------------------------------

function flush() {
  clearTimeout(retryTimer);
  retryTimer = null;
  if (sending) return;
  const again = toAskAgain(load(), answeredHere); // as stored now: another tab may have changed it
  if (again) {
    // Held where this page cannot show why (its answer was in the memory of the page
    // before a reload, which may even have written "held" after this page started): ask
    // again, once.
    answeredHere[again] = true;
    update(again, { state: "waiting" });
  }
  if (!sendable(load())) {
    store.releaseLease(); // nothing to send: another tab may take over
    render();
    return;
  }
  sending = true; // also while the lease is claimed: one flush at a time
  store.claimLease((mine) => {
    if (mine) {
      send();
    } else {
      sending = false;
      waitForSender();
    }
  });
}

function send() {
  const queue = load(); // claiming took a moment: read again
  const head = sendable(queue);
  if (!head) {
    sending = false;
    flush();
    return;
  }
  if (queue.length > 1 || offline) backlog = true;
  render();
  posting = true;
  post(ACTION, head, false).then((answer) => {
    sending = posting = false;
    answered(head, answer);
  }, () => {
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

function answered(item, answer) {
  if (!isCurrent(load(), item)) {
    outdated(answer);
    return;
  }
  const result = outcome(answer.status);
  if (result === "stored") {
    reachable();
    remove(item.id);
    if (!load().length && backlog) {
      backlog = false;
      markSent();
    }
    swapIn(answer.html, true);
    if (answer.url) window.history.replaceState(window.history.state, "", answer.url);
    flush();
  } else if (result === "held") {
    // A conflict (the desk changed the sheet meanwhile) or a refusal: the keeper decides.
    // The games behind it wait, their order matters.
    reachable();
    hold(item, messageOf(answer.html), answer.html, answer.status === 409 ? theirsOf(answer.html) : "");
  } else if (result === "retry") {
    unreachable(); // the server is busy or a proxy in between failed: try again later
  } else if (result === "closed") {
    // The round was closed meanwhile: the page shows itself as closed, with what this
    // phone still holds (see showKept).
    store.releaseLease();
    window.location.reload();
  } else {
    reachable(); // 403 twice, 404 (the round is over): sending again will not help
    hold(item, text("Refused", { status: answer.status }), null);
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
  if (outcome(answer.status) === "stored") swapIn(answer.html, true);
  flush();
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
  delay = nextDelay(delay);
  clearTimeout(retryTimer);
  retryTimer = setTimeout(flush, delay);
  render();
}

function hold(item, message, html, theirs) {
  answeredHere[item.id] = true;
  update(item.id, { state: "held", message: message, theirs: theirs || "" });
  store.releaseLease();
  if (html !== null) {
    const form = gameForm();
    if (form && form.dataset.dirty) heldAnswers[item.id] = html; // shown on request
    else showHeld(item.id, html);
  }
  render();
}

// Today's conflict box, or the form with its error: saving that form resolves the held game.
// A game the keeper had started to type is put aside meanwhile (restoreParked).
function showHeld(id, html) {
  const draft = gameForm();
  if (draft && draft.dataset.dirty) parked = draft;
  delete heldAnswers[id];
  swapIn(html, false);
  const form = gameForm();
  if (form) form.dataset.replaces = id;
  const answer = sheet.querySelector("#conflict, #form-errors, #notice");
  if (answer) answer.scrollIntoView({ block: "center" });
}

// Put the server's answer into the page as htmx would. A game the keeper has started to
// type is never thrown away: that form moves over into the new sheet.
function swapIn(html, keepDraft) {
  const old = gameForm();
  const draft = keepDraft && old && old.dataset.dirty ? old : null;
  sheet.innerHTML = html;
  const fresh = gameForm();
  if (draft && fresh) {
    if (!isEdit(draft)) {
      draft.dataset.next = fresh.dataset.next;
      draft.dataset.dealer = fresh.dataset.dealer;
    }
    fresh.replaceWith(draft);
  } else if (fresh && shouldPrepare(fresh)) {
    prepare(fresh);
  } else if (fresh && keepDraft && !isEdit(fresh)) {
    markPrepared(fresh); // the server's empty form after a save: a double tap lands here
  }
  window.htmx.process(sheet);
  document.dispatchEvent(new CustomEvent("outbox:swapped"));
  render();
}

// --- the keeper's taps -----------------------------------------------------------------------

function onSubmit(event) {
  const form = event.target;
  if (form.id !== "game-form" || event.defaultPrevented) return;
  event.preventDefault();
  if (untouched(form)) return; // the second tap of a double tap: nothing entered
  const missing = missingEntry(form, text);
  if (missing) { // nothing to send yet: say what is missing, keep nothing on the phone
    showFormError(form, missing);
    return;
  }
  add(itemFrom(form));
  forgetSent();
  clearAnswers(sheet);
  prepareOrRestore(form);
  render();
  flush();
}

function markDirty(event) {
  const form = event.target.closest && event.target.closest("#game-form");
  if (form) form.dataset.dirty = "1";
}

function onStripClick(event) {
  const button = event.target.closest("button[data-outbox]");
  const head = load()[0];
  if (!button || !head) return;
  const action = button.dataset.outbox;
  if (action === "show" && heldAnswers[head.id]) {
    showHeld(head.id, heldAnswers[head.id]);
  } else if (action === "resend") {
    update(head.id, { state: "waiting", message: "" });
    flush();
  } else if (action === "discard" && window.confirm(discardQuestion(head, text))) {
    remove(head.id);
    delete heldAnswers[head.id];
    const form = gameForm();
    if (form && (form.dataset.replaces === head.id || field(form, "client_id").value === head.id)) {
      clearAnswers(sheet);
      prepareOrRestore(form);
    }
    flush();
  }
  render();
}

// --- the other requests of the page (htmx): remove, submit, call, poll -----------------------

function isPoll(event) {
  return Boolean(event.detail && event.detail.elt && event.detail.elt.id === "sheet-status-wrap");
}

// These are not queued: when they do not arrive the keeper is told to try again.
function requestFailed(event) {
  offline = true;
  if (!isPoll(event)) actionFailed = true;
  render();
}

// An empty form for the next game follows the games the other tab queued.
function renumberUntouched() {
  const form = gameForm();
  if (!form || isEdit(form) || form.dataset.dirty || form.dataset.replaces) return;
  if (sheet.querySelector("#conflict, #form-errors, #notice.error")) return;
  prepare(form);
}

function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refreshSheet, 500);
}

// The sheet as the server has it now. A form showing a change or a held game's answer is
// the keeper's business and stays; a half-typed game is carried over by swapIn.
function refreshSheet() {
  const form = gameForm();
  if (posting || (form && (isEdit(form) || form.dataset.replaces))) return;
  fetchSheet(ACTION).then((answer) => {
    const now = gameForm();
    if (answer.status === 200 && !posting && now === form) swapIn(answer.html, true);
  }, () => { /* the next save brings the sheet */ });
}

function listen() {
  if (window.ResizeObserver) new ResizeObserver(() => placeHeader(box)).observe(box);
  document.addEventListener("htmx:afterSwap", () => placeHeader(box));
  document.addEventListener("outbox:swapped", () => placeHeader(box));

  document.addEventListener("submit", onSubmit);
  document.addEventListener("input", markDirty);
  document.addEventListener("change", markDirty);
  box.addEventListener("click", onStripClick);

  window.htmx.config.timeout = TIMEOUT;
  document.addEventListener("htmx:sendError", requestFailed);
  document.addEventListener("htmx:timeout", requestFailed);
  document.addEventListener("htmx:responseError", (event) => {
    if (!isPoll(event)) actionFailed = true;
    render();
  });
  // Any answer proves the server is reachable again: send what waits, without waiting for
  // the next retry (the status strip polls every 30 s, so this also notices a silent return).
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!event.detail.successful) return;
    if (!isPoll(event)) actionFailed = false;
    if (offline) {
      reachable();
      flush();
    }
    render();
  });
  // A swap by htmx (a change opened, the last game removed) rewrote the rows and the form.
  document.addEventListener("htmx:afterSwap", (event) => {
    if (!event.detail.target || event.detail.target.id !== "sheet") return;
    const form = gameForm();
    if (form && shouldPrepare(form)) prepare(form);
    render();
  });

  window.addEventListener("online", () => {
    if (!load().length) offline = false;
    delay = 0;
    flush();
  });
  window.addEventListener("offline", () => {
    offline = true;
    render();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") flush();
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) flush();
  });
  // Another tab of the same link changed the queue: show it, send what it queued (when this
  // tab is the sender or none is), and fetch the sheet when the other tab sent games.
  window.addEventListener("storage", (event) => {
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
  window.addEventListener("pagehide", () => store.releaseLease());
}

// On load: show what waits and send it. A held game is asked again, so that its conflict
// box or error shows once more; the form continues after the last queued game. Not while
// another tab of the link is sending: that tab has the answers.
function start() {
  if (!load().length) {
    render();
    return;
  }
  backlog = true;
  const form = gameForm();
  if (form && !isEdit(form)) prepare(form);
  render();
  store.claimLease((mine) => {
    if (mine) save(allWaiting(load()));
    flush();
  });
}

// Without fetch the form simply posts the page, as it does without JavaScript.
if (box && sheet && dataNode && window.fetch && window.URLSearchParams) {
  data = JSON.parse(dataNode.textContent);
  text = texts(box);
  KEY = box.dataset.key;
  ACTION = box.dataset.action;
  store = createStore(KEY, uuid4());
  if (box.dataset.closed) {
    showKept(box, load(), text);
  } else {
    listen();
    start();
  }
}
