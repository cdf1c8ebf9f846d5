// Search as you type on the home page: results update without a page reload.
// Without JavaScript the form submits to /search and works the same.
import { t } from "./i18n.js";
import offlineSearch from "./offline-search.js";
import { site } from "./site.js";

(function () {
  var form = document.querySelector("[data-live-search]");
  if (!form) return;
  var input = form.querySelector("input[name=q]");
  var out = document.getElementById("live-results");
  var contents = document.getElementById("contents");
  var timer = null, controller = null, last = "", shown = "";  // last: asked for; shown: on screen

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  var docTitles = {};
  try { docTitles = JSON.parse(out.getAttribute("data-doc-titles") || "{}"); } catch (e) { docTitles = {}; }
  document.querySelectorAll("nav.toc").forEach(function (nav) {
    var a = nav.querySelector("h2 a");
    if (a) docTitles[a.getAttribute("href").split("/").pop()] = a.textContent;
  });

  function stale(on) {
    // old results stay visible while the new ones come, dimmed, so Enter cannot be
    // mistaken for the old first result
    out.classList.toggle("is-stale", on);
    out.style.opacity = on && out.firstChild ? "0.55" : "";
    out.setAttribute("aria-busy", on ? "true" : "false");
  }

  function link(url) { return site ? site.url(url) : url; }

  // what the search says beside its results (judgekit/rules/answer.py): the rules' words for
  // the everyday words typed, as one-tap searches; each numbered sub-question's best answer
  function said(data) {
    var html = "";
    if (data.suggestions && data.suggestions.length) {
      html += '<p class="search-try">' + esc(t("search.rules_words")) + " " + data.suggestions.map(function (s) {
        return '<a href="/search?q=' + encodeURIComponent(s) + '" data-try="' + esc(s) + '">' + esc(s) + "</a>";
      }).join("") + "</p>";
    }
    if (data.parts && data.parts.length) {
      html += '<section class="search-parts"><h2>' + esc(t("search.one_by_one")) + "</h2><ol>" + data.parts.map(function (p) {
        var best = p.results[0];
        return '<li><span class="part-question">' + esc(p.question) + "</span>" + (best
          ? '<a href="' + esc(link(best.url)) + '">' + esc(best.title) + "</a>" : "<span>" + esc(t("search.no_answer")) + "</span>") + "</li>";
      }).join("") + "</ol></section>";
    }
    return html;
  }

  function render(data, q) {
    shown = q;
    stale(false);
    if (!data.results.length) {
      out.innerHTML = '<p class="search-meta search-none" role="status">' + esc(t("search.nothing", {query: data.query.length > 120 ? data.query.slice(0, 120) + "…" : data.query})) +
        "</p>" + said(data);
      return;
    }
    // the results cut where the document changes, in the ranking's order (the search page's
    // runs_by_doc, judgekit/rules/hits.py)
    var runs = [];
    data.results.forEach(function (r) {
      var last = runs[runs.length - 1];
      if (last && last.doc === r.doc) last.results.push(r); else runs.push({ doc: r.doc, results: [r] });
    });
    var n = data.results.length;
    // an answer the server kept from an earlier asking says 0 ms (RulesService._took_ms): no
    // figure is shown for it ("0.0 ms" read as a broken clock, "asked before" as a riddle)
    var took = data.took_ms < 0.05 ? "" : " · " + esc(t("search.took", {ms: data.took_ms}));
    var html = '<p class="search-meta">' + esc(t("search.results", {count: n})) + took +
      (data.offline ? " · " + esc(t("search.offline")) : "") + "</p>";
    if (data.match === "weak") {
      html += '<p class="search-weak" role="status">' + esc(t("search.weak")) + "</p>";
    }
    html += said(data);
    runs.forEach(function (run) {
      html += '<section class="group"><h2>' + esc(docTitles[run.doc] || run.doc) + "</h2><ol>";
      run.results.forEach(function (r) {
        // the snippet is HTML from our server: escaped text with <mark> only
        var url = link(r.url);
        html += '<li><a href="' + esc(url) + '"><span class="title">' + esc(r.title) +
          '</span><span class="snippet">' + r.snippet + "</span></a></li>";
      });
      html += "</ol></section>";
    });
    out.innerHTML = html;
  }

  function run() {
    var q = input.value.trim();
    if (q === last) return;
    last = q;
    var url = new URL(location.href);
    if (q) url.searchParams.set("q", q); else url.searchParams.delete("q");
    history.replaceState(null, "", url.pathname + url.search);
    if (!q) { out.innerHTML = ""; shown = ""; stale(false); if (contents) contents.hidden = false; return; }
    stale(true);
    if (contents) contents.hidden = true;
    if (controller) controller.abort();
    controller = new AbortController();
    // a published copy has no server: the search runs on this device (same ranking)
    var asked = site ? Promise.reject(new TypeError("no server"))
      : fetch("/api/search?limit=12&q=" + encodeURIComponent(q), { signal: controller.signal });
    asked
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (res) {
        if (!res.ok) {
          shown = q; stale(false);
          out.innerHTML = '<p class="flash flash-error">' + esc(res.body.error || t("search.failed")) + "</p>";
          return;
        }
        render(res.body, q);
      })
      .catch(function (err) {
        if (err.name === "AbortError") return;
        offlineSearch(q).then(function (data) {
          if (q !== last) return;   // a newer query was typed meanwhile
          if (data.error && !data.results.length) {
            shown = q; stale(false);
            out.innerHTML = '<p class="flash flash-error">' + esc(t("search.offline_error", {error: data.error})) + "</p>";
          } else render(data, q);
        });
      });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    if (input.value.trim() !== shown) stale(true);
    timer = setTimeout(run, 90);
  });
  form.addEventListener("submit", function (ev) {
    // Enter opens the first result only when it is the answer to what is in the box now and
    // a good one; otherwise the form goes to /search?q=… for the current words (never an old
    // result, never a guess opened as if it were the answer, nor a "try" chip's search)
    if (!input.value.trim()) { ev.preventDefault(); return; }   // nothing typed: nothing to open
    var first = out.querySelector("section.group a");
    if (first && input.value.trim() === shown && !out.querySelector(".search-weak")) { ev.preventDefault(); location.href = first.href; }
  });
  input.addEventListener("keydown", function (ev) {
    if (ev.key === "ArrowDown") {
      var first = out.querySelector("a");
      if (first && input.value.trim() === shown) { ev.preventDefault(); first.focus(); }
    }
  });
  out.addEventListener("click", function (ev) {
    var chip = ev.target.closest ? ev.target.closest("[data-try]") : null;
    if (!chip) return;
    ev.preventDefault();                        // search the rules' words here, in one tap
    input.value = chip.getAttribute("data-try");
    run();
    input.focus();
  });
  out.addEventListener("keydown", function (ev) {
    var links = Array.prototype.slice.call(out.querySelectorAll("a"));
    var i = links.indexOf(document.activeElement);
    if (i < 0) return;
    if (ev.key === "ArrowDown" && i < links.length - 1) { ev.preventDefault(); links[i + 1].focus(); }
    if (ev.key === "ArrowUp") { ev.preventDefault(); (i > 0 ? links[i - 1] : input).focus(); }
  });
  var initial = new URL(location.href).searchParams.get("q");
  if (initial) { input.value = initial; run(); }
})();
