// judgekit service worker: keeps the rules, the search index and the recorder pages usable
// when the hall's network drops. Served at /sw.js (scope: the whole site) by
// judgekit/offline/views.py, which puts `self.JUDGEKIT_OFFLINE` (version, precache list,
// URL rules) in front of this file; a new version means new bytes, so the browser installs
// the new worker, which fills a new cache and drops the old one.
//
// - precached pages (rules, quick reference, history, home, /offline) and static files:
//   navigations go to the network first (at most NAV_TIMEOUT ms when a saved copy exists,
//   so that a signed-in header stays fresh), other files come from the cache first;
// - /search offline: the saved home page, which runs the search on this device;
// - runtime prefixes (trainer, games, the games API, cards): network first, saved copy
//   offline, marked with the header X-Judgekit-Offline: cached; a card page never opened
//   here is drawn offline by the card shell (/cards/offline) from /offline/cards.json; the
//   recorder page keeps its game's copy up to date itself (message "judgekit-keep"), its
//   delta polls (?after=) go to the network only;
// - never cached (search API, ping) and every other address: straight to the network
//   (other areas' pages, e.g. penalties, are not kept on the device).
"use strict";

var CFG = self.JUDGEKIT_OFFLINE;
var PREFIX = "judgekit-";
var CACHE = PREFIX + CFG.version;          // this version's precache
var RUNTIME = PREFIX + "runtime";          // pages of other areas, kept across versions
// a published copy (`judgekit publish`) lives under a base path and names its pages itself
var HOME = CFG.home || "/";
var OFFLINE_PAGE = CFG.offline_page || "/offline";
var DONE = CFG.saved_marker || "/offline/__saved";   // written once the precache is complete
// a card page never opened on this device is drawn by the card shell from the cards' data
var CARD_PREFIX = CFG.card_prefix || null;
var CARD_SHELL = CFG.card_shell || null;
var NAV_TIMEOUT = 3000;

function startsWithAny(path, prefixes) {
  for (var i = 0; i < prefixes.length; i++) if (path.indexOf(prefixes[i]) === 0) return true;
  return false;
}

self.addEventListener("install", function (ev) {
  ev.waitUntil(caches.open(CACHE).then(function (cache) {
    // fetched past the HTTP cache, so that a new version never saves an old file
    var requests = CFG.precache.map(function (url) {
      return new Request(url, { cache: "reload", credentials: "same-origin" });
    });
    return cache.addAll(requests).then(function () {
      var body = JSON.stringify({ version: CFG.version, edition: CFG.edition,
                                  content_hash: CFG.content_hash, count: requests.length,
                                  saved_at: new Date().toISOString() });
      return cache.put(DONE, new Response(body, { headers: { "Content-Type": "application/json" } }));
    });
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (ev) {
  ev.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) {
      return n.indexOf(PREFIX) === 0 && n !== CACHE && n !== RUNTIME;
    }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }).then(function () {
    return self.clients.matchAll({ type: "window" });
  }).then(function (clients) {
    clients.forEach(function (c) { c.postMessage({ type: "judgekit-saved", version: CFG.version }); });
  }));
});

self.addEventListener("message", function (ev) {
  if (ev.data && ev.data.type === "judgekit-keep" && typeof ev.data.url === "string" &&
      typeof ev.data.body === "string") {
    // the recorder page's copy of a game as GET /api/games/<id> answers it, kept up to date
    // by the page itself (its entries and polls read only what changed): offline, a reload
    // opens the game as the page last knew it
    var url = new URL(ev.data.url, self.location.origin);
    if (url.origin === self.location.origin && startsWithAny(url.pathname, CFG.runtime_prefixes)) {
      ev.waitUntil(caches.open(RUNTIME).then(function (c) {
        // the server's copy varies on the cookie: dropped, or a match could find it first
        return c.delete(url.href, { ignoreVary: true }).then(function () {
          return c.put(url.href, new Response(ev.data.body, { headers: { "Content-Type": "application/json" } }));
        });
      }));
    }
    return;
  }
  if (ev.data && ev.data.type === "judgekit-status" && ev.source) {
    caches.open(CACHE).then(function (c) { return c.match(DONE); }).then(function (r) {
      ev.source.postMessage({ type: "judgekit-status", version: CFG.version, saved: !!r });
    });
  }
});

function fromCache(request) {
  return caches.open(CACHE).then(function (c) { return c.match(request); }).then(function (r) {
    return r || caches.open(RUNTIME).then(function (c) { return c.match(request); });
  });
}

function marked(response) {
  // a saved copy, flagged so that pages can tell it from a fresh answer
  var headers = new Headers(response.headers);
  headers.set("X-Judgekit-Offline", "cached");
  return response.blob().then(function (body) {
    return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
  });
}

function offlinePage() {
  return fromCache(OFFLINE_PAGE).then(function (r) {
    return r || new Response("<!doctype html><meta charset=utf-8><title>Offline</title>" +
      "<p>You are offline and this page was not saved on this device.</p>",
      { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

function cardShell() {
  return fromCache(CARD_SHELL).then(function (r) { return r || offlinePage(); });
}

function isCardPage(path) {
  return !!CARD_PREFIX && path.indexOf(CARD_PREFIX) === 0 && path.length > CARD_PREFIX.length &&
    path.replace(/\/$/, "") !== CARD_SHELL.replace(/\/$/, "");
}

function store(cacheName, request, response) {
  if (!cacheName || !response || !response.ok || response.type !== "basic") return;
  var copy = response.clone();
  caches.open(cacheName).then(function (c) { return c.put(request, copy); }).catch(function () {});
}

// Network first; after `wait` ms a saved copy (if any) answers instead of a slow network.
function networkFirst(request, cacheName, wait, fallback) {
  return new Promise(function (resolve) {
    var settled = false, timer = null;
    function answer(r) { if (!settled) { settled = true; clearTimeout(timer); resolve(r); } }
    function saved() {
      return fromCache(request).then(function (r) {
        if (r) return marked(r);
        return fallback ? fallback() : Response.error();
      });
    }
    if (wait) {
      timer = setTimeout(function () {
        fromCache(request).then(function (r) { if (r) marked(r).then(answer); });
      }, wait);
    }
    fetch(request).then(function (response) {
      store(cacheName, request, response);
      answer(response);
    }, function () { saved().then(answer); });
  });
}

function cacheFirst(request) {
  return fromCache(request).then(function (r) {
    if (r) return r;
    return fetch(request).then(function (response) {
      store(CACHE, request, response);
      return response;
    });
  });
}

function isPrecached(path) {
  return CFG.precache.indexOf(path) >= 0;
}

function networkOnly(request, fallback) {
  return fetch(request).catch(function () { return fallback(); });
}

self.addEventListener("fetch", function (ev) {
  var request = ev.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  var path = url.pathname;
  if (startsWithAny(path, CFG.never_cache)) return;
  var precached = isPrecached(path + url.search);
  // what changed since an event (the recorder's polls): one answer per address, never
  // worth keeping; offline the poll fails and the page keeps what it has
  var runtime = startsWithAny(path, CFG.runtime_prefixes) &&
    !(path.indexOf("/api/games/") === 0 && url.searchParams.has("after"));

  if (request.mode === "navigate") {
    if (path === "/search") {
      // offline, the home page runs the same search on this device (it reads ?q=)
      ev.respondWith(networkOnly(request, function () {
        return fromCache(HOME).then(function (r) { return r || offlinePage(); });
      }));
    } else if (precached) {
      ev.respondWith(networkFirst(request, CACHE, NAV_TIMEOUT, offlinePage));
    } else if (url.search && isPrecached(path)) {
      // a saved page asked with a query (the home page of a published copy reads ?q=)
      ev.respondWith(networkFirst(request, CACHE, NAV_TIMEOUT, function () {
        return fromCache(path).then(function (r) { return r || offlinePage(); });
      }));
    } else if (runtime) {
      ev.respondWith(networkFirst(request, RUNTIME, NAV_TIMEOUT, isCardPage(path) ? cardShell : offlinePage));
    } else {
      ev.respondWith(networkOnly(request, offlinePage));   // other areas' pages are not kept
    }
    return;
  }
  if (precached) {
    ev.respondWith(cacheFirst(request));
  } else if (runtime) {
    ev.respondWith(networkFirst(request, RUNTIME, 0, null));
  }
  // anything else goes to the network as if there were no service worker
});
