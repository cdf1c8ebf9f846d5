/* The recorder page's data plumbing: what the page knows of the game (`view`), kept in
   step with the server at a cost that does not grow with the game.

   - First load: GET <api> (the whole game). Afterwards the page never reads the whole
     game again: the answer to each POST of events carries the lines it stored and the
     earlier lines it changed, the state, the last seq and the game's ETag (`apply`); the
     polls (every 5 s and when the page comes back into view) ask GET <api>?after=<last
     seq> with If-None-Match: <etag>, answered 304 when nothing changed.
   - Every entry goes out through the outbox (offline-queue.js: kept on the device first,
     sent in order) or, without it, one request at a time; each event is stamped with a
     client id (a resend is stored once), the judge, and `device_time`: when it was
     tapped, on the server's clock as this page measured it (the server keeps its own
     arrival `time` beside it; the round clock uses the tap's).
   - The view is saved for offline reloads through the service worker (a copy of the whole
     game as GET <api> would answer it), at most every few seconds.

   makeGame(root, hooks) (exported) -> game; hooks from recorder.js:
     changed(seqs, answer)  redraw: seqs = the lines that changed (null: all of them, a
                            first load); answer = what came in (a load, a POST answer, a delta)
     say(message, isError)  the status line
     refused(field, text)   (optional) a refusal in words, with the field it names (or null)
   game: view (null until loaded: {game, state, events (lines, events[seq - 1]), findings,
     last_entry, last_seq, etag}), load(), poll(), apply(answer), send(events, label) ->
     Promise<true | false | "queued">, sendLine(line), undo(), request(method, url, body),
     stamp(events), now() (seconds, server clock), lastActive(), line(seq), outbox (or null),
     refusal(res), findingsLine(findings), start() -> Promise (the first load is over).
   `text` (exported, pure): wellFormed(text, instead), clean(value), cut(text, max). */
import { t } from "./i18n.js";
import { words } from "./recorder-form.js";

const made = (function () {
  var POLL_MS = 5000, SAVE_MS = 3000;

  // a surrogate pair, or a half of one alone (no look-behind: older phones' Safari rejects it)
  var HALVES = /[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]/g;
  function wellFormed(text, instead) {
    // text a server can store: a lone half of a surrogate pair (an emoji cut in two) becomes
    // U+FFFD (or `instead`)
    if (typeof text !== "string") return text;
    var lone = instead == null ? "\uFFFD" : instead;
    return text.replace(HALVES, function (m) { return m.length === 2 ? m : lone; });
  }
  function clean(value) {
    if (typeof value === "string") return wellFormed(value);
    if (Array.isArray(value)) return value.map(clean);
    if (value && typeof value === "object") {
      var out = {};
      Object.keys(value).forEach(function (k) { out[wellFormed(k)] = clean(value[k]); });
      return out;
    }
    return value;
  }
  // A name cut to `max` characters, never inside one (an emoji is one character, not two
  // halves); half of one already cut is dropped.
  function cut(text, max) { return Array.from(wellFormed(String(text || ""), "").trim()).slice(0, max).join("").trim(); }
  var text = {wellFormed: wellFormed, clean: clean, cut: cut};

  var makeGame = function (root, hooks) {
    var API = root.dataset.api;
    var SEATS = JSON.parse(root.dataset.seats);
    var CSRF = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
    var TAB = Math.random().toString(36).slice(2, 8) + Date.now().toString(36).slice(-4);
    var SIGNED_IN = root.dataset.judge || "";
    var counter = 0, offset = 0, view = null, saveTimer = null, dirty = false;
    var game = {view: null, outbox: null};

    // --- network -------------------------------------------------------------------------
    function request(method, url, body, headers) {
      var opts = {method: method, headers: {"Accept": "application/json", "X-CSRF-Token": CSRF},
                  credentials: "same-origin"};
      Object.assign(opts.headers, headers || {});
      if (body !== undefined) {
        opts.headers["Content-Type"] = "application/json";
        opts.body = JSON.stringify(clean(body));
      }
      return fetch(url, opts).then(function (r) {
        if (r.status === 304) return {ok: true, status: 304, data: null, cached: false};
        return r.json().catch(function () { return {error: "HTTP " + r.status}; })
          .then(function (data) {
            // a copy the service worker kept (offline): its server_now is old
            var cached = r.headers.get("X-Judgekit-Offline") === "cached";
            if (!cached && data && typeof data.server_now === "number") offset = data.server_now - Date.now() / 1000;
            return {ok: r.ok, status: r.status, data: data, cached: cached};
          });
      });
    }
    function now() { return Date.now() / 1000 + offset; }
    function deviceTime(ms) { return new Date((ms == null ? Date.now() : ms) + offset * 1000).toISOString(); }

    // --- the view ------------------------------------------------------------------------
    function adopt(data, cached) {
      // the whole game (a first load, or a reload after a gap the delta could not fill)
      view = game.view = data;
      view.events = (data.events || []).slice();
      if (view.last_seq == null) view.last_seq = view.events.length ? view.events[view.events.length - 1].seq : 0;
      hooks.changed(null, data);
      dirty = !cached;   // a copy the service worker gave back needs no saving
      save();
    }
    function apply(answer) {
      // a POST answer or a delta read: put its lines in place, take its state. An answer
      // older than what the page holds (a poll overtaken by the answer to an entry) is
      // contained in it: left out.
      if (!view || !answer) return;
      if (answer.last_seq != null && answer.last_seq < view.last_seq) return;
      var seqs = [], missing = false;
      (answer.changed || []).concat(answer.events || []).forEach(function (line) {
        if (line.seq > view.events.length + 1) { missing = true; return; }   // lines never seen: read them
        if (line.seq === view.events.length + 1) view.events.push(line);
        else view.events[line.seq - 1] = line;
        seqs.push(line.seq);
      });
      if (answer.state) view.state = answer.state;
      if (answer.last_entry) view.last_entry = answer.last_entry;
      view.last_seq = view.events.length;
      if (answer.last_seq != null && answer.last_seq > view.last_seq) missing = true;
      view.etag = missing ? null : (answer.etag || view.etag);
      hooks.changed(seqs, answer);
      dirty = true;
      save();
      if (missing) setTimeout(poll, 0);   // another judge's entries came in between
    }
    function line(seq) { return view ? view.events[seq - 1] : null; }
    function lastActive() {
      if (!view) return null;
      for (var i = view.events.length - 1; i >= 0; i--) {
        var e = view.events[i];
        if (!e.retracted && e.type !== "retract" && e.type !== "amend") return e;
      }
      return null;
    }

    function load() {
      return request("GET", API).then(function (res) {
        if (!res.ok) { hooks.say((res.data && res.data.error) || t("recorder.load_failed"), true); return; }
        adopt(res.data, res.cached);
      }).catch(function () { hooks.say(t("recorder.load_failed_offline"), true); });
    }
    var inFlight = null;
    function poll() {
      // what changed since the last line the page holds; 304 when nothing did
      if (!view) return navigator.onLine ? load() : Promise.resolve();
      if (inFlight) return inFlight;
      inFlight = request("GET", API + "?after=" + view.last_seq, undefined,
                         view.etag ? {"If-None-Match": view.etag} : {})
        .then(function (res) {
          if (res.status === 400 && res.data && res.data.field === "after") return load();   // not the game we hold
          if (res.ok && res.status !== 304 && !res.cached) apply(res.data);
        })
        .catch(function () {})
        .then(function () { inFlight = null; });
      return inFlight;
    }

    function save() {
      // the whole game as GET <api> answers it, for the service worker to open offline: at
      // most every SAVE_MS, and at once when the page goes away (a reload, another app)
      if (saveTimer || !(navigator.serviceWorker && navigator.serviceWorker.controller)) return;
      saveTimer = setTimeout(saveNow, SAVE_MS);
    }
    function saveNow() {
      clearTimeout(saveTimer);
      saveTimer = null;
      var sw = navigator.serviceWorker && navigator.serviceWorker.controller;
      if (!sw || !view || !dirty) return;
      dirty = false;
      var copy = Object.assign({}, view, {server_now: now()});
      sw.postMessage({type: "judgekit-keep", url: API, body: JSON.stringify(copy)});
    }
    window.addEventListener("pagehide", saveNow);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "hidden") saveNow();
    });

    // --- sending ---------------------------------------------------------------------------
    function judge() { return SIGNED_IN || cut(localStorage.getItem("judgekit.judge"), 80) || "anonymous"; }
    function stamp(events, tapped) {
      var when = tapped || deviceTime();
      return events.map(function (e) {
        var out = clean(Object.assign({}, e));
        if (!out.client_id) out.client_id = TAB + ":" + (++counter);
        if (!out.judge) out.judge = judge();
        if (!out.device_time) out.device_time = when;
        return out;
      });
    }
    var chain = Promise.resolve(true);
    function enqueue(job) {
      // Entries go out one request at a time, in the order they were made.
      chain = chain.then(job, job);
      return chain;
    }
    function sendNow(events, attempt) {
      // A retried POST carries the same client ids: the server stores each event once.
      attempt = attempt || 0;
      return request("POST", API + "/events", events).then(function (res) {
        if (!res.ok) {
          if (res.status >= 500 && attempt < 3) return retry(events, attempt);
          if (res.status === 409 && res.data && res.data.double_tap) { hooks.say(refusal(res)); return true; }
          hooks.say(refusal(res), true);
          return false;
        }
        var fs = res.data.findings || [];
        apply(res.data);
        hooks.say(findingsLine(fs) || t("recorder.recorded"), fs.length > 0);
        return true;
      }).catch(function () {
        if (attempt < 3) return retry(events, attempt);
        hooks.say(t("recorder.not_sent_network"), true);
        return false;
      });
    }
    function retry(events, attempt) {
      return new Promise(function (ok) { setTimeout(ok, 400 * (attempt + 1)); })
        .then(function () { return sendNow(events, attempt + 1); });
    }
    function send(events, label) {
      var stamped = stamp(events);
      return game.outbox ? game.outbox.send(stamped, label)   // offline-queue.js: kept on the device, sent in order
        : enqueue(function () { return sendNow(stamped, 0); });
    }
    function sendLine(line) {
      if (game.outbox) return game.outbox.sendLine(line, deviceTime());   // parsed when it is sent
      var tapped = deviceTime();
      return enqueue(function () {
        var last = lastActive();
        return request("POST", API + "/parse", {line: line, last_seq: last ? last.seq : null}).then(function (res) {
          if (!res.ok) { hooks.say(refusal(res), true); return false; }
          return sendNow(stamp(res.data.events.map(function (e) {
            var copy = Object.assign({}, e); delete copy.judge; return copy;
          }), tapped), 0);
        });
      });
    }

    // --- words for the status line ---------------------------------------------------------
    function findingsLine(list) {
      // the status line after an entry: titles and messages, never the codes
      var title = function (f) { return f.title || f.code; };
      if (!list.length) return "";
      if (list.length === 1) return title(list[0]) + ": " + list[0].message;
      return t("outbox.findings", {count: list.length}) + ": " + list.map(title).join(" · ");
    }
    function refusal(res) {
      // why the server refused an entry, in the words meant for the table ("No card named
      // 'Deflectoin' — did you mean Deflection?") when it gives them; else its field in words
      // ("Not recorded — Action: missing."), never "event 1: action: missing". A form open
      // with that field shows it there too (hooks.refused).
      var d = res.data || {};
      var msg = d.message || readable(d, res.status);
      if (!d.message && d.suggestions && d.suggestions.length) msg += " — " + t("recorder.did_you_mean", {suggestions: d.suggestions.join(", ")});
      if (hooks.refused && res.status >= 400 && res.status < 500) hooks.refused(d.field || null, msg);
      return msg;
    }
    function readable(d, status) {
      var reason = String(d.error || (status ? t("recorder.refused_http", {status: status}) : t("outbox.refused")));
      reason = reason.replace(/^event \d+: /, "");
      if (!d.field || d.field === "line") return reason;   // a quick-entry line's refusal names its statement
      if (reason.indexOf(d.field + ": ") === 0) reason = reason.slice(d.field.length + 2);
      var name = d.field === "seat" ? t("recorder.seat") : words(d.field);
      reason = reason.replace(/ \(did you mean: [^)]*\)$/, "");
      return t("recorder.not_recorded", {field: name, reason: reason + (/[.!?]$/.test(reason) ? "" : ".")});
    }

    function start() {
      // -> a Promise settled once the first load is over (loaded, or could not be)
      var first = load().then(function () { if (game.outbox) game.outbox.start(); });
      // Other judges' entries: poll, and look again whenever the page comes back into view.
      function refresh() { if (document.visibilityState === "visible") poll(); }
      setInterval(refresh, POLL_MS);
      window.addEventListener("focus", refresh);
      document.addEventListener("visibilitychange", refresh);
      return first;
    }

    Object.assign(game, {
      api: API, seats: SEATS, signedIn: SIGNED_IN, load: load, poll: poll, apply: apply, request: request,
      send: send, sendLine: sendLine, stamp: stamp, enqueue: enqueue, now: now, deviceTime: deviceTime,
      judge: judge, line: line, lastActive: lastActive, refusal: refusal, findingsLine: findingsLine,
      start: start
    });
    return game;
  };
  return {text: text, makeGame: makeGame};
})();

export const text = made.text;
export const makeGame = made.makeGame;
