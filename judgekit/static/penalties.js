/* Penalty form, extension form, local times. Plain JS, no build step; the pages work without it. */
import { t } from "./i18n.js";
(function () {

  function $(id) { return document.getElementById(id); }
  function pad(n) { return String(n).padStart(2, "0"); }

  // ISO times -> the device's local HH:MM
  document.querySelectorAll("time[data-local-time]").forEach(function (t) {
    var d = new Date(t.getAttribute("datetime"));
    if (!isNaN(d)) t.textContent = pad(d.getHours()) + ":" + pad(d.getMinutes());
  });

  function getJSON(url) {
    return fetch(url, {headers: {"Accept": "application/json"}, credentials: "same-origin"})
      .then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); });
  }

  // --- the penalty form ------------------------------------------------------------------
  var form = $("pen-form");
  if (form) {
    var player = $("pf-player"), infraction = $("pf-infraction"), penalty = $("pf-penalty");
    var find = $("pf-find"), seen = $("pf-seen");
    var refresh = $("pf-refresh");
    if (refresh) refresh.hidden = true;
    var proposed = null, acceptable = [];

    function show(el, on) { if (el) { if (on) el.removeAttribute("data-hidden"); else el.setAttribute("data-hidden", ""); } }

    function unregistered() { show($("pf-unreg"), player.value === "other"); }
    player.addEventListener("change", function () { unregistered(); update(); });

    // filter the infractions as you type
    if (find) {
      find.hidden = false;
      var all = Array.prototype.slice.call(infraction.querySelectorAll("option")).filter(function (o) { return o.value; });
      find.addEventListener("input", function () {
        var words = find.value.toLowerCase().split(/\s+/).filter(Boolean);
        var first = null;
        all.forEach(function (o) {
          var text = (o.textContent + " " + o.parentNode.label).toLowerCase();
          var hit = words.every(function (w) { return text.indexOf(w) >= 0; });
          o.hidden = !hit; o.disabled = !hit;
          if (hit && !first) first = o;
        });
        var cur = infraction.selectedOptions[0];
        if (first && words.length && (!cur || !cur.value || cur.disabled)) {
          infraction.value = first.value; update();
        }
      });
      find.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); infraction.focus(); } });
    }
    infraction.addEventListener("change", function () { clearOptions(); update(); });
    form.addEventListener("change", function (e) { if (e.target.name === "variant") update(); });
    penalty.addEventListener("change", function () { deviation(); update(true); });
    document.querySelectorAll("[data-pick-infraction]").forEach(function (b) {
      b.addEventListener("click", function () {
        var name = b.getAttribute("data-pick-infraction");
        Array.prototype.forEach.call(infraction.options, function (o) { if (o.textContent.trim() === name) infraction.value = o.value; });
        clearOptions(); update();
      });
    });

    function clearOptions() { var box = $("pf-options"); if (box) box.textContent = ""; }

    function deviation() {
      var off = proposed !== null && penalty.value && acceptable.indexOf(penalty.value) < 0;
      show($("pf-deviation"), off || $("pf-why").value);
    }

    function renderOptions(inf, options) {
      var box = $("pf-options");
      if (!box || box.childElementCount) return;
      if (options.length > 1) {
        var fs = document.createElement("fieldset");
        var lg = document.createElement("legend"); lg.className = "small"; lg.textContent = t("penalties.which_case"); fs.appendChild(lg);
        options.forEach(function (o, k) {
          var l = document.createElement("label"); l.className = "check";
          var r = document.createElement("input"); r.type = "radio"; r.name = "variant"; r.value = o.variant || ""; r.checked = k === 0;
          l.appendChild(r);
          l.appendChild(document.createTextNode(" " + o.when.charAt(0).toUpperCase() + o.when.slice(1) + " — " + (o.penalty || t("penalties.remedy"))));
          fs.appendChild(l);
        });
        box.appendChild(fs);
      }
      if (inf.note) { var n = document.createElement("p"); n.className = "hint"; n.textContent = inf.note; box.appendChild(n); }
      var d = document.createElement("p"); d.className = "hint pen-desc"; d.textContent = inf.description; box.appendChild(d);
    }

    // "Rule cited" follows the infraction picked, until the judge types their own
    var rule = $("pf-rule");
    function citeRule(cited) {
      if (!rule || (rule.value && rule.value !== rule.getAttribute("data-auto"))) return;
      rule.value = cited;
      rule.setAttribute("data-auto", cited);
      var link = $("pf-rule-link");
      if (!link) { link = document.createElement("p"); link.className = "small"; link.id = "pf-rule-link"; rule.parentNode.insertBefore(link, $("pf-rule-hint").nextSibling); }
      link.innerHTML = "";
      if (cited) { var a = document.createElement("a"); a.className = "rule-link"; a.href = "/rules/" + cited; a.textContent = cited; link.appendChild(a); }
    }

    var pending = 0;
    function update(keepPenalty) {
      if (!infraction.value || (!player.value)) return;
      var q = new URLSearchParams({infraction: infraction.value});
      if (player.value && player.value !== "other") q.set("player", player.value);
      var v = form.querySelector("input[name=variant]:checked");
      if (v && v.value) q.set("variant", v.value);
      if (keepPenalty && penalty.value) q.set("penalty", penalty.value);
      var mine = ++pending;
      getJSON(form.getAttribute("data-propose") + "?" + q.toString()).then(function (res) {
        if (mine !== pending) return;
        var box = $("pf-proposal");
        if (!res.ok) { box.innerHTML = ""; var e = document.createElement("p"); e.className = "pen-error"; e.textContent = res.body.error; box.appendChild(e); return; }
        var p = res.body.proposal;
        proposed = p.penalty; acceptable = p.acceptable || [];
        seen.value = p.penalty || "none";
        renderOptions(res.body.infraction, res.body.options);
        citeRule(res.body.infraction.rule || "");
        box.innerHTML = "";
        var head = document.createElement("p"); head.className = "pen-proposed";
        head.appendChild(document.createTextNode(t("penalties.proposed") + " "));
        var b = document.createElement("b"); b.id = "pf-proposed"; b.textContent = p.penalty || t("penalties.no_penalty"); head.appendChild(b);
        if (p.repeat > 1) { var rp = document.createElement("span"); rp.className = "pen-repeat"; rp.textContent = t("penalties.repeat", {count: p.repeat}); head.appendChild(rp); }
        box.appendChild(head);
        var why = document.createElement("p"); why.className = "pen-reason"; why.id = "pf-reason"; why.textContent = p.reason; box.appendChild(why);
        if (p.history.length) {
          var ol = document.createElement("ol"); ol.className = "pen-history"; ol.id = "pf-history";
          p.history.forEach(function (h) {
            var li = document.createElement("li");
            li.textContent = h.penalty + " · " + (h.round ? t("penalties.round_short", {round: h.round}) : "") + (h.table ? " " + t("penalties.table_short", {table: h.table}) : "") + " · " + h.judge + (h.description ? " — " + h.description.slice(0, 80) : "");
            ol.appendChild(li);
          });
          box.appendChild(ol);
        }
        if (!keepPenalty) {
          var none = Array.prototype.some.call(penalty.options, function (o) { return o.value === ""; });
          if (p.penalty) penalty.value = p.penalty; else if (none) penalty.value = "";
          Array.prototype.forEach.call(penalty.options, function (o) {
            o.textContent = o.value ? o.value + (o.value === p.penalty ? " (proposed)" : "") : o.textContent;
          });
        }
        var hj = $("pf-hj"), list = $("pf-hj-reasons");
        list.innerHTML = "";
        res.body.head_judge_reasons.forEach(function (r) { var li = document.createElement("li"); li.textContent = r; list.appendChild(li); });
        show(hj, res.body.needs_head_judge);
        $("pf-req").hidden = !res.body.description_required;
        deviation();
      }).catch(function () { /* offline: the server checks everything on submit */ });
    }
    unregistered();
    // A penalty chosen before this script ran (a slow phone) is the judge's: keep it.
    var chosen = penalty.selectedIndex >= 0 && !penalty.options[penalty.selectedIndex].defaultSelected;
    if (infraction.value && player.value) update(chosen || (!!penalty.value && !!form.querySelector(".pen-error")));
    form.setAttribute("data-ready", "");
  }

  // --- the extension form: the suggested amount comes from the server (recorder/clock.py) ---
  document.querySelectorAll("input[data-suggest]").forEach(function (input) {
    var target = $(input.getAttribute("data-target"));
    var note = $("sg-" + input.id.split("-")[1]);
    var auto = true;
    target.addEventListener("input", function () { auto = false; });
    input.addEventListener("input", function () {
      if (!input.value.trim()) { note.textContent = ""; return; }
      getJSON(input.getAttribute("data-suggest") + "?judge_minutes=" + encodeURIComponent(input.value))
        .then(function (res) {
          if (!res.ok) { note.textContent = res.body.error; return; }
          note.textContent = res.body.text;
          if (auto || !target.value) { target.value = res.body.low || ""; auto = true; }
        });
    });
    // offered by a closed judge call (the floor view's link): the suggestion at once
    if (input.value.trim()) input.dispatchEvent(new Event("input"));
  });
})();
