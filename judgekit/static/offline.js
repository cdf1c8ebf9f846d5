// Offline status: registers the service worker (/sw.js) and keeps the header badge true —
// whether the server can be reached right now, which edition of the rules this page holds,
// and whether a copy for offline use is saved on this device.
//
// Other modules import `net` from here:
//   isOnline() -> bool      last known reachability of the server
//   check() -> Promise<bool> ask the server now (GET /offline/ping, never cached)
//   onChange(fn)             fn(online) whenever reachability changes
import { t } from "./i18n.js";
import { site } from "./site.js";

export const net = (function () {
  // in a published copy (static/site.js) every address lives under its base path
  function u(path) { return site && site.url ? site.url(path) : path; }
  var PREFIX = "judgekit-", RUNTIME = "judgekit-runtime", DONE = u("/offline/__saved").replace(/\/$/, "");
  var PING_EVERY = 20000, PING_TIMEOUT = 4000;
  var badge = document.querySelector("[data-offline-badge]");
  var edition = badge ? badge.getAttribute("data-edition") : "";
  var state = { online: navigator.onLine, saved: null };
  var listeners = [];
  var canSave = "serviceWorker" in navigator && window.isSecureContext && "caches" in window;

  function savedText() {
    if (!canSave) return t("offline.not_kept");
    if (state.saved === true) return t("offline.saved");
    if (state.saved === "saving") return t("offline.saving");
    return t("offline.not_saved_yet");
  }

  function render() {
    document.documentElement.setAttribute("data-net", state.online ? "online" : "offline");
    if (badge) {
      badge.classList.toggle("is-offline", !state.online);
      badge.classList.toggle("is-saved", state.saved === true);
      badge.classList.toggle("is-saving", state.saved === "saving");
      var net = badge.querySelector(".net-state");
      var saved = badge.querySelector(".net-saved");
      if (net) net.textContent = state.online ? t("offline.online") : t("offline.offline");
      // while the copy is being saved, say so in words: a lone "…" read as cut-off text
      if (saved) saved.textContent = state.saved === true ? "✓" : (state.saved === "saving" ? t("offline.saving_copy") : "");
      var sentence = t(state.online ? "offline.badge_online" : "offline.badge_offline",
                       {edition: edition, saved: savedText()});
      badge.setAttribute("title", sentence);
      badge.setAttribute("aria-label", sentence);
    }
    var page = document.querySelector("[data-offline-page]");
    if (page) {
      var n = page.querySelector("[data-offline-net]");
      var s = page.querySelector("[data-offline-saved]");
      if (n) n.textContent = state.online ? t("offline.page_online") : t("offline.page_offline");
      if (s) s.textContent = !canSave
        ? t("offline.page_cannot_save")
        : state.saved === true ? t("offline.page_saved")
        : state.saved === "saving" ? t("offline.saving") : t("offline.not_saved_yet");
      var missed = page.querySelector("[data-offline-missed]");
      if (missed) missed.hidden = location.pathname === u("/offline");
    }
  }

  function setOnline(value) {
    var changed = state.online !== value;
    state.online = value;
    render();
    if (changed) listeners.forEach(function (fn) { try { fn(value); } catch (e) { console.error(e); } });
  }

  var pending = null;
  function check() {
    if (!navigator.onLine) { setOnline(false); return Promise.resolve(false); }
    if (pending) return pending;
    var ctrl = "AbortController" in window ? new AbortController() : null;
    var timer = setTimeout(function () { if (ctrl) ctrl.abort(); }, PING_TIMEOUT);
    pending = fetch(u("/offline/ping"), { cache: "no-store", signal: ctrl && ctrl.signal })
      .then(function (r) { return r.ok; }, function () { return false; })
      .then(function (ok) { clearTimeout(timer); pending = null; setOnline(ok); return ok; });
    return pending;
  }

  function checkSaved() {
    if (!canSave) { render(); return Promise.resolve(); }
    return caches.keys().then(function (names) {
      var copies = names.filter(function (n) { return n.indexOf(PREFIX) === 0 && n !== RUNTIME; });
      return Promise.all(copies.map(function (n) {
        return caches.open(n).then(function (c) { return c.match(DONE); });
      }));
    }).then(function (found) {
      if (found.some(Boolean)) state.saved = true;
      else if (state.saved !== "saving") state.saved = false;
      render();
    }).catch(function () { render(); });
  }

  function watch(worker) {
    if (!worker) return;
    state.saved = state.saved === true ? true : "saving";
    render();
    worker.addEventListener("statechange", function () {
      if (worker.state === "activated" || worker.state === "redundant") {
        if (state.saved === "saving") state.saved = false;
        checkSaved();
      }
    });
  }

  var net = {
    isOnline: function () { return state.online; },
    check: check,
    onChange: function (fn) { listeners.push(fn); }
  };

  window.addEventListener("online", function () { check(); });
  window.addEventListener("offline", function () { setOnline(false); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") check();
  });
  setInterval(function () { if (document.visibilityState !== "hidden") check(); }, PING_EVERY);

  if (canSave) {
    navigator.serviceWorker.addEventListener("message", function (ev) {
      if (ev.data && ev.data.type === "judgekit-saved") checkSaved();
    });
    navigator.serviceWorker.register(u("/sw.js"), { scope: site ? site.base : "/" }).then(function (reg) {
      watch(reg.installing || reg.waiting);
      reg.addEventListener("updatefound", function () { watch(reg.installing); });
    }).catch(function (err) {
      console.warn("judgekit: the offline copy cannot be kept:", err && err.message);
    });
  }
  render();
  checkSaved();
  check();
  return net;
})();
