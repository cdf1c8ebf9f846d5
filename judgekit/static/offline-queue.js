// The recorder's outbox: every entry is written to IndexedDB on this device first, then
// sent to the server in the order it was made. When the connection drops the entries wait
// ("not yet sent") and survive a reload; they are sent, in order, when it returns. Each
// entry carries client-made ids, so an entry sent twice (a reply lost on the way back) is
// stored once, and the time it was tapped (`device_time`), so the round clock keeps the
// table's time however late it arrives. The server checks every entry on arrival; the
// page then shows its findings.
//
// One entry never blocks the others: an entry the server refuses (a 4xx) or fails on
// again and again (a 500, three times) is marked "refused" with the reason, with Fix (a
// line goes back into the box, an event back into its form), Send again and Discard; the
// entries after it are sent. Only what says "try later" stops the queue: no connection,
// 401/403 (sign in again), 429, 502/503/504 (the server or its proxy is not there).
//
// outbox(api, hooks) (this module's export) -> outbox, with hooks from recorder.js/recorder-sync.js:
//   request(method, url, body) -> Promise<{ok, status, data}> (rejects when unreachable)
//   apply(answer)         put the answer to a POST into the page's view (its lines, state)
//   load() -> Promise     (without apply) reload the game and render it
//   say(message, isError)  the page's status line
//   findingsLine(findings) the status line's words for the findings of what was sent
//   refusal(res)          the status line's words for a refused entry (optional)
//   lastActive() -> event  the last event not retracted (context for quick-entry lines)
//   serialize(job)        run job after the page's other requests (one at a time)
//   stamp(events, tapped) add client ids, the judge's name and the device time (`tapped`,
//                         else now) to events that lack them
//   fix(item, done)       open a refused entry for correcting; call done() once it is
//                         sent again (optional: without it there is no Fix button)
//   seats                  the seat names
//   rerender()            render the log again (the outbox then decorates it)
//   net                   static/offline.js's `net` (optional): whether the server answers
// outbox.send(events, label) / outbox.sendLine(line, tapped) -> Promise<true | false | "queued">:
//   `label` (optional): the words the judge tapped, shown while the entry waits.
//   true: stored on the server; false: refused (the page shows why); "queued": kept here.
// outbox.items() / outbox.words(item): the entries kept here, and the words one is shown with.
// No page needed: without IndexedDB (Node, tests/js/) the entries live in memory.
import { t } from "./i18n.js";
export const outbox = (function () {
  var DB_NAME = "judgekit-offline", STORE = "outbox", RETRY_MS = 8000;
  var MAX_FAILURES = 3;   // a 500 this many times on one entry: refused, the rest go on

  // --- storage: IndexedDB, or memory when the browser has none -------------------------
  function MemoryStore() { this.rows = []; this.next = 1; }
  MemoryStore.prototype.all = function () { return Promise.resolve(this.rows.slice()); };
  MemoryStore.prototype.add = function (item) {
    item.id = this.next++; this.rows.push(item); return Promise.resolve(item);
  };
  MemoryStore.prototype.put = function (item) {
    this.rows = this.rows.map(function (r) { return r.id === item.id ? item : r; });
    return Promise.resolve(item);
  };
  MemoryStore.prototype.remove = function (id) {
    this.rows = this.rows.filter(function (r) { return r.id !== id; }); return Promise.resolve();
  };

  function IdbStore(db) { this.db = db; }
  IdbStore.prototype.run = function (mode, fn) {
    var db = this.db;
    return new Promise(function (ok, fail) {
      var tx = db.transaction(STORE, mode), result;
      var req = fn(tx.objectStore(STORE));
      if (req) req.onsuccess = function () { result = req.result; };
      tx.oncomplete = function () { ok(result); };
      tx.onerror = tx.onabort = function () { fail(tx.error); };
    });
  };
  IdbStore.prototype.all = function () { return this.run("readonly", function (s) { return s.getAll(); }); };
  IdbStore.prototype.add = function (item) {
    return this.run("readwrite", function (s) { return s.add(item); })
      .then(function (id) { item.id = id; return item; });
  };
  IdbStore.prototype.put = function (item) {
    return this.run("readwrite", function (s) { return s.put(item); }).then(function () { return item; });
  };
  IdbStore.prototype.remove = function (id) { return this.run("readwrite", function (s) { return s.delete(id); }); };

  var storePromise = null;
  function openStore() {
    if (storePromise) return storePromise;
    storePromise = new Promise(function (ok) {
      if (!globalThis.indexedDB) { ok(new MemoryStore()); return; }
      var req;
      try { req = indexedDB.open(DB_NAME, 1); } catch (e) { ok(new MemoryStore()); return; }
      req.onupgradeneeded = function () {
        req.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
      };
      req.onsuccess = function () { ok(new IdbStore(req.result)); };
      req.onerror = req.onblocked = function () {
        console.warn("judgekit: IndexedDB unavailable, unsent entries live only in this tab");
        ok(new MemoryStore());
      };
    });
    return storePromise;
  }

  function deviceOnline() {   // what the device says of its network (Node: no navigator)
    return typeof navigator === "undefined" || navigator.onLine !== false;
  }
  function online(net) {
    return deviceOnline() && (!net || net.isOnline());
  }

  function uid() {
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
  }

  // --- the outbox of one game -----------------------------------------------------------
  return function (api, hooks) {
    var pending = [];            // this game's items, oldest first (a copy of the store)
    var flushing = null, timer = null, fresh = {};

    function refreshList() {
      return openStore().then(function (s) { return s.all(); }).then(function (rows) {
        pending = rows.filter(function (r) { return r.game === api; })
          .sort(function (a, b) { return a.id - b.id; });
        return pending;
      });
    }

    function changed() {
      hooks.rerender();
      schedule();
    }

    function schedule() {
      clearTimeout(timer);
      if (pending.some(function (i) { return i.state === "pending"; })) {
        timer = setTimeout(function () { flush(); }, RETRY_MS);
      }
    }

    function add(item) {
      item.game = api;
      item.made_at = new Date().toISOString();
      item.state = "pending";
      item.uid = uid();
      var first = !pending.some(function (i) { return i.state === "pending"; });
      return openStore().then(function (s) { return s.add(item); }).then(function (stored) {
        if (first && online(hooks.net)) fresh[stored.id] = true;   // tried at once: a refusal is shown, not kept
        return refreshList();
      }).then(function () { changed(); return item; });
    }

    function describeRefusal(res) {
      if (hooks.refusal) return hooks.refusal(res);
      var d = res.data || {}, msg = d.message || d.error || ("HTTP " + res.status);
      if (d.message) return msg;
      if (d.suggestions && d.suggestions.length) msg += " — " + t("recorder.did_you_mean", {suggestions: d.suggestions.join(", ")});
      return msg;
    }

    function findingsText(list) {
      if (hooks.findingsLine) return hooks.findingsLine(list);
      return list.length ? t("outbox.findings", {count: list.length}) + ": " +
        list.map(function (f) { return f.code; }).join(", ") : "";
    }

    // one item: parse it if it is a quick-entry line, post it; -> "sent" | "refused" | "stop"
    function sendItem(store, item, report) {
      var parsed = item.events ? Promise.resolve("ok") :
        hooks.request("POST", api + "/parse", { line: item.line, last_seq: (hooks.lastActive() || {}).seq || null })
          .then(function (res) {
            if (!res.ok) return res;    // judged below like a refused or failed post
            // the parsed events get ids made from the item's own id: a retry sends the same ones
            // (the parser fills in "anonymous": the page's judge goes on the entry instead)
            item.events = hooks.stamp(res.data.events.map(function (e, i) {
              var copy = Object.assign({ client_id: item.uid + ":" + i }, e);
              delete copy.judge;
              return copy;
            }), item.device_time);
            return store.put(item).then(function () { return "ok"; });
          });
      return parsed.then(function (res) {
        if (res !== "ok") return res;
        return hooks.request("POST", api + "/events", item.events);
      }).then(function (res) {
        var data = res.data || {};
        if (res.ok || (res.status === 409 && data.double_tap)) {   // a double tap: the first one is stored
          report.sent += 1;
          // stored: no longer shown as waiting, also by the redraw the answer brings
          pending = pending.filter(function (p) { return p.id !== item.id; });
          if (res.ok) {
            report.findings = report.findings.concat(data.findings || []);
            if (hooks.apply) hooks.apply(data);
          }
          return store.remove(item.id).then(function () { return "sent"; });
        }
        if (res.status === 401 || res.status === 403 || res.status === 429 ||
            res.status === 502 || res.status === 503 || res.status === 504) {
          report.error = res.status >= 500 ? t("outbox.unreachable", {status: res.status})
            : t("outbox.kept_after", {reason: describeRefusal(res)});
          return "stop";
        }
        if (res.status >= 500) {   // the server failed on this entry: again and again, it is refused
          item.failures = (item.failures || 0) + 1;
          if (item.failures < MAX_FAILURES) {
            report.error = t("outbox.failed_retry", {status: res.status});
            return store.put(item).then(function () { return "stop"; });
          }
          report.refusals[item.id] = t(data.error ? "outbox.failed_times_why" : "outbox.failed_times",
                                       {count: item.failures, status: res.status, error: data.error});
          delete fresh[item.id];
        } else {
          report.refusals[item.id] = describeRefusal(res);
        }
        if (fresh[item.id]) return store.remove(item.id).then(function () { return "refused"; });
        item.state = "refused";
        item.error = report.refusals[item.id];
        return store.put(item).then(function () { return "refused"; });
      }, function () {
        report.offline = true;        // the server cannot be reached: keep everything, stop here
        return "stop";
      });
    }

    function flushNow() {
      var report = { sent: 0, findings: [], refusals: {}, offline: false, error: null };
      return Promise.all([openStore(), refreshList()]).then(function (both) {
        var store = both[0];
        var queue = pending.filter(function (i) { return i.state === "pending"; });
        if (!deviceOnline()) { report.offline = true; queue = []; }
        var i = 0;
        function next() {
          if (i >= queue.length) return Promise.resolve();
          var item = queue[i++];
          return sendItem(store, item, report).then(function (outcome) {
            delete fresh[item.id];
            if (outcome === "stop") return null;
            // a later quick-entry line is read against the game as it now stands (the
            // answer to each entry brought the page up to date; without `apply`, read it)
            var lineLater = !hooks.apply && queue.slice(i).some(function (q) { return !q.events; });
            return (outcome === "sent" && lineLater ? hooks.load() : Promise.resolve()).then(next);
          });
        }
        return next();
      }).then(function () { return refreshList(); }).then(function () {
        return report.sent && !hooks.apply ? hooks.load() : null;
      }).then(function () {
        var refused = Object.keys(report.refusals).map(function (k) { return report.refusals[k]; });
        var waiting = pending.filter(function (p) { return p.state === "pending"; }).length;
        if (refused.length) hooks.say(refused.join(" · "), true);
        else if (report.error) hooks.say(t("outbox.not_sent", {reason: report.error}), true);
        else if (waiting) {
          hooks.say(t(report.offline ? "outbox.waiting_offline" : "outbox.waiting", {count: waiting}), false);
        } else if (report.sent) {
          var f = findingsText(report.findings);
          hooks.say(f || (report.sent > 1 ? t("outbox.sent_n", {count: report.sent}) : t("recorder.recorded")), !!f);
        }
        changed();
        return report;
      });
    }

    function flush() {
      // called while a flush runs: run again after it (it may have missed a newer entry)
      if (flushing) return flushing.then(function () { return flush(); });
      var job = function () {
        var locks = typeof navigator !== "undefined" && navigator.locks;   // one tab at a time sends this game's outbox
        return locks && locks.request ? locks.request("judgekit-outbox " + api, flushNow) : flushNow();
      };
      flushing = hooks.serialize(job).then(function (report) {
        flushing = null; return report;
      }, function (err) {
        flushing = null; console.error(err); return null;
      });
      return flushing;
    }

    function outcomeOf(item) {
      return flush().then(function (report) {
        var still = pending.filter(function (p) { return p.id === item.id; })[0];
        if (!still) return report && report.refusals[item.id] ? false : true;
        return still.state === "refused" ? false : "queued";
      });
    }

    // --- showing what waits ---------------------------------------------------------------
    // The words of a waiting entry: what the judge tapped (`label`) or typed, else its fields —
    // never the event's type, a name of the program's and not the table's.
    function summary(item) {
      if (!item.events) return "“" + item.line + "”";
      if (item.label) return item.label;
      return item.events.map(function (e) {
        var parts = [];
        if (e.seat) parts.push(hooks.seats[e.seat - 1] + " (" + e.seat + ")");
        ["action", "minion", "card", "amount", "target_seat", "kind", "text"].forEach(function (k) {
          if (e[k] !== undefined && e[k] !== null && e[k] !== "") parts.push(k === "target_seat" ? t("outbox.to_seat", {seat: e[k]}) : String(e[k]));
        });
        return parts.length ? parts.join(" · ") : t("outbox.an_entry");
      }).join("; ");
    }

    function decorate(log) {
      if (!log) return;
      log.querySelectorAll("[data-queued]").forEach(function (n) { n.remove(); });
      var waiting = pending.filter(function (p) { return p.state === "pending"; }).length;
      pending.forEach(function (item) {
        var li = document.createElement("li");
        li.className = "is-queued" + (item.state === "refused" ? " is-refused" : "");
        li.setAttribute("data-queued", item.id);
        var head = document.createElement("div");
        head.className = "rec-sum";
        var tag = document.createElement("span");
        tag.className = "queue-state";
        tag.textContent = item.state === "refused" ? t("outbox.refused") : t("outbox.not_yet_sent");
        head.appendChild(tag);
        head.appendChild(document.createTextNode(" " + summary(item)));
        li.appendChild(head);
        var meta = document.createElement("div");
        meta.className = "rec-meta";
        meta.textContent = new Date(item.made_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" }) +
          " · " + t("outbox.kept_here") + (item.error ? " · " + item.error : "");
        li.appendChild(meta);
        if (item.state === "refused") {
          var actions = document.createElement("div");
          actions.className = "queue-actions";
          var button = function (label, cls, fn) {
            var b = document.createElement("button");
            b.type = "button"; b.className = cls; b.textContent = label;
            b.addEventListener("click", fn);
            actions.appendChild(b);
          };
          if (hooks.fix && (!item.events || item.events.length === 1)) {
            button(t("outbox.fix"), "queue-fix", function () { hooks.fix(item, function () { discard(item.id); }); });
          }
          button(t("outbox.send_again"), "queue-retry", function () { retry(item); });
          button(t("outbox.discard"), "queue-drop", function () { discard(item.id); });
          li.appendChild(actions);
        }
        log.insertBefore(li, log.firstChild);   // newest first, above the stored events
      });
      var banner = document.getElementById("rec-queue");
      if (!banner) {
        banner = document.createElement("p");
        banner.id = "rec-queue"; banner.className = "queue-banner"; banner.setAttribute("role", "status");
        log.parentNode.insertBefore(banner, log);
      }
      banner.hidden = !waiting;
      banner.textContent = waiting ? t("outbox.banner", {count: waiting}) : "";
      var next = document.getElementById("rec-next");
      if (next) next.toggleAttribute("data-stale", waiting > 0);
    }

    function retry(item) {
      // a refused entry sent again as it is, behind nothing (e.g. after the server was fixed)
      item.state = "pending"; item.failures = 0; item.error = null;
      return openStore().then(function (s) { return s.put(item); })
        .then(refreshList).then(function () { changed(); return flush(); });
    }

    function discard(id) {
      return openStore().then(function (s) { return s.remove(id); })
        .then(refreshList).then(changed);
    }

    function start() {
      refreshList().then(function () { changed(); if (pending.length) flush(); });
      if (globalThis.addEventListener) {
        addEventListener("online", function () { flush(); });
        addEventListener("focus", function () { if (pending.length) flush(); });
      }
      if (hooks.net) hooks.net.onChange(function (up) { if (up) flush(); });
    }

    return {
      start: start,
      flush: flush,
      decorate: decorate,
      pendingCount: function () { return pending.filter(function (p) { return p.state === "pending"; }).length; },
      // `label`: the words the judge tapped for the entry, shown while it waits (optional)
      send: function (events, label) {
        return add({ kind: "events", events: hooks.stamp(events), label: label || null }).then(outcomeOf);
      },
      sendLine: function (line, tapped) {
        return add({ kind: "line", line: line, events: null, device_time: tapped || null }).then(outcomeOf);
      },
      // Undo while entries wait: the newest unsent one is dropped (it never reached the record).
      // {dropped: the entry} or, when the newest was on its way and is gone once the send
      // in course ends, {dropped: null, landed: whether the server stored it}.
      dropLast: function () {
        var waiting = function () { return pending.filter(function (p) { return p.state === "pending"; }); };
        var newest = waiting().pop();
        return (flushing || Promise.resolve()).then(function (report) {
          var last = waiting().pop();
          if (last) return discard(last.id).then(function () { return { dropped: last }; });
          var landed = !!newest && !!report && !report.refusals[newest.id] &&
            !pending.some(function (p) { return p.id === newest.id; });
          return { dropped: null, landed: landed };
        });
      },
      items: function () { return pending.slice(); },
      words: summary
    };
  };
})();
