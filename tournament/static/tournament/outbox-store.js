// Where the keeper's outbox (outbox.js) keeps its queue, and which tab may send it.
//
// The queue lives in localStorage, so that it outlives a closed tab. localStorage can fail:
// a private window or a full phone refuses writes, an old or damaged entry cannot be read.
// Then the queue is kept in this page's memory and the keeper is told (trouble()), because
// closing the page would lose the games. A damaged entry is never overwritten: it is moved
// to a backup key first, so that nobody's games vanish without a trace.
//
// Two tabs of the same link share the queue. Only one of them sends, the one holding the
// "sender" lease: a key with the tab's id and a timestamp, renewed every few seconds while
// the tab has games to send. A lease not renewed for 15 s (tab closed, phone asleep) is free
// for another tab. A tab that finds a fresh lease of another tab first asks whether that tab
// is still there (a "roll call" key): a live sender answers by renewing its lease at once, a
// tab the phone killed without "pagehide" cannot, and the asking tab takes over after
// ROLL_CALL instead of waiting for the lease to go stale. navigator.locks would be cleaner
// but exists only in secure contexts, and the hall serves plain http.
var LEASE_STALE = 15000;
var LEASE_BEAT = 5000;
var SETTLE = 150; // ms until a write to localStorage has reached the other tabs
var ROLL_CALL = 600; // ms a live sender has to answer (a storage event, then one write)

// `storage` hands out the Storage to use (a test gives its own); calling it may itself throw
// (storage disabled).
export function createStore(key, tabId, storage = () => window.localStorage) {
  var SENT_KEY = key + ":sent";
  var LEASE_KEY = key + ":sender";
  var ROLL_CALL_KEY = key + ":roll-call";
  var memory = null; // the queue while localStorage cannot hold it
  var troubled = false; // the keeper has been told: lasts as long as the page
  var beat = null;

  function toMemory(queue) {
    memory = queue.slice();
    troubled = true;
  }

  // A damaged entry goes to "<key>:broken:<time>" before anything else is written. When
  // even that fails, the entry stays as it is and the queue lives in memory.
  function setAside(raw) {
    try {
      storage().setItem(key + ":broken:" + Date.now(), raw);
      storage().removeItem(key);
      return true;
    } catch {
      return false;
    }
  }

  function load() {
    if (memory !== null) return memory.slice();
    var raw;
    try {
      raw = storage().getItem(key);
    } catch {
      toMemory([]);
      return [];
    }
    if (raw === null) return [];
    var queue = null;
    try {
      queue = JSON.parse(raw);
    } catch { /* damaged: set aside below */ }
    if (Array.isArray(queue)) return queue;
    if (!setAside(raw)) toMemory([]);
    return [];
  }

  // A write that failed once is tried again with every change: a full phone may have
  // room again. The warning stays anyway, the keeper has seen it and may act on it.
  function save(queue) {
    try {
      if (!canOverwrite()) throw new Error("a damaged entry that could not be moved");
      storage().setItem(key, JSON.stringify(queue));
      memory = null;
    } catch {
      toMemory(queue);
    }
  }

  // Whatever is stored must be a queue (or nothing) before it is overwritten: a damaged
  // entry is set aside first.
  function canOverwrite() {
    var raw = storage().getItem(key);
    if (raw === null) return true;
    try {
      if (Array.isArray(JSON.parse(raw))) return true;
    } catch { /* damaged */ }
    return setAside(raw);
  }

  function trouble() {
    return troubled;
  }

  // --- "Everything sent." stays a while, also across a reload ---

  function sentAt() {
    try {
      return parseInt(storage().getItem(SENT_KEY) || "0", 10) || 0;
    } catch {
      return 0;
    }
  }

  function setSent(value) {
    try {
      if (value) storage().setItem(SENT_KEY, String(value));
      else storage().removeItem(SENT_KEY);
    } catch { /* only the message is lost */ }
  }

  // --- the sender lease ---

  function readLease() {
    try {
      var lease = JSON.parse(storage().getItem(LEASE_KEY) || "null");
      return lease && typeof lease.tab === "string" ? lease : null;
    } catch {
      return null;
    }
  }

  function writeLease() {
    storage().setItem(LEASE_KEY, JSON.stringify({ tab: tabId, at: Date.now() }));
  }

  // Calls back with true when this tab may send. localStorage has no compare-and-set, and
  // another tab sees a write only a moment later: so the lease is written, and read back
  // after that moment. Two tabs claiming at once both see the write that came last. Should
  // a game still go out twice, it is stored once (the server knows it by its client id).
  function claimLease(callback) {
    if (memory !== null) return callback(true); // the queue is this tab's alone
    var lease = readLease();
    if (lease && lease.tab === tabId && Date.now() - lease.at < LEASE_STALE) {
      return callback(true);
    }
    if (lease && Date.now() - lease.at < LEASE_STALE) return rollCall(callback);
    take(callback);
  }

  function take(callback) {
    try {
      writeLease();
    } catch {
      return callback(true); // nothing can be shared: no other tab sees this queue either
    }
    setTimeout(function () {
      var lease = readLease();
      var mine = Boolean(lease && lease.tab === tabId);
      if (mine && beat === null) beat = setInterval(renewLease, LEASE_BEAT);
      callback(mine);
    }, SETTLE);
  }

  // The lease is another tab's and fresh: is that tab still there? Any write to the lease
  // meanwhile (its answer, or a third tab taking it) means yes.
  function rollCall(callback) {
    var before;
    try {
      before = storage().getItem(LEASE_KEY);
      storage().setItem(ROLL_CALL_KEY, JSON.stringify({ tab: tabId, at: Date.now() }));
    } catch {
      return callback(false); // cannot ask: wait for the lease to go stale
    }
    setTimeout(function () {
      var now;
      try {
        now = storage().getItem(LEASE_KEY);
      } catch {
        return callback(false);
      }
      if (now !== before) return callback(false);
      take(callback); // nobody answered: the sender is gone
    }, ROLL_CALL);
  }

  // Another tab asks whether the sender is still there: the sender says so, also while it
  // is still settling its claim.
  function answerRollCall(event) {
    if (event.key !== ROLL_CALL_KEY || !event.newValue) return;
    var lease = readLease();
    if (!lease || lease.tab !== tabId) return;
    try {
      writeLease();
    } catch { /* it goes stale; the asking tab takes over */ }
  }

  function renewLease() {
    var lease = readLease();
    if (!lease || lease.tab !== tabId) {
      stopBeat(); // another tab took over while this one slept
      return;
    }
    try {
      writeLease();
    } catch { /* it goes stale; another tab may take over */ }
  }

  function stopBeat() {
    clearInterval(beat);
    beat = null;
  }

  function releaseLease() {
    stopBeat();
    var lease = readLease();
    if (!lease || lease.tab !== tabId) return;
    try {
      storage().removeItem(LEASE_KEY);
    } catch { /* it goes stale */ }
  }

  return {
    key: key,
    leaseKey: LEASE_KEY,
    leaseStale: LEASE_STALE,
    load: load,
    save: save,
    trouble: trouble,
    sentAt: sentAt,
    setSent: setSent,
    claimLease: claimLease,
    releaseLease: releaseLease,
    answerRollCall: answerRollCall,
  };
}
