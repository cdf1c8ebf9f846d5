// The published copy (`judgekit publish DIR`). Its pages carry the copy's settings as data,
// <script type="application/json" id="judgekit-site">{base, built, edition, cards, judgekit}</script>;
// this module exports them as `site` (null on the server's pages).
//
// site.url(path) maps a server address to the copy's, by the rule of
// judgekit/offline/publish.py: under `base`; a page "/rules/x/3.7.2" is the folder
// ".../rules/x/3.7.2/", a file ("/static/app.css") keeps its name; "/search?q=" is the home
// page; a trainer answer "/trainer/q/<id>?answer=<c>" is ".../trainer/q/<id>/<c>/".
//
// It also runs the trainer's question sessions without a server: a session is picked here
// (the sections mixed, the questions last answered wrongly first, then unseen ones), kept in
// sessionStorage, and walked through the published question and answer pages.
import { t } from "./i18n.js";
function readSite() {
  var el = typeof document !== "undefined" && document.getElementById("judgekit-site");
  if (!el) return null;
  try { return JSON.parse(el.textContent); } catch (e) { return null; }
}

export const site = readSite();

(function () {
  if (!site) return;
  var base = site.base || "/";
  var FILE = /\.(?:css|js|mjs|json|png|svg|ico|webmanifest|txt|xml|woff2?|map)$/;

  function isFile(path) { return FILE.test(path.split("/").pop()); }

  function publishedPath(path) {
    if (!path || path === "/") return base;
    if (isFile(path)) return base + path.replace(/^\/+/, "");
    return base + path.replace(/^\/+|\/+$/g, "") + "/";
  }

  site.url = function (url) {
    if (typeof url !== "string" || url.charAt(0) !== "/" || url.charAt(1) === "/") return url;
    if (url.indexOf(base) === 0 && base !== "/") return url;     // already published
    var hash = "", query = "";
    var h = url.indexOf("#");
    if (h >= 0) { hash = url.slice(h); url = url.slice(0, h); }
    var q = url.indexOf("?");
    if (q >= 0) { query = url.slice(q + 1); url = url.slice(0, q); }
    var answer = /^\/trainer\/q\/([^/]+)$/.exec(url) && /^answer=([^&]+)$/.exec(query);
    if (answer) return publishedPath(url + "/" + answer[1]) + hash;
    if (url === "/search") url = "/";
    return publishedPath(url) + (query ? "?" + query : "") + hash;
  };

  // --- trainer sessions --------------------------------------------------------------
  var KEY = "judgekit.site.session";
  var PROGRESS = "judgekit.trainer.v1";   // trainer.js's answers kept in this browser
  var SIZE = 10;

  function read(key, store) {
    try { return JSON.parse(store.getItem(key) || "null"); } catch (e) { return null; }
  }
  function write(key, store, value) {
    try { store.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }
  function session() { return read(KEY, sessionStorage); }

  function pick(catalog, section) {
    var answers = (read(PROGRESS, localStorage) || {}).answers || [];
    var last = {};
    answers.forEach(function (a, i) { last[a.id] = { i: i, ok: a.ok }; });
    var queues = {};
    catalog.forEach(function (q) {
      if (section && q.section !== section) return;
      (queues[q.section] = queues[q.section] || []).push(q);
    });
    Object.keys(queues).forEach(function (sec) {
      queues[sec] = queues[sec].map(function (q) {
        var l = last[q.id];
        var rank = !l ? [1, 0] : l.ok ? [2, l.i] : [0, -l.i];
        return { q: q, rank: rank, r: Math.random() };
      }).sort(function (a, b) {
        return a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1] || a.r - b.r;
      }).map(function (x) { return x.q; });
    });
    var weight = {};
    Object.keys(queues).forEach(function (sec) { weight[sec] = 1; });
    var picked = [];
    while (picked.length < SIZE) {
      var live = Object.keys(queues).filter(function (sec) { return queues[sec].length; });
      if (!live.length) break;
      var total = live.reduce(function (s, sec) { return s + weight[sec]; }, 0);
      var at = Math.random() * total, sec = live[live.length - 1];
      for (var i = 0; i < live.length; i++) { at -= weight[live[i]]; if (at <= 0) { sec = live[i]; break; } }
      picked.push(queues[sec].shift());
      weight[sec] /= 2;
    }
    return picked;
  }

  function start(section) {
    fetch(publishedPath("/trainer/catalog.json")).then(function (r) { return r.json(); }).then(function (catalog) {
      var qs = pick(catalog, section);
      if (!qs.length) return;
      write(KEY, sessionStorage, { ids: qs.map(function (q) { return q.id; }),
        titles: qs.map(function (q) { return q.title; }),
        sections: qs.map(function (q) { return q.section_title; }), answers: {} });
      location.href = publishedPath("/trainer/q/" + encodeURIComponent(qs[0].id));
    });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.action || form.action.indexOf(publishedPath("/trainer/session")) < 0) return;
    ev.preventDefault();
    var section = form.querySelector("input[name=section]");
    start(section ? section.value : null);
  }, true);

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  function onQuestion() {
    var article = document.querySelector(".tr-question[data-scenario]");
    var s = session();
    if (!article || !s) return;
    var id = article.getAttribute("data-scenario");
    var n = s.ids.indexOf(id) + 1;
    if (!n) return;
    var total = s.ids.length;
    var result = document.querySelector("#result[data-record]");
    var record = null;
    if (result) {
      try { record = JSON.parse(result.getAttribute("data-record")); } catch (e) { record = null; }
      if (record) { s.answers[id] = !!record.ok; write(KEY, sessionStorage, s); }
    }
    var count = el("p", "tr-count", t("site.question_of", {n: n, total: total}));
    var meter = el("div", "tr-meter");
    var done = Object.keys(s.answers).length;
    meter.setAttribute("role", "progressbar");
    meter.setAttribute("aria-label", t("site.session_progress"));
    meter.setAttribute("aria-valuemin", "0"); meter.setAttribute("aria-valuemax", String(total));
    meter.setAttribute("aria-valuenow", String(done));
    var bar = el("span"); bar.style.width = Math.round(done * 100 / total) + "%"; meter.appendChild(bar);
    article.parentNode.insertBefore(count, article);
    article.parentNode.insertBefore(meter, article);
    var next = document.querySelector(".tr-next");
    if (result && next) {
      next.innerHTML = "";
      var link = el("a", "button tr-big", n < total ? t("site.next_question") : t("site.see_results"));
      link.href = n < total ? publishedPath("/trainer/q/" + encodeURIComponent(s.ids[n]))
                            : publishedPath("/trainer/session");
      link.setAttribute("data-session-next", "");
      next.appendChild(link);
    }
  }

  function onSummary() {
    var box = document.querySelector("[data-site-session]");
    if (!box) return;
    var s = session();
    var list = box.querySelector("ol"), title = box.querySelector("h1");
    if (!s) { title.textContent = t("site.no_session"); return; }
    var right = 0;
    s.ids.forEach(function (id, i) {
      var ok = s.answers[id];
      if (ok) right++;
      var li = el("li", ok ? "is-right" : ok === false ? "is-wrong" : "");
      var mark = el("span", "tr-mark", ok ? "✓" : ok === false ? "✗" : "·");
      mark.setAttribute("aria-hidden", "true");
      li.appendChild(mark);
      li.appendChild(el("span", "visually-hidden", ok ? t("site.right") : ok === false ? t("site.wrong") : t("site.not_answered")));
      var a = el("a", "", s.titles[i]);
      a.href = publishedPath("/trainer/q/" + encodeURIComponent(id));
      li.appendChild(a);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(el("span", "muted tr-small", s.sections[i]));
      list.appendChild(li);
    });
    title.textContent = t("site.score", {right: right, total: s.ids.length});
  }

  function init() { onQuestion(); onSummary(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
