// The dashboard's players: the filter box and status choice (a 300-player list shows the
// first matches only), and check-in / mark absent without reloading the page (the filter
// stays). Without this script the page still works: the forms post and the list shows a
// "show all" link.
import { t } from "./i18n.js";
(function () {
  // after each registration the name field has the focus again (autofocus; this for the
  // browsers that skip it, e.g. after a back/forward navigation)
  var first = document.querySelector("#register input[autofocus]");
  if (first && (document.activeElement === document.body || !document.activeElement)) first.focus();

  var list = document.getElementById("player-list");
  if (!list) return;
  var box = document.getElementById("p-filter");
  var status = document.getElementById("p-status");
  var shown = document.getElementById("p-shown");
  var none = document.getElementById("p-none");
  var limit = box ? parseInt(box.getAttribute("data-limit"), 10) || 40 : 40;
  var showAll = /[?&]all=1(&|$)/.test(location.search);
  var rows = Array.prototype.slice.call(list.querySelectorAll("li.p-row"));

  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/\s+/g, " ").trim();
  }

  function say(matching, visible, filtered) {
    if (!shown) return;
    shown.textContent = "";
    if (matching > visible) {
      shown.appendChild(document.createTextNode(t(filtered ? "players.showing_matching" : "players.showing",
                                                  {visible: visible, count: matching}) + " "));
      var more = document.createElement("button");
      more.type = "button"; more.className = "linkish"; more.textContent = t("players.show_all");
      more.setAttribute("data-show-all", "");
      shown.appendChild(more);
      shown.appendChild(document.createTextNode("."));
    } else if (filtered) {
      shown.textContent = t("players.match", {count: matching});
    }
  }

  function apply() {
    var q = box ? fold(box.value) : "";
    var st = status ? status.value : "";
    var matching = 0, visible = 0;
    rows.forEach(function (li) {
      var ok = (!q || li.getAttribute("data-search").indexOf(q) !== -1) &&
               (!st || li.getAttribute("data-status") === st);
      if (ok) matching++;
      var show = ok && (showAll || visible < limit);
      if (show) visible++;
      li.hidden = !show;
    });
    if (none) none.hidden = matching > 0 || !rows.length;
    say(matching, visible, Boolean(q || st));
  }

  if (box) box.addEventListener("input", apply);
  if (status) status.addEventListener("change", apply);
  document.addEventListener("click", function (ev) {
    var more = ev.target.closest && ev.target.closest("[data-show-all]");
    if (!more) return;
    ev.preventDefault();
    showAll = true;
    apply();
  });
  if (box && box.value) apply();

  // check in / mark absent in place
  var token = document.querySelector('meta[name="csrf-token"]');
  var LABEL = {"in": t("players.checked_in"), "out": t("players.not_checked_in"), "dropped": t("players.dropped")};
  var CHIP = {"in": "chip-finished", "out": "chip-in-progress", "dropped": "chip-invalid"};
  function counts() {
    var n = {"in": 0, "out": 0, "dropped": 0};
    rows.forEach(function (li) { n[li.getAttribute("data-status")]++; });
    var out = document.querySelector("[data-count-out]"), inn = document.querySelector("[data-count-in]");
    if (out) out.textContent = n.out;
    if (inn) inn.textContent = n["in"];
  }
  list.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.hasAttribute("data-checkin") || !window.fetch || !token) return;
    ev.preventDefault();
    var li = form.closest("li");
    var input = form.querySelector('input[name="checked_in"]');
    var button = form.querySelector("button");
    var want = input.value === "1";
    button.disabled = true;
    fetch(form.getAttribute("data-api"), {
      method: "PATCH", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "Accept": "application/json",
                "X-CSRF-Token": token.getAttribute("content")},
      body: JSON.stringify({checked_in: want})
    }).then(function (r) {
      return r.json().then(function (body) { return {ok: r.ok, body: body}; });
    }).then(function (res) {
      button.disabled = false;
      var old = li.querySelector(".row-error");
      if (old) old.remove();
      if (!res.ok) {
        var p = document.createElement("p");
        p.className = "field-error row-error"; p.setAttribute("role", "alert");
        p.textContent = res.body.error || t("players.not_saved");
        li.appendChild(p);
        return;
      }
      var st = res.body.dropped ? "dropped" : (res.body.checked_in ? "in" : "out");
      li.setAttribute("data-status", st);
      li.classList.toggle("is-absent", !res.body.checked_in);
      var chip = li.querySelector("[data-state]");
      chip.textContent = LABEL[st];
      chip.className = "p-state chip " + CHIP[st];
      input.value = res.body.checked_in ? "0" : "1";
      button.textContent = res.body.checked_in ? t("players.mark_absent") : t("players.check_in");
      button.setAttribute("aria-label", button.textContent + ": " + res.body.name);
      counts();
    }).catch(function () {
      button.disabled = false;
      form.submit();  // no answer: send the form the plain way
    });
  });
})();
