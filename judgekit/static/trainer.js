// judgekit announcement trainer: progress in localStorage, answers without a reload,
// tap-to-say free practice. Every page also works without this file (plain form posts).
import { t } from "./i18n.js";
(function () {
  var STORE = "judgekit.trainer.v1";
  var MAX_ANSWERS = 500, MAX_KEYS = 200;

  // --- progress kept in this browser ------------------------------------------------
  function load() {
    try {
      var data = JSON.parse(localStorage.getItem(STORE) || "null");
      if (data && Array.isArray(data.answers)) {
        if (!Array.isArray(data.keys)) data.keys = [];
        return data;
      }
    } catch (e) { /* unreadable: start again */ }
    return { version: 1, answers: [], keys: [] };
  }
  function save(data) {
    data.answers = data.answers.slice(-MAX_ANSWERS);
    data.keys = data.keys.slice(-MAX_KEYS);
    try { localStorage.setItem(STORE, JSON.stringify(data)); } catch (e) { /* private mode: no progress */ }
  }
  function record(rec) {
    if (!rec || !rec.id) return;
    var data = load();
    if (rec.key && data.keys.indexOf(rec.key) !== -1) return;   // a reload of the same answer
    data.answers.push({ id: rec.id, ok: !!rec.ok, t: Math.floor(Date.now() / 1000) });
    if (rec.key) data.keys.push(rec.key);
    save(data);
  }
  function answersJSON() { return JSON.stringify({ answers: load().answers }); }

  function csrf() {
    var m = document.querySelector('meta[name="csrf-token"]');
    return m ? m.getAttribute("content") : "";
  }
  function postJSON(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRF-Token": csrf() },
      body: JSON.stringify(body)
    }).then(function (res) {
      return res.json().then(function (data) {
        if (!res.ok) throw new Error(data && data.error ? data.error : t("trainer.request_failed"));
        return data;
      });
    });
  }

  // Forms that start a session carry the progress so the server can mix weak sections.
  document.addEventListener("submit", function (ev) {
    var field = ev.target.querySelector && ev.target.querySelector("[data-progress-field]");
    if (field) field.value = answersJSON();
  }, true);

  function recordResult(root) {
    var box = root.querySelector("#result[data-record]");
    if (!box) return;
    try { record(JSON.parse(box.getAttribute("data-record"))); } catch (e) { /* ignore */ }
  }

  // --- the start page: mastery per section -----------------------------------------------
  function showProgress() {
    var items = document.querySelectorAll(".tr-sections li[data-section]");
    if (!items.length) return;
    var data = load();
    var reset = document.querySelector("[data-reset-progress]");
    if (reset && data.answers.length) {
      reset.hidden = false;
      reset.addEventListener("click", function () {
        if (!confirm(t("trainer.forget_confirm"))) return;
        try { localStorage.removeItem(STORE); } catch (e) { /* ignore */ }
        location.reload();
      });
    }
    if (!data.answers.length) return;
    postJSON("/api/trainer/progress", { answers: data.answers }).then(function (over) {
      var titles = {};
      over.sections.forEach(function (s) {
        titles[s.section] = s.title;
        var li = document.querySelector('.tr-sections li[data-section="' + s.section + '"]');
        if (!li) return;
        li.setAttribute("data-status", s.status);
        li.querySelector("[data-status]").textContent = s.status_label;
        li.querySelector("[data-score]").textContent = s.answered
          ? t("trainer.section_score", {right: s.right, answered: s.answered, seen: s.seen, total: s.total})
          : t("trainer.questions", {count: s.total});
      });
      var review = document.querySelector("[data-review]");
      if (review) {
        var parts = [];
        if (over.review.length) parts.push(t("trainer.to_review", {sections: over.review.map(function (k) { return titles[k]; }).join(", ")}));
        if (over.mastered.length) parts.push(t("trainer.mastered", {sections: over.mastered.map(function (k) { return titles[k]; }).join(", ")}));
        review.textContent = parts.join(" ");
        review.hidden = !parts.length;
      }
    }).catch(function () { /* the list stays as served */ });
  }

  // --- answering a question without a reload ---------------------------------------------
  function enhanceAnswers() {
    var form = document.querySelector("[data-answer-form]");
    if (!form || !window.fetch || !window.DOMParser) return;
    var busy = false;
    form.addEventListener("submit", function (ev) {
      var btn = ev.submitter;
      if (!btn || btn.name !== "choice") return;
      ev.preventDefault();
      if (busy) return;
      busy = true;
      var body = new FormData(form);
      body.append("choice", btn.value);
      Array.prototype.forEach.call(form.querySelectorAll("button"), function (b) { b.disabled = true; });
      btn.setAttribute("aria-pressed", "true");
      fetch(form.action, { method: "POST", body: body, credentials: "same-origin" }).then(function (res) {
        if (!res.ok) throw new Error("status " + res.status);
        return res.text().then(function (html) { return { html: html, url: res.url }; });
      }).then(function (got) {
        var doc = new DOMParser().parseFromString(got.html, "text/html");
        var answered = doc.querySelector(".tr-answered");
        var result = doc.querySelector("#result");
        if (!answered || !result) throw new Error("unexpected page");
        var mine = document.querySelector("#result");
        form.replaceWith(document.importNode(answered, true));
        mine.className = result.className;
        if (result.hasAttribute("data-record")) mine.setAttribute("data-record", result.getAttribute("data-record"));
        mine.innerHTML = result.innerHTML;
        var meter = doc.querySelector(".tr-meter"), myMeter = document.querySelector(".tr-meter");
        if (meter && myMeter) myMeter.replaceWith(document.importNode(meter, true));
        if (history.replaceState) history.replaceState(null, "", got.url.split("#")[0] + "#result");
        recordResult(document);
        focusResult(mine);
      }).catch(function () {
        // Fall back to the plain form post.
        var hidden = document.createElement("input");
        hidden.type = "hidden"; hidden.name = "choice"; hidden.value = btn.value;
        form.appendChild(hidden);
        HTMLFormElement.prototype.submit.call(form);
      });
    });
  }

  // --- free practice ---------------------------------------------------------------------
  function enhancePractice() {
    var root = document.querySelector("[data-practice]");
    if (!root || !window.fetch) return;
    var field = root.querySelector("[data-said-field]");
    var list = root.querySelector("[data-said-list]");
    var empty = root.querySelector("[data-said-empty]");
    var result = root.querySelector("[data-practice-result]");
    var texts = {};
    Array.prototype.forEach.call(root.querySelectorAll("[data-phrase]"), function (b) {
      texts[b.getAttribute("data-phrase")] = b.getAttribute("data-text");
    });
    var said = field.value ? field.value.split(",").filter(function (p) { return texts[p]; }) : [];

    function render() {
      field.value = said.join(",");
      list.innerHTML = "";
      said.forEach(function (p) {
        var li = document.createElement("li");
        li.textContent = texts[p];
        list.appendChild(li);
      });
      empty.hidden = said.length > 0;
    }
    function el(tag, cls, text) {
      var e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text) e.textContent = text;
      return e;
    }
    function show(data) {
      result.innerHTML = "";
      result.className = "tr-result " + (data.ok ? "is-right" : "is-wrong");
      var title = data.error && !data.advice.length ? data.error.charAt(0).toUpperCase() + data.error.slice(1)
        : data.ok ? t("trainer.well_announced")
        : t("trainer.not_yet", {count: data.advice.length});
      result.appendChild(el("h2", "tr-verdict", title));
      if (data.ok) result.appendChild(el("p", "", t("trainer.nothing_to_note")));
      if (data.advice.length) {
        var ul = el("ul", "tr-advice");
        data.advice.forEach(function (a) {
          var li = el("li");
          li.appendChild(el("p", "tr-tip", a.tip));
          if (a.detail) li.appendChild(el("p", "muted tr-small", t("trainer.judge_notes", {detail: a.detail})));
          if (a.url) { var link = el("a", "", a.rule ? t("trainer.read_the_rule_named", {rule: a.rule}) : t("trainer.read_the_rule")); link.href = a.url; li.appendChild(link); }
          ul.appendChild(li);
        });
        result.appendChild(ul);
      }
      focusResult(result);
    }
    function check(body) {
      body.prompt = root.getAttribute("data-practice");
      postJSON(root.getAttribute("data-check-url"), body).then(show).catch(function (err) {
        show({ ok: false, advice: [], error: err.message || t("trainer.check_failed") });
      });
    }

    root.addEventListener("click", function (ev) {
      var btn = ev.target.closest && ev.target.closest("button");
      if (!btn || !root.contains(btn)) return;
      if (btn.hasAttribute("data-phrase")) {
        ev.preventDefault();
        said.push(btn.getAttribute("data-phrase"));
        render();
      } else if (btn.hasAttribute("data-undo")) {
        ev.preventDefault(); said.pop(); render();
      } else if (btn.hasAttribute("data-clear")) {
        ev.preventDefault(); said = []; render(); result.innerHTML = ""; result.className = "tr-result";
      } else if (btn.hasAttribute("data-check")) {
        ev.preventDefault(); check({ said: said });
      }
    });
    var typed = root.querySelector("[data-typed-form]");
    if (typed) typed.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var line = typed.querySelector("[data-line]").value;
      if (line.trim()) check({ line: line });
    });
    render();
  }

  // Move focus to a result and bring its top into view below the sticky header.
  function focusResult(el) {
    el.focus({ preventScroll: true });
    var header = document.querySelector(".top");
    var offset = header && getComputedStyle(header).position === "sticky" ? header.offsetHeight + 8 : 8;
    var top = el.getBoundingClientRect().top + window.scrollY - offset;
    window.scrollTo(0, Math.max(0, top));
  }

  function init() {
    recordResult(document);
    showProgress();
    enhanceAnswers();
    enhancePractice();
    var target = location.hash === "#result" ? document.getElementById("result") : document.querySelector("[data-focus-on-load]");
    if (target && target.innerHTML.trim()) focusResult(target);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
