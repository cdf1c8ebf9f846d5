/* The recorder page's small parts: chips (one-tap choices), name suggestions under the field
   being typed (tappable, and ↓/↑, Enter, Tab from the keyboard), and the facts the forms are
   pre-filled from. Plain JS, no build step; used by recorder.js and the entry's parts
   (recorder-entry.js, recorder-table.js, recorder-*-forms.js, recorder-votes.js, recorder-steps.js).

   fields(request) (exported) -> {el, chip, chips, suggest, facts, factsOf, prefetch}
     request(method, url) -> Promise<{ok, status, data}> (the page's fetch wrapper). */
export const fields = (function () {

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) {
      if (attrs[k] == null || attrs[k] === false) continue;
      if (k === "class") e.className = attrs[k]; else e.setAttribute(k, attrs[k] === true ? "" : attrs[k]);
    }
    if (text != null) e.textContent = text;
    return e;
  }

  var uid = 0;

  return function (request) {
    // name -> facts, per reading: a minion's (from the state, or a suggestion) or a library card's
    var known = {minion: {}, library: {}};
    var asked = {};      // name -> Promise while a library card's facts are fetched
    function shelf(kind) { return kind === "library" ? known.library : kind === "minion" || kind === "crypt" ? known.minion : null; }

    function chip(label, onTap, opts) {
      // a one-tap choice: a button at least 40 px high; `record` marks one that records
      opts = opts || {};
      var b = el("button", {type: "button", "class": "rec-chip" + (opts.record ? " is-record" : "") +
        (opts.on ? " is-on" : "") + (opts.extra ? " " + opts.extra : ""), "aria-pressed": opts.toggle ? String(!!opts.on) : null,
        "data-value": opts.value != null ? String(opts.value) : null, title: opts.title || null}, label);
      if (opts.hint) b.appendChild(el("small", {"class": "rec-chip-hint"}, opts.hint));
      b.addEventListener("click", function (ev) { onTap(ev, b); });
      return b;
    }
    function chips(label, list) {
      // a row of chips with a caption ("Bruno blocks with")
      var row = el("div", {"class": "rec-chips", role: "group", "aria-label": label || null});
      if (label) row.appendChild(el("span", {"class": "rec-chips-label"}, label));
      list.forEach(function (c) { if (c) row.appendChild(c); });
      return row;
    }

    // --- suggestions -------------------------------------------------------------------------
    // suggest(input, opts): a list of names right under `input` as it is typed.
    //   opts.kind: "minion" | "library" | "crypt" (what /api/cards/complete offers)
    //   opts.local(): names already on the table, offered first when they match
    //   opts.pick(name, facts): what a pick does (default: put the name in the field)
    //   opts.box: the element to show the list in (default: one made right after the input)
    // Keys: ↓/↑ move through the list, Enter or Tab pick the one moved to, Escape closes it.
    function suggest(input, opts) {
      var box = opts.box;
      if (!box) {
        box = el("div", {"class": "rec-suggest rec-suggest-field"});
        input.insertAdjacentElement("afterend", box);
      }
      var id = "rec-sug-" + (++uid);
      box.id = box.id || id;
      box.setAttribute("role", "listbox");
      input.setAttribute("role", "combobox");   // a text box with a list of names (ARIA 1.2)
      input.setAttribute("aria-autocomplete", "list");
      input.setAttribute("aria-controls", box.id);
      input.setAttribute("aria-expanded", "false");
      var timer = null, active = -1, seq = 0, prefixOf = opts.prefix || function (v) { return {text: v}; };

      function options() { return Array.prototype.slice.call(box.querySelectorAll("[role=option]")); }
      function close() {
        box.textContent = ""; active = -1;
        input.setAttribute("aria-expanded", "false");
        input.removeAttribute("aria-activedescendant");
      }
      function mark(i) {
        var list = options();
        active = list.length ? (i + list.length) % list.length : -1;
        list.forEach(function (o, j) { o.classList.toggle("is-active", j === active); o.setAttribute("aria-selected", j === active ? "true" : "false"); });
        if (active >= 0) { input.setAttribute("aria-activedescendant", list[active].id); list[active].scrollIntoView({block: "nearest"}); }
      }
      function kind() { return opts.kindOf ? opts.kindOf() : opts.kind; }
      function choose(name) {
        var f = shelf(kind()) ? shelf(kind())[name] || null : null;
        close();
        if (opts.pick) opts.pick(name, f); else { input.value = name; }
      }
      function show(names) {
        box.textContent = "";
        active = -1;
        names.forEach(function (name, i) {
          var b = el("button", {type: "button", role: "option", id: box.id + "-" + i, "aria-selected": "false",
                                tabindex: "-1", "class": "rec-option"}, name);
          // pointerdown keeps the focus in the field (the keyboard stays up); click picks
          b.addEventListener("mousedown", function (ev) { ev.preventDefault(); });
          b.addEventListener("click", function () { choose(name); });
          box.appendChild(b);
        });
        input.setAttribute("aria-expanded", names.length ? "true" : "false");
      }
      function lookup() {
        var ctx = prefixOf(input.value);
        var q = ctx && ctx.text ? ctx.text.trim() : "";
        if (q.length < 2) { close(); return; }
        var mine = ++seq;
        var fold = q.toLowerCase();
        var local = (opts.local ? opts.local() : []).filter(function (n) {
          return n.toLowerCase().split(/[\s,]+/).some(function (w) { return w.indexOf(fold) === 0; }) ||
            n.toLowerCase().indexOf(fold) === 0;
        });
        if (local.length) show(local.slice(0, 8));
        request("GET", "/api/cards/complete?limit=8&kind=" + (kind() || "") + (shelf(kind()) ? "&facts=1" : "") +
                "&q=" + encodeURIComponent(q))
          .then(function (res) {
            if (mine !== seq || !res.ok) return;
            var facts = res.data.facts || {}, into = shelf(kind());
            if (into) Object.keys(facts).forEach(function (n) { if (facts[n] && !into[n]) into[n] = facts[n]; });
            var names = local.slice();
            (res.data.names || []).forEach(function (n) { if (names.indexOf(n) < 0) names.push(n); });
            show(names.slice(0, 8));
          }).catch(function () {});
      }
      input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(lookup, 90); });
      input.addEventListener("keydown", function (ev) {
        var list = options();
        if (!list.length) return;
        if (ev.key === "ArrowDown") { ev.preventDefault(); mark(active + 1); }
        else if (ev.key === "ArrowUp") { ev.preventDefault(); mark(active < 0 ? list.length - 1 : active - 1); }
        else if ((ev.key === "Enter" || ev.key === "Tab") && active >= 0) {
          ev.preventDefault(); choose(list[active].textContent);
        } else if (ev.key === "Escape") { ev.stopPropagation(); close(); }
      });
      input.addEventListener("blur", function () {
        // a tap on an option comes after the blur: let it land first
        setTimeout(function () { if (document.activeElement !== input) close(); }, 200);
      });
      return {close: close, box: box, refresh: lookup};
    }

    // --- facts ---------------------------------------------------------------------------------
    function facts(name, kind) { return (shelf(kind || "minion") || {})[name] || null; }
    function learn(list) {
      // the minions of the state come with their facts
      (list || []).forEach(function (m) { if (m && m.name) known.minion[m.name] = m; });
    }
    function factsOf(names) {
      // the facts of library cards (those seen at the table...), fetched once each
      var lib = known.library;
      var missing = names.filter(function (n) { return n && !lib[n] && !asked[n]; });
      var wait = names.filter(function (n) { return asked[n]; }).map(function (n) { return asked[n]; });
      if (missing.length) {
        var q = missing.slice(0, 40).map(function (n) { return "name=" + encodeURIComponent(n); }).join("&");
        var p = request("GET", "/api/cards/facts?kind=library&" + q).then(function (res) {
          var got = (res.ok && res.data.facts) || {};
          missing.forEach(function (n) { if (got[n]) lib[n] = got[n]; delete asked[n]; });
        }).catch(function () { missing.forEach(function (n) { delete asked[n]; }); });
        missing.forEach(function (n) { asked[n] = p; });
        wait.push(p);
      }
      return Promise.all(wait).then(function () {
        var out = {};
        names.forEach(function (n) { out[n] = lib[n] || null; });
        return out;
      });
    }

    return {el: el, chip: chip, chips: chips, suggest: suggest, facts: facts, factsOf: factsOf, learn: learn};
  };
})();
