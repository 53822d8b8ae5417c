// Where the keeper phone keeps its queue (tournament/static/tournament/outbox-store.js):
// nothing is lost when the phone cannot store it, a damaged entry is set aside instead of
// overwritten, and of two tabs of the same link only one sends. Run: node --test tests/js/
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";

import { createStore } from "../../tournament/static/tournament/outbox-store.js";

const KEY = "kreuzdame-outbox-abc";

// localStorage as a phone has it: shared by the tabs, and refusing writes when `full`.
function phoneStorage() {
  const items = new Map();
  return {
    full: false,
    items,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem(key, value) {
      if (this.full) throw new Error("QuotaExceededError");
      items.set(key, String(value));
    },
    removeItem: (key) => items.delete(key),
  };
}

const GAMES = [{ id: "a", number: 1, state: "waiting" }, { id: "b", number: 2, state: "waiting" }];

describe("nothing is lost when a save fails", () => {
  test("a full phone keeps the queue in the page and says so; the next write that fits stores it", () => {
    const storage = phoneStorage();
    const store = createStore(KEY, "tab-1", () => storage);
    storage.full = true;
    store.save(GAMES);
    assert.deepEqual(store.load(), GAMES);
    assert.equal(store.trouble(), true);
    storage.full = false;
    store.save([GAMES[1]]);
    assert.deepEqual(JSON.parse(storage.getItem(KEY)), [GAMES[1]]);
    assert.equal(store.trouble(), true); // the keeper has been told: it stays said
  });

  test("storage switched off altogether: the queue lives in the page", () => {
    const store = createStore(KEY, "tab-1", () => { throw new Error("SecurityError"); });
    assert.deepEqual(store.load(), []);
    store.save(GAMES);
    assert.deepEqual(store.load(), GAMES);
    assert.equal(store.trouble(), true);
  });

  test("a damaged entry is moved aside before anything is written over it", () => {
    const storage = phoneStorage();
    storage.setItem(KEY, "{not a queue");
    const store = createStore(KEY, "tab-1", () => storage);
    assert.deepEqual(store.load(), []);
    store.save(GAMES);
    const broken = [...storage.items.keys()].filter((key) => key.startsWith(KEY + ":broken:"));
    assert.equal(broken.length, 1);
    assert.equal(storage.getItem(broken[0]), "{not a queue");
    assert.deepEqual(JSON.parse(storage.getItem(KEY)), GAMES);
  });

  test("the queue outlives the page: another page of the link reads it", () => {
    const storage = phoneStorage();
    createStore(KEY, "tab-1", () => storage).save(GAMES);
    assert.deepEqual(createStore(KEY, "tab-2", () => storage).load(), GAMES);
  });
});

describe("only one tab of the link sends", () => {
  // The page's timers and clock, moved on by the test (tick).
  let now = 0;
  beforeEach(() => {
    now = 1_800_000_000_000;
    mock.timers.enable({ apis: ["setTimeout", "setInterval"] });
    mock.method(Date, "now", () => now);
  });
  afterEach(() => {
    mock.timers.reset();
    mock.restoreAll();
  });

  function tick(ms) {
    now += ms;
    mock.timers.tick(ms);
  }

  function claim(store) {
    const answers = [];
    store.claimLease((mine) => answers.push(mine));
    return answers;
  }

  test("the first tab takes the lease; a second one waits while the first answers the roll call", () => {
    const storage = phoneStorage();
    const first = createStore(KEY, "tab-1", () => storage);
    const second = createStore(KEY, "tab-2", () => storage);
    const firstAnswers = claim(first);
    tick(200);
    assert.deepEqual(firstAnswers, [true]);
    const secondAnswers = claim(second);
    // The roll call reaches the first tab as a storage event: it renews its lease at once.
    tick(1);
    first.answerRollCall({ key: KEY + ":roll-call", newValue: storage.getItem(KEY + ":roll-call") });
    tick(1000);
    assert.deepEqual(secondAnswers, [false]);
    first.releaseLease();
  });

  test("a tab that is gone without a word is taken over after the roll call", () => {
    const storage = phoneStorage();
    const gone = createStore(KEY, "tab-1", () => storage);
    claim(gone);
    tick(200);
    const answers = claim(createStore(KEY, "tab-2", () => storage));
    tick(700); // nobody answers the roll call ...
    assert.deepEqual(answers, []);
    tick(200); // ... so the second tab takes the lease, and reads it back
    assert.deepEqual(answers, [true]);
    assert.equal(JSON.parse(storage.getItem(KEY + ":sender")).tab, "tab-2");
  });

  test("a released lease is free at once", () => {
    const storage = phoneStorage();
    const first = createStore(KEY, "tab-1", () => storage);
    claim(first);
    tick(200);
    first.releaseLease();
    assert.equal(storage.getItem(KEY + ":sender"), null);
    const answers = claim(createStore(KEY, "tab-2", () => storage));
    tick(200);
    assert.deepEqual(answers, [true]);
  });
});
