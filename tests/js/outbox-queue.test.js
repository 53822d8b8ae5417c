// The keeper phone's queue logic (tournament/static/tournament/outbox-queue.js), as the list
// keeper relies on it: games go out in the order they were saved, a game is never queued
// twice, a held game stops the queue and is asked again after a reload, a 409 waits for the
// keeper, and the phone tries again after growing pauses. Run: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  allWaiting, discardQuestion, enqueue, isCurrent, MAX_DELAY, newItem, nextDealer,
  nextDelay, nextNumber, outcome, predictedDealer, sendable, shorter, strip, summary,
  toAskAgain, uuid4, withChanges, without,
} from "../../tournament/static/tournament/outbox-queue.js";

// The page's texts (keeper.html's data-text-*), here as their names with the values.
function text(name, values) {
  return values ? name + " " + JSON.stringify(values) : name;
}

const DATA = { size: 4, letters: { normal: "N", pflichtsolo: "P", lustsolo: "L" } };
const DDV_REPEATS = { pflichtsolo: true, vorgefuehrt: false };

function game(number, { kind = "normal", winners = ["1", "2"], value = "1", version = "" } = {}) {
  const pairs = [["number", String(number)], ["kind", kind], ["mode", "derive"],
    ...winners.map((w) => ["winners", w]), ["value", value], ["version", version]];
  return newItem(pairs, uuid4(), "", DATA, text);
}

function numbers(queue) {
  return queue.map((item) => item.number);
}

describe("the order of sending", () => {
  test("games go out in the order they were saved, one at a time", () => {
    let queue = [];
    const [a, b, c] = [game(1), game(2), game(3)];
    for (const item of [a, b, c]) queue = enqueue(queue, item).queue;
    assert.equal(sendable(queue), a);
    queue = without(queue, a.id); // stored: it leaves the queue
    assert.equal(sendable(queue), b);
    queue = without(queue, b.id);
    assert.equal(sendable(queue), c);
    assert.equal(sendable(without(queue, c.id)), null);
  });

  test("a held game stops the queue: the games behind it wait", () => {
    let queue = [game(1), game(2)];
    queue = withChanges(queue, queue[0].id, { state: "held", message: "Konflikt" });
    assert.equal(sendable(queue), null);
    assert.deepEqual(queue.map((item) => item.state), ["held", "waiting"]);
  });

  test("the next game is numbered after the new games still queued, not after changes", () => {
    const queue = [game(4), game(5), game(2, { version: "7" })];
    assert.equal(nextNumber(queue, 4), 6);
    assert.equal(nextNumber([], 4), 4);
    assert.equal(nextNumber([game(2, { version: "7" })], 4), 4);
  });
});

describe("a game is not queued or stored twice", () => {
  test("saved again under its client id, a game takes its own place", () => {
    const [a, b] = [game(1), game(2)];
    let queue = enqueue(enqueue([], a).queue, b).queue;
    const corrected = Object.assign(game(1, { value: "3" }), { id: a.id });
    const result = enqueue(queue, corrected);
    queue = result.queue;
    assert.equal(result.replaced, a.id);
    assert.deepEqual(queue.map((item) => item.id), [a.id, b.id]);
    assert.equal(queue[0].summary, "N · Winners {\"positions\":\"1, 2\"} · Value {\"value\":\"3\"}");
  });

  test("an answer to an earlier send of a game saved again since is out of date", () => {
    const sent = game(1);
    const queue = enqueue([sent], Object.assign(game(1, { value: "2" }), { id: sent.id })).queue;
    assert.equal(isCurrent([sent], sent), true);
    assert.equal(isCurrent(queue, sent), false); // neither holds nor removes the new one
    assert.equal(isCurrent([], sent), false); // discarded while on the way
  });

  test("every saved game gets its own client id", () => {
    const ids = new Set(Array.from({ length: 50 }, () => uuid4()));
    assert.equal(ids.size, 50);
    for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("a held game", () => {
  test("after a reload it is asked once more, so that its conflict box shows", () => {
    const queue = [game(1), game(2)];
    const held = withChanges(queue, queue[0].id, { state: "held" });
    assert.equal(toAskAgain(held, {}), queue[0].id); // the answer was the old page's
    assert.equal(toAskAgain(held, { [queue[0].id]: true }), ""); // this page has it
    assert.equal(toAskAgain(queue, {}), ""); // nothing held
    assert.equal(toAskAgain([], {}), "");
  });

  test("on load every game waits to be sent again", () => {
    const queue = [game(1), game(2)];
    const held = withChanges(queue, queue[0].id, { state: "held" });
    assert.deepEqual(allWaiting(held).map((item) => item.state), ["waiting", "waiting"]);
    assert.equal(held[0].state, "held"); // the stored queue is changed only when saved
  });

  test("its correction from the conflict form takes its place; new games behind move along", () => {
    // Game 5 held (the desk added a game meanwhile): the keeper saves it as 6, so the
    // queued 6 and 7 become 7 and 8; a change of stored game 2 keeps its number.
    const queue = [game(5), game(6), game(2, { version: "3" }), game(7)];
    const corrected = Object.assign(game(6), { replaces: queue[0].id });
    const result = enqueue(withChanges(queue, queue[0].id, { state: "held" }), corrected);
    assert.equal(result.replaced, queue[0].id);
    assert.deepEqual(numbers(result.queue), [6, 7, 2, 8]);
    assert.deepEqual(result.queue[1].fields[0], ["number", "7"]);
    assert.notEqual(result.queue[1].rev, queue[1].rev); // a send of the old 6 is out of date
    assert.equal(result.queue[2].rev, queue[2].rev);
  });

  test("discarding it says what stays on the list", () => {
    const head = game(3);
    assert.equal(discardQuestion({ ...head, theirs: "stored" }, text), 'DiscardStored {"number":3}');
    assert.equal(discardQuestion({ ...head, theirs: "removed" }, text), 'DiscardRemoved {"number":3}');
    assert.equal(discardQuestion(game(3, { version: "2" }), text), 'DiscardChange {"number":3}');
    assert.equal(discardQuestion(head, text), 'DiscardConfirm {"number":3}');
  });
});

describe("the server's answer", () => {
  test("stored: the game leaves the queue", () => {
    for (const status of [200, 201, 204]) assert.equal(outcome(status), "stored");
  });

  test("a conflict (409) or a refusal (422) holds the game for the keeper", () => {
    assert.equal(outcome(409), "held");
    assert.equal(outcome(422), "held");
  });

  test("a busy server or a failing proxy: try again later", () => {
    for (const status of [408, 429, 500, 502, 503, 504]) assert.equal(outcome(status), "retry");
  });

  test("a closed round, and answers where sending again will not help", () => {
    assert.equal(outcome(410), "closed");
    assert.equal(outcome(403), "refused");
    assert.equal(outcome(404), "refused");
  });

  test("no answer: the pauses grow from 3 s to at most 30 s, and start over once reached", () => {
    const pauses = [];
    let delay = 0;
    for (let i = 0; i < 7; i++) pauses.push((delay = nextDelay(delay)));
    assert.deepEqual(pauses, [3000, 6000, 12000, 24000, 30000, 30000, 30000]);
    assert.equal(MAX_DELAY, 30000);
    assert.equal(nextDelay(0), 3000); // reachable again resets the delay to 0
  });

  test("another tab sent games when its queue got shorter", () => {
    assert.equal(shorter('[{"id":"a"},{"id":"b"}]', '[{"id":"b"}]'), true);
    assert.equal(shorter('[{"id":"a"}]', '[{"id":"a"},{"id":"b"}]'), false);
    assert.equal(shorter('[{"id":"a"}]', null), true);
    assert.equal(shorter("{damaged", "[]"), false);
  });
});

describe("the dealer (TSR 3.3.1, 4.2; scoring/ledger.py)", () => {
  test("the deal moves on clockwise, from the last position to the first", () => {
    assert.equal(nextDealer(1, "normal", 4, DDV_REPEATS), 2);
    assert.equal(nextDealer(4, "normal", 4, DDV_REPEATS), 1);
    assert.equal(nextDealer(5, "lustsolo", 5, DDV_REPEATS), 1);
  });

  test("after a Pflichtsolo the dealer deals again when the profile says so", () => {
    assert.equal(nextDealer(3, "pflichtsolo", 5, DDV_REPEATS), 3);
    assert.equal(nextDealer(3, "vorgefuehrt", 5, DDV_REPEATS), 4);
    assert.equal(nextDealer(3, "pflichtsolo", 5, {}), 4);
  });

  test("who sits out at a 5-table follows from the new games queued before", () => {
    const queue = [game(3), game(4, { kind: "pflichtsolo" }), game(5), game(1, { version: "9" })];
    const at = (number) => predictedDealer(queue, { dealer: 2, from: 3, number, size: 5, repeats: DDV_REPEATS });
    assert.deepEqual([3, 4, 5, 6].map(at), [2, 3, 3, 4]);
  });
});

describe("what the keeper reads", () => {
  test("a game in words: kind, winners or soloist, value; typed points as they are", () => {
    const normal = [["kind", "normal"], ["mode", "derive"], ["winners", "1"], ["winners", "3"], ["value", "2"]];
    assert.equal(summary(normal, DATA, text), 'N · Winners {"positions":"1, 3"} · Value {"value":"2"}');
    const solo = [["kind", "pflichtsolo"], ["soloist", "2"], ["result", "won"], ["value", "4"]];
    assert.equal(summary(solo, DATA, text), 'P · Soloist {"position":"2"} · Won · Value {"value":"4"}');
    const direct = [["kind", "normal"], ["mode", "direct"], ["p1", "3"], ["p2", "-3"], ["p4", "1"]];
    assert.equal(summary(direct, DATA, text), "N · 3 / -3 / 0 / 1");
  });

  test("the strip: offline with the count of games not sent", () => {
    const two = [game(1), game(2)];
    const shown = strip(two, { offline: true }, text);
    assert.equal(shown.kind, "warning");
    assert.deepEqual(shown.lines, ['OfflineMany {"count":2}']);
    assert.deepEqual(strip([two[0]], { offline: true }, text).lines, ["OfflineOne"]);
    assert.deepEqual(strip([], { offline: true }, text).lines, ["OfflineNone"]);
  });

  test("the strip: a held game names the game, the games behind it, and what to do", () => {
    const queue = [game(1), game(2)];
    queue[0] = { ...queue[0], state: "held", message: "Spiel 1 ist schon gespeichert." };
    const told = strip(queue, { offline: true }, text);
    assert.equal(told.kind, "error");
    assert.deepEqual(told.lines, [
      'Held {"number":1,"message":"Spiel 1 ist schon gespeichert."}', "HeldHint",
      'Waiting {"count":1}',
    ]);
    assert.deepEqual(told.buttons.map((b) => b[0]), ["resend", "discard"]);
    // The conflict box is in the sheet below: the strip points there.
    assert.equal(strip(queue, { answerShown: true }, text).lines[0], 'HeldBelow {"number":1}');
    // The keeper was typing when the answer came: it waits behind "Show".
    const kept = strip(queue, { answerKept: true, answerShown: true }, text);
    assert.deepEqual(kept.buttons.map((b) => b[0]), ["show", "resend", "discard"]);
    assert.match(kept.lines[0], /^Held /);
  });

  test("the strip: sending, then everything sent, and a warning while nothing can be stored", () => {
    assert.deepEqual(strip([game(1)], { backlog: true }, text).lines, ['Sending {"count":1}']);
    assert.deepEqual(strip([], { sentRecently: true }, text), { kind: "done", lines: ["Done"], buttons: [] });
    assert.deepEqual(strip([], {}, text).lines, []); // nothing to say: the strip hides
    const trouble = strip([], { sentRecently: true, trouble: true }, text);
    assert.deepEqual(trouble, { kind: "warning", lines: ["NoStorage", "Done"], buttons: [] });
  });
});
