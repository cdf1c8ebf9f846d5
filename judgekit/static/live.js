/* The live hall in the pages: the event's stream, the judges' header badge, and page
   regions that update themselves. Plain JS, no build step (docs/live.md).

   live.stream(url, after) (`live` is this module's export) -> one EventSource per page and URL, with:
   - each message handled once, in order (ids only grow; one already seen is dropped,
     as after a reconnect whose answer repeats it);
   - reconnect with the last id (the browser's Last-Event-ID; a stream reopened by hand
     asks with ?after=), at once when the device comes back online or wakes up, and when
     nothing was heard for WATCHDOG_MS (the server pings every 15 s);
   - "resync" for the pages when what they show may be stale (the server restarted, too
     much was missed), "poll" every POLL_MS while the stream is down for good (the pages
     then read their state the slow way);
   - the server's clock (`now()`), so a countdown agrees with the server's.
   Pages subscribe with stream.on(function (msg) {...}); msg.kind is the message's kind. */
import { t } from "./i18n.js";
export const live = (function () {
  var KINDS = ["round.started", "round.closed", "table.result", "table.finished", "clock.changed",
               "extension.recorded", "call.opened", "call.claimed", "call.reassigned", "call.closed",
               "penalty.pending", "penalty.approved", "penalty.recorded"];
  var WATCHDOG_MS = 40000, POLL_MS = 20000, RETRY_CLOSED_MS = 30000;
  var streams = {};

  function Stream(url, after) {
    this.url = url;
    this.lastId = after || 0;
    this.listeners = [];
    this.status = "connecting";
    this.mode = null;
    this.boot = null;
    this.offset = 0;           // server time - this device's time, in ms
    this.heardAt = Date.now();
    this.es = null;
    this.pollTimer = null;
    this.open();
    var self = this;
    setInterval(function () {
      if (Date.now() - self.heardAt > WATCHDOG_MS && navigator.onLine !== false) {
        self.setStatus("reconnecting");
        self.open();   // silent too long: a dead connection
      }
    }, 5000);
    window.addEventListener("online", function () { self.open(); });
    window.addEventListener("offline", function () {   // the device says so: no need to wait for the watchdog
      if (self.es) self.es.close();
      self.setStatus("reconnecting");
    });
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden && Date.now() - self.heardAt > 20000) self.open();
    });
  }

  Stream.prototype.on = function (fn) { this.listeners.push(fn); return this; };
  Stream.prototype.now = function () { return Date.now() + this.offset; };

  Stream.prototype.emit = function (msg) {
    for (var i = 0; i < this.listeners.length; i++) {
      try { this.listeners[i](msg, this); } catch (e) { if (window.console) console.error(e); }
    }
  };

  Stream.prototype.setStatus = function (status) {
    if (status === this.status) return;
    this.status = status;
    document.documentElement.setAttribute("data-live", status);
    this.emit({kind: "status", status: status});
  };

  Stream.prototype.heard = function (serverNow) {
    this.heardAt = Date.now();
    if (typeof serverNow === "number") this.offset = serverNow * 1000 - Date.now();
  };

  Stream.prototype.open = function () {
    var self = this;
    if (this.es) this.es.close();
    this.heardAt = Date.now();
    var url = this.url + (this.url.indexOf("?") >= 0 ? "&" : "?") + "after=" + this.lastId;
    var es = this.es = new EventSource(url);
    es.addEventListener("hello", function (e) {
      var d = JSON.parse(e.data);
      self.heard(d.now);
      self.mode = d.mode;
      var restarted = self.boot !== null && d.boot !== self.boot;
      self.boot = d.boot;
      self.stopPolling();
      self.setStatus(d.mode === "push" ? "live" : "polling");
      if (restarted) self.emit({kind: "resync", why: "restart"});
    });
    es.addEventListener("ping", function (e) { self.heard(JSON.parse(e.data).now); });
    es.addEventListener("reset", function (e) {
      var d = JSON.parse(e.data);
      self.heard();
      self.lastId = d.last_id;
      self.emit({kind: "resync", why: d.reason});
    });
    KINDS.forEach(function (kind) {
      es.addEventListener(kind, function (e) {
        self.heard();
        var id = parseInt(e.lastEventId, 10);
        if (id && id <= self.lastId) return;   // already handled
        if (id) self.lastId = id;
        var msg = JSON.parse(e.data);
        msg.id = id;
        self.emit(msg);
      });
    });
    es.onerror = function () {
      if (es !== self.es) return;
      if (es.readyState === EventSource.CLOSED) {   // refused (not a stream): read the state slowly
        self.setStatus("down");
        self.startPolling();
        setTimeout(function () { if (es === self.es) self.open(); }, RETRY_CLOSED_MS);
      } else if (self.mode !== "poll") {
        self.setStatus("reconnecting");             // the browser tries again by itself
      }
    };
  };

  Stream.prototype.startPolling = function () {
    var self = this;
    if (this.pollTimer) return;
    this.emit({kind: "poll"});
    this.pollTimer = setInterval(function () { self.emit({kind: "poll"}); }, POLL_MS);
  };

  Stream.prototype.stopPolling = function () {
    if (this.pollTimer) { clearInterval(this.pollTimer); this.pollTimer = null; }
  };

  function stream(url, after) {
    if (!streams[url]) streams[url] = new Stream(url, after);
    return streams[url];
  }

  // --- sound and vibration (judges' phones), with the mute switch --------------------------
  var audio = null;
  function muted() { try { return localStorage.getItem("jk-live-mute") === "1"; } catch (e) { return false; } }
  function setMuted(on) { try { localStorage.setItem("jk-live-mute", on ? "1" : "0"); } catch (e) { /* private mode */ } }
  function unlockAudio() {
    var C = window.AudioContext || window.webkitAudioContext;
    if (!C) return;
    try { audio = audio || new C(); if (audio.state === "suspended") audio.resume(); } catch (e) { audio = null; }
  }
  document.addEventListener("pointerdown", unlockAudio, {once: true});
  document.addEventListener("keydown", unlockAudio, {once: true});

  function chime() {
    var root = document.documentElement;
    root.setAttribute("data-live-chimes", String(parseInt(root.getAttribute("data-live-chimes") || "0", 10) + 1));
    if (muted()) return;
    if (navigator.vibrate) { try { navigator.vibrate([180, 90, 180]); } catch (e) { /* not allowed */ } }
    if (!audio) return;
    try {
      var t = audio.currentTime;
      [880, 1318.5].forEach(function (f, i) {
        var o = audio.createOscillator(), g = audio.createGain(), at = t + i * 0.18;
        o.type = "sine"; o.frequency.value = f;
        g.gain.setValueAtTime(0.0001, at);
        g.gain.exponentialRampToValueAtTime(0.35, at + 0.02);
        g.gain.exponentialRampToValueAtTime(0.0001, at + 0.6);
        o.connect(g); g.connect(audio.destination);
        o.start(at); o.stop(at + 0.65);
      });
    } catch (e) { /* no sound: the vibration and the badge remain */ }
  }

  function getJSON(url) {
    return fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); });
  }

  // --- local times --------------------------------------------------------------------------
  function pad(n) { return String(n).padStart(2, "0"); }
  function localTimes(root) {
    (root || document).querySelectorAll("time[data-local-time]").forEach(function (t) {
      var d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) t.textContent = pad(d.getHours()) + ":" + pad(d.getMinutes());
    });
  }

  // --- the header badge: open calls, the head judge's notifications --------------------------
  var badge = document.querySelector("[data-live-badge]");
  var pageStream = null;
  if (badge) {
    pageStream = stream(badge.getAttribute("data-stream"), parseInt(badge.getAttribute("data-after"), 10) || 0);
    var calls = {}, ready = false, notes = {}, notesReady = false, notesTimer = null;
    var count = badge.querySelector("[data-live-count]"), alerts = badge.querySelector("[data-live-alerts]");

    var draw = function () {
      var open = 0, waiting = 0;
      Object.keys(calls).forEach(function (k) { open++; if (calls[k] === "open") waiting++; });
      if (ready) count.textContent = String(open);
      badge.classList.toggle("has-calls", open > 0);
      badge.classList.toggle("has-waiting", waiting > 0);
      var noted = alerts ? Object.keys(notes).length : 0;
      badge.setAttribute("aria-label", t("live.open_calls", {count: open}) +
        (noted ? ", " + t("live.notifications", {count: noted}) : ""));
    };
    var loadCalls = function () {
      return getJSON(badge.getAttribute("data-calls")).then(function (body) {
        calls = {};
        body.calls.forEach(function (c) { calls[c.call] = c.status; });
        ready = true; draw();
      }).catch(function () { /* offline: the count stays as it was */ });
    };
    var notesUrl = badge.getAttribute("data-notifications");
    var loadNotes = function () {
      if (!notesUrl) return;
      getJSON(notesUrl).then(function (body) {
        var fresh = false, next = {};
        body.items.forEach(function (n) { next[n.key] = n; if (notesReady && !notes[n.key]) fresh = true; });
        notes = next; notesReady = true;
        alerts.textContent = String(body.items.length);
        alerts.hidden = body.items.length === 0;
        draw();
        if (fresh) chime();
        document.dispatchEvent(new CustomEvent("jk:notifications", {detail: body}));
        if (notesTimer) clearTimeout(notesTimer);
        if (body.next_check) {   // a table's end time: ask again when it passes
          var wait = Math.max(1000, body.next_check * 1000 - pageStream.now() + 1500);
          notesTimer = setTimeout(loadNotes, Math.min(wait, 2147483000));
        }
      }).catch(function () { /* tried again on the next message */ });
    };
    loadCalls();
    loadNotes();
    pageStream.on(function (msg) {
      var k = msg.kind;
      if (k === "call.opened") { calls[msg.call] = "open"; draw(); chime(); }
      else if (k === "call.claimed" || k === "call.reassigned") { if (calls[msg.call]) calls[msg.call] = "claimed"; draw(); }
      else if (k === "call.closed") { delete calls[msg.call]; draw(); }
      else if (k === "resync" || k === "poll") { loadCalls(); loadNotes(); }
      if (/^penalty\.|^table\.result$|^round\./.test(k)) loadNotes();
    });
  }

  // --- regions of a page that follow the stream ---------------------------------------------
  // <main data-live-kinds="table.result clock.changed …"> and elements with data-live-region
  // and an id: on such a message the page is read again and those elements replaced
  // (not while one holds the keyboard focus); data-live-reload="round.started …" reloads
  // the whole page (when no form on it is being filled in).
  var host = document.querySelector("[data-live-kinds]");
  if (host && pageStream) {
    var kinds = (host.getAttribute("data-live-kinds") || "").split(/\s+/);
    var reloads = (host.getAttribute("data-live-reload") || "").split(/\s+/);
    var timer = null, dirty = false;
    var busy = function () {
      var a = document.activeElement;
      return a && a !== document.body && a.closest && a.closest("form") && (a.value || "") !== "";
    };
    // A form sent or a link followed from this page is on its way: a reload now would
    // replace that navigation (the organizer taps "Seat round 2", the round.started message
    // comes back first, and the page reloads the dashboard instead of opening the round).
    // A navigation that does not happen (a download) lets reloads go again after 10 s.
    var leftAt = 0;
    var leave = function () { leftAt = Date.now(); };
    var leaving = function () { return Date.now() - leftAt < 10000; };
    window.addEventListener("submit", function (e) { if (!e.defaultPrevented) leave(); });
    window.addEventListener("beforeunload", leave);
    window.addEventListener("pageshow", function () { leftAt = 0; });
    var refresh = function () {
      timer = null;
      fetch(location.href, {headers: {"Accept": "text/html"}, credentials: "same-origin"})
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.text(); })
        .then(function (html) {
          var doc = new DOMParser().parseFromString(html, "text/html");
          var swapped = 0;
          document.querySelectorAll("[data-live-region]").forEach(function (old) {
            var fresh = old.id && doc.getElementById(old.id);
            if (!fresh) return;
            if (old.contains(document.activeElement) && document.activeElement !== document.body) { dirty = true; return; }
            if (old.innerHTML !== fresh.innerHTML) { old.replaceWith(document.importNode(fresh, true)); swapped++; }
          });
          localTimes(document);
          var root = document.documentElement;
          root.setAttribute("data-live-refreshes", String(parseInt(root.getAttribute("data-live-refreshes") || "0", 10) + 1));
          if (swapped) document.dispatchEvent(new CustomEvent("jk:regions"));
        }).catch(function () { /* the next message or poll tries again */ });
    };
    var later = function (ms) { if (!timer) timer = setTimeout(refresh, ms); };
    pageStream.on(function (msg) {
      if (leaving()) return;
      if (reloads.indexOf(msg.kind) >= 0 && !busy()) { location.reload(); return; }
      if (kinds.indexOf(msg.kind) >= 0 || msg.kind === "resync" || msg.kind === "poll") later(400);
    });
    document.addEventListener("focusout", function () { if (dirty) { dirty = false; later(800); } });
  }

  return {stream: stream, page: function () { return pageStream; }, chime: chime,
                   muted: muted, setMuted: setMuted, unlockAudio: unlockAudio, getJSON: getJSON,
                   localTimes: localTimes};
})();
