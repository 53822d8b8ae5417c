// The keeper's outbox, its logic alone: which game goes next, what an answer of the server
// means for it, when to try again, where a corrected game takes its place, what the strip
// says. No DOM, no fetch, no storage: the browser's modules (outbox.js) and Node's test
// runner (tests/js/) import the same functions.
//
// A queued game ("item"): { id (its client id), replaces (the held game a corrected form
// stands for), number, version (set for a change of a stored game), fields ([name, value]
// pairs as the form sends them), summary, rev, state ("waiting" or "held"), message, theirs,
// created }.

export const FIRST_DELAY = 3000; // the first pause after the server could not be reached
export const MAX_DELAY = 30000;
export const DONE_FOR = 20000; // how long "Everything sent." stays

// crypto.randomUUID exists only in secure contexts (HTTPS, localhost), not on the hall's
// plain http: build a version 4 UUID from getRandomValues, which works everywhere.
export function uuid4() {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.prototype.map.call(bytes, (b) => (b + 0x100).toString(16).slice(1)).join("");
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20),
    hex.slice(20)].join("-");
}

// --- the fields of a game ----------------------------------------------------------------

export function valuesOf(pairs, name) {
  return pairs.filter((p) => p[0] === name).map((p) => p[1]);
}

export function first(pairs, name) {
  return valuesOf(pairs, name)[0] || "";
}

// "N · winners 1, 3 · value 2": what the keeper typed, in words; the points of a derived
// row are the server's business (the rules engine), not repeated here. `data` is the page's
// outbox data (letters, size), `text` fills in its translated texts.
export function summary(pairs, data, text) {
  const kind = first(pairs, "kind") || "normal";
  const parts = [data.letters[kind] || "?"];
  const soloist = first(pairs, "soloist");
  if (kind !== "normal" && soloist) parts.push(text("Soloist", { position: soloist }));
  if (first(pairs, "mode") === "direct") {
    const points = [];
    for (let p = 1; p <= data.size; p++) points.push(first(pairs, "p" + p) || "0");
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

// A game as the keeper saved it, ready for the queue.
export function newItem(pairs, id, replaces, data, text) {
  return {
    id: id,
    replaces: replaces || "",
    number: parseInt(first(pairs, "number"), 10) || 0,
    version: first(pairs, "version"),
    fields: pairs,
    summary: summary(pairs, data, text),
    // Changes with every save of the game, also under the same client id: an answer to an
    // earlier send of it is then out of date (see isCurrent).
    rev: uuid4(),
    state: "waiting",
    message: "",
    created: Date.now(),
  };
}

// --- changing the queue ------------------------------------------------------------------
// Each function returns a new queue; the caller reads the stored queue first and writes the
// result back at once (another tab of the same link may have changed it in between).

export function withChanges(queue, id, changes) {
  return queue.map((item) => (item.id === id ? Object.assign({}, item, changes) : item));
}

export function without(queue, id) {
  return queue.filter((item) => item.id !== id);
}

// A game saved again under its own client id (the form after a refusal keeps it) or from
// the form that replaced a conflicting one takes the place of the held game: same spot in
// the order. Everything else goes to the end. Returns the new queue and the id of the game
// it replaced ("" when it was added).
export function enqueue(queue, item) {
  const result = queue.slice();
  let at = -1;
  result.forEach((queued, index) => {
    if (queued.id === item.id || (item.replaces && queued.id === item.replaces)) at = index;
  });
  if (at < 0) {
    result.push(item);
    return { queue: result, replaced: "" };
  }
  const old = result[at];
  result[at] = item;
  if (!old.version && !item.version) shiftBehind(result, at, item.number - old.number);
  return { queue: result, replaced: old.id };
}

// New games are numbered when they are queued. When the desk removed or added a game
// meanwhile, the server holds the first of them and offers it again as the sheet's next
// game; saved under that number, the new games behind it move along by the same step
// (held 5 saved as 6: the queued 6 and 7 become 7 and 8). Changes of stored games keep
// their numbers. A discarded game moves nothing: the desk's row took its place.
function shiftBehind(queue, at, delta) {
  if (!delta) return;
  for (let i = at + 1; i < queue.length; i++) {
    if (!queue[i].version) queue[i] = renumbered(queue[i], queue[i].number + delta);
  }
}

function renumbered(item, number) {
  const fields = item.fields.map((pair) => (pair[0] === "number" ? ["number", String(number)] : pair));
  return Object.assign({}, item, { number: number, fields: fields, rev: uuid4() });
}

// On load every game is sent again, a held one too: its answer is asked once more.
export function allWaiting(queue) {
  return queue.map((item) => Object.assign({}, item, { state: "waiting" }));
}

// --- what to send next ---------------------------------------------------------------------
// The queue is sent in order, one game at a time; a held game stops it (the games behind it
// wait, their order matters) until the keeper corrects, sends again or discards it.

// The game to send now, or null: nothing queued, or the first game is held.
export function sendable(queue) {
  const head = queue[0];
  return head && head.state !== "held" ? head : null;
}

// A held first game whose answer this page does not have (`answeredHere`: client id ->
// true): the page before a reload held it, or another tab did. It is asked once more, so
// that its conflict box shows here. Returns its id, or "".
export function toAskAgain(queue, answeredHere) {
  const head = queue[0];
  return head && head.state === "held" && !answeredHere[head.id] ? head.id : "";
}

// The game as sent is still in the queue, unchanged. Otherwise the keeper saved it again
// (corrected) or discarded it while it was on the way, and its answer is out of date.
export function isCurrent(queue, item) {
  return queue.some((queued) => queued.id === item.id && queued.rev === item.rev);
}

// The server is busy or a proxy in between failed: try again later.
export function busy(status) {
  return status === 408 || status === 429 || status >= 500;
}

// What an answer to a sent game means:
//   "stored"  2xx: the game is on the list, it leaves the queue;
//   "held"    409 (the desk changed the sheet meanwhile) or 422 (refused): the keeper decides;
//   "retry"   busy: keep it, try again after a pause;
//   "closed"  410: the round was closed meanwhile;
//   "refused" anything else (403 twice, 404): sending again will not help, it is held.
export function outcome(status) {
  if (status >= 200 && status < 300) return "stored";
  if (status === 409 || status === 422) return "held";
  if (busy(status)) return "retry";
  if (status === 410) return "closed";
  return "refused";
}

// No answer: a growing pause before the next try, 3 s doubling up to 30 s.
export function nextDelay(delay) {
  return Math.min(MAX_DELAY, delay ? delay * 2 : FIRST_DELAY);
}

// The queue in another tab's storage event got shorter: that tab sent games.
export function shorter(before, after) {
  try {
    return (JSON.parse(before) || []).length > (JSON.parse(after) || []).length;
  } catch {
    return false;
  }
}

// --- the next game -------------------------------------------------------------------------

// The number after the last new game still queued, or the server's next one.
export function nextNumber(queue, next) {
  let number = next;
  queue.forEach((item) => {
    if (!item.version && item.number >= number) number = item.number + 1;
  });
  return number;
}

// Who deals the game after one of `kind`: the deal moves on clockwise (TSR 3.3.1), except
// that the same player deals again after a Pflichtsolo or a vorgeführtes one when the rule
// profile says so (`repeats`: kind -> true; TSR 4.2). The server's rule is
// scoring/ledger.py (walk); this is its only copy in JavaScript.
export function nextDealer(dealer, kind, size, repeats) {
  return repeats[kind] ? dealer : (dealer % size) + 1;
}

// At a 5-table the dealer sits out. The dealer of game `number` follows from the server's
// next game (`from`) and its dealer and the kinds of the new games queued before `number`.
// Only a guess (a vorgeführtes Pflichtsolo can move the deal): the server checks every game
// on arrival.
export function predictedDealer(queue, { dealer, from, number, size, repeats }) {
  let result = dealer;
  queue.forEach((item) => {
    if (item.version || item.number < from || item.number >= number) return;
    result = nextDealer(result, first(item.fields, "kind"), size, repeats);
  });
  return result;
}

// --- what the strip says ---------------------------------------------------------------

export function offlineText(count, text) {
  if (count === 0) return text("OfflineNone");
  if (count === 1) return text("OfflineOne");
  return text("OfflineMany", { count: count });
}

// The strip above the sheet says in plain words where the games are. `state`: answerKept
// (the held game's answer waits behind "Show"), answerShown (an answer is in the sheet
// below), offline, actionFailed, backlog, sentRecently, trouble (storage failed). Returns
// { kind, lines, buttons: [[action, label], ...] }; no lines: the strip hides.
export function strip(queue, state, text) {
  const head = queue[0];
  let kind = "info";
  const lines = [];
  const buttons = [];
  if (head && head.state === "held") {
    kind = "error";
    // The answer in the sheet below says the details; the strip only when it is not shown.
    const below = !state.answerKept && state.answerShown;
    lines.push(below ? text("HeldBelow", { number: head.number })
      : text("Held", { number: head.number, message: head.message }));
    lines.push(text("HeldHint"));
    if (queue.length > 1) lines.push(text("Waiting", { count: queue.length - 1 }));
    if (state.answerKept) buttons.push(["show", text("Show")]);
    buttons.push(["resend", text("SendAgain")]);
    buttons.push(["discard", text("Discard", { number: head.number })]);
  } else if (state.offline || state.actionFailed) {
    kind = "warning";
    if (state.actionFailed) lines.push(text("ActionFailed"));
    if (state.offline && (queue.length || !state.actionFailed)) {
      lines.push(offlineText(queue.length, text));
    }
  } else if (queue.length && state.backlog) {
    lines.push(text("Sending", { count: queue.length }));
  } else if (!queue.length && state.sentRecently) {
    kind = "done";
    lines.push(text("Done"));
  }
  // Said as long as the page is open: closing it would lose the games not sent yet.
  if (state.trouble) {
    lines.unshift(text("NoStorage"));
    if (kind === "info" || kind === "done") kind = "warning";
  }
  return { kind: kind, lines: lines, buttons: buttons };
}

// A queued game as a row of the sheet: "Change game 3 · N · winners 1, 2 · value 1 — <state>".
export function rowText(item, stateText, text) {
  return (item.version ? text("Change", { number: item.number }) + " · " : "") +
    item.summary + " — " + stateText;
}

// Say what is true about the sheet when the keeper drops a held game: a version stored by
// somebody else stays, as does a stored game whose change was refused; only a new game
// that was refused is not on the list at all.
export function discardQuestion(head, text) {
  const values = { number: head.number };
  if (head.theirs === "stored") return text("DiscardStored", values);
  if (head.theirs === "removed") return text("DiscardRemoved", values);
  if (head.version) return text("DiscardChange", values);
  return text("DiscardConfirm", values);
}
